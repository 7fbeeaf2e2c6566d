import path from 'node:path';
import Database from 'better-sqlite3';
import { HostEventSchema, type HostEvent } from '../../lib/contracts';

/** Every event of a stopped host's log, read directly (read-only) to audit it. */
export function readLog(dataDir: string): HostEvent[] {
  const db = new Database(path.join(dataDir, 'askaway.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT body FROM events ORDER BY seq').all() as { body: string }[];
    return rows.map((row) => HostEventSchema.parse(JSON.parse(row.body)));
  } finally {
    db.close();
  }
}
