import { afterEach, describe, it } from 'vitest';
import { closeAllClients } from './test-support/clients';
import { storageOutageEpisode } from './test-support/storage-outage-episode';
import { closeAllHosts, startTestHost } from './test-support/test-host';
import { setUpPgTestLogs } from './store/test-support/pg-test-logs';

const logs = setUpPgTestLogs();

afterEach(async () => {
  closeAllClients();
  await closeAllHosts();
});

describe('[R20.19] a team hub whose database goes away', () => {
  it('[R20.19][R12.6] refuses every write with the reason and changes nothing, serves reads, and resumes by itself when the database is back', async () => {
    const { url, proxy } = await logs.relay(await logs.freshLogUrl());
    const lines: string[] = [];
    const host = await startTestHost({ databaseUrl: url, log: (line) => lines.push(line) });
    await storageOutageEpisode(host, { fill: () => proxy.cut(), free: () => proxy.restore() }, lines, /database/);
  });
});
