import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { asAdmin } from '../../lib/host/store/test-support/pg-test-database';
import { schemaOf, setUpPgTestLogs } from '../../lib/host/store/test-support/pg-test-logs';
import { writeAnsweredQuestions } from '../../lib/host/test-support/answered-questions-log';
import { tempDir } from '../../lib/host/test-support/test-host';
import { migratePersonalHub } from './migrate-hub';

const { freshLogUrl, open } = setUpPgTestLogs();

describe('[R20.34] the copy is read back and compared', () => {
  it('[R20.34] a copy that reads back unlike the personal log is an error that says not to start a hub on it', async () => {
    const dataDir = tempDir('migrate-differs-');
    await writeAnsweredQuestions(path.join(dataDir, 'askaway.db'), 2);
    const url = await freshLogUrl();
    await (await open(url)).close();
    // A database that changes what it stores: one event's body is not the one sent.
    const schema = schemaOf(url);
    await asAdmin(
      `CREATE FUNCTION ${schema}.tamper() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF NEW.seq = 2 THEN NEW.body := replace(NEW.body::text, 'bulk-0', 'bulk-X')::json; END IF;
           RETURN NEW;
         END $$`,
      [],
      url,
    );
    await asAdmin(
      `CREATE TRIGGER tamper BEFORE INSERT ON ${schema}.askaway_events FOR EACH ROW EXECUTE FUNCTION ${schema}.tamper()`,
      [],
      url,
    );
    await expect(migratePersonalHub({ dataDir, url })).rejects.toThrow(
      /The copy in .* does not match the personal log: it holds events that differ \(their digests do\)\. Do not start a team hub on it/,
    );
  });

  it('[R20.34] the same log without the tampering reads back alike', async () => {
    const dataDir = tempDir('migrate-alike-');
    await writeAnsweredQuestions(path.join(dataDir, 'askaway.db'), 2);
    const summary = await migratePersonalHub({ dataDir, url: await freshLogUrl() });
    expect(summary.log).toMatchObject({ events: 8, lastSeq: 8 });
    expect(summary.log.digest).toMatch(/^[0-9a-f]{64}$/);
  });
});
