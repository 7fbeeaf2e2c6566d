import fs from 'node:fs';
import path from 'node:path';
import { readHostInfo } from '../../lib/runtime/host-address';
import { SqliteEventStore } from '../../lib/host/store/sqlite-event-store';
import { processAlive as alive } from '../../lib/runtime/process-alive';

/** Why the personal hub cannot be moved now; nothing was read or written. */
export class MigrateRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrateRefused';
  }
}

/**
 * Opens the personal hub's log in `dataDir` for the move (R20.31), or refuses: no log there, a hub running
 * with that data dir (its host.json names a live process, or SQLite's exclusive lock is held), or a log
 * SqliteEventStore refuses (damaged, foreign, newer). The log stays open, and locked, until closed: a hub
 * started meanwhile is refused instead of writing what the copy would miss.
 */
export function openPersonalLog(dataDir: string): SqliteEventStore {
  if (!fs.existsSync(dataDir)) throw new MigrateRefused(`There is no data dir ${dataDir}: nothing to move.`);
  const file = path.join(dataDir, 'askaway.db');
  if (!fs.existsSync(file)) {
    throw new MigrateRefused(
      `${dataDir} holds no personal hub's log (${file} does not exist): name the data dir \`askaway start\` used with --from.`,
    );
  }
  const running = readHostInfo(dataDir);
  if (running?.pid !== undefined && running.pid !== process.pid && alive(running.pid)) {
    throw new MigrateRefused(
      `A hub is running with ${dataDir} (pid ${running.pid}, ${running.url}): stop it first (Ctrl-C where it runs, or kill ${running.pid}), then migrate. Nothing was copied.`,
    );
  }
  // Its own refusals say what is wrong and that the file was left untouched; "locked" names a running host.
  return new SqliteEventStore(file);
}
