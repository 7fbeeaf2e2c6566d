import { type NotifyLedger } from '../../push/shared-push-state';
import { type PgDatabase } from './pg-database';

/** Marks older than this go when new ones are written: a question waits hours, not weeks. */
const KEEP_MARKS = '30 days';

/** `askaway_push_notified`: the questions whose notification a leader sent (R20.63). */
export class PgNotifyLedger implements NotifyLedger {
  constructor(private readonly db: PgDatabase) {}

  async notified(requestIds: readonly string[]): Promise<Set<string>> {
    if (requestIds.length === 0) return new Set();
    const rows = await this.db.query<{ request_id: string }>(
      'read sent notifications from',
      'SELECT request_id FROM askaway_push_notified WHERE request_id = ANY($1::text[])',
      [[...requestIds]],
    );
    return new Set(rows.map((row) => row.request_id));
  }

  async markNotified(requestIds: readonly string[]): Promise<void> {
    if (requestIds.length === 0) return;
    await this.db.withClient('record sent notifications in', async (client) => {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO askaway_push_notified (request_id) SELECT unnest($1::text[]) ON CONFLICT (request_id) DO NOTHING`,
        [[...requestIds]],
      );
      await client.query(`DELETE FROM askaway_push_notified WHERE notified_at < now() - interval '${KEEP_MARKS}'`);
      await client.query('COMMIT');
    });
  }
}
