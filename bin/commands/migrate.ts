import path from 'node:path';
import { errorMessage } from '../../lib/contracts';
import { pgUrlProblem } from '../../lib/host/store/pg/pg-url';
import { resolveDataDir } from '../../lib/runtime/host-address';
import { migratePersonalHub, type MigrationSummary } from './migrate-hub';
import { parseFlags, usageError } from './parse-flags';
import { type CliCommand } from './types';

export const MIGRATE_USAGE = `Usage: askaway migrate --to <postgres URL> [--from <data dir>]

Moves a personal hub's history and devices into a team hub's PostgreSQL database: every event
of its log with its own seq, the log's id, and the hashes of its phones' and machines'
credentials, in one transaction. Paired phones and joined machines keep working and resume
where they were once the team hub runs on that database. The database's log must be empty;
the personal log is only read. Stop the personal hub first.

Options:
  --from <dir>   The personal hub's data dir (env ASKAWAY_DATA_DIR, default ~/.askaway)
  --to <url>     The team database: postgres://user@host:5432/db (env ASKAWAY_DATABASE_URL);
                 give the password in PGPASSWORD or ~/.pgpass, not in the flag
  -h, --help     Show this help

Then start the team hub on the same data dir (it still holds the agent and admin tokens, the
push keys and the push subscriptions): askaway start --data-dir <dir> --database <url>
`;

export const migrateCommand: CliCommand = {
  name: 'migrate',
  summary: "Move a personal hub's history and devices into a team hub's PostgreSQL database",
  async run(argv) {
    const parsed = parseFlags('migrate', MIGRATE_USAGE, argv, {
      from: { type: 'string' },
      to: { type: 'string' },
    });
    if ('exit' in parsed) return parsed.exit;
    const { values } = parsed;
    const url = values.to ?? (process.env.ASKAWAY_DATABASE_URL?.trim() || undefined);
    const source = values.to === undefined ? 'ASKAWAY_DATABASE_URL' : '--to';
    if (url === undefined || url.trim() === '')
      return usageError('migrate', MIGRATE_USAGE, '--to needs the team database (a postgres:// URL)');
    const problem = pgUrlProblem(url);
    if (problem) return usageError('migrate', MIGRATE_USAGE, `${source} must be a postgres:// URL: ${problem}`);
    const dataDir = values.from === undefined ? resolveDataDir(process.env) : path.resolve(values.from);
    try {
      const summary = await migratePersonalHub({ dataDir, url, progress: reportProgress });
      process.stdout.write(formatSummary(summary));
      return 0;
    } catch (error) {
      // Every refusal says what is wrong and that nothing was copied; none shows the password.
      process.stderr.write(`askaway migrate: ${errorMessage(error)}\n`);
      return 1;
    }
  },
};

/** A long log takes a while: a line every PROGRESS_EVERY events, none for a short one. */
const PROGRESS_EVERY = 5_000;

function reportProgress(copied: number, total: number): void {
  if (copied % PROGRESS_EVERY !== 0 || copied >= total) return;
  const of = (n: number) => n.toLocaleString('en-US');
  process.stderr.write(`Copied ${of(copied)} of ${of(total)} events (not committed yet)…\n`);
}

export function formatSummary(summary: MigrationSummary): string {
  const { log, credentials } = summary;
  const count = (n: number, noun: string) => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
  // The URL without its password: a command to copy, not a secret to show.
  const next = `askaway start --data-dir ${shellWord(summary.dataDir)} --database ${shellWord(withoutPassword(summary.where))}`;
  return [
    `Moved the personal hub in ${summary.dataDir} into ${summary.where}:`,
    `  Events:       ${count(log.events, 'event')}, seq 1 to ${log.lastSeq}: the same count, last seq and digest on both sides`,
    `  Devices:      ${count(summary.devices, 'paired phone')}`,
    `  Machines:     ${count(summary.machines, 'joined machine')}`,
    `  Questions:    ${count(summary.pending, 'waiting question')}`,
    `  Credentials:  ${credentials.device + credentials.machine} (${credentials.device} device, ${credentials.machine} machine): their hashes, with when each was last seen`,
    `  Push:         ${count(summary.push.subscriptions, 'Web Push subscription')}, ${count(summary.push.topics, 'ntfy topic')}`,
    `  Secrets:      ${summary.secrets.length > 0 ? summary.secrets.join(', ') : 'none in the data dir'} (every replica uses them)`,
    `  Log id:       ${summary.logId} (kept: phones resume where they were)`,
    '',
    `The personal log ${path.join(summary.dataDir, 'askaway.db')} is as it was; the team hub does not read it,`,
    'nor push.sqlite: the database now holds the tokens, push keys and subscriptions, and each replica writes the',
    'tokens into its own data dir for the `askaway` commands there. Start the team hub, the password in',
    'PGPASSWORD or ~/.pgpass (or, instead of --database, the whole URL in ASKAWAY_DATABASE_URL):',
    '',
    `  ${next}`,
    '',
  ].join('\n');
}

/** The redacted URL with no password at all: `user:***@` becomes `user@`. */
function withoutPassword(redacted: string): string {
  try {
    const url = new URL(redacted);
    url.password = '';
    if (url.searchParams.has('password')) url.searchParams.delete('password');
    return url.toString();
  } catch {
    return redacted;
  }
}

/** Quoted for a POSIX shell when it holds anything but plain characters. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
