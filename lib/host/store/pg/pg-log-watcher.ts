import pg from 'pg';
import { passwordOf, reasonOf } from './pg-errors';
import { redactUrl } from './pg-url';

export interface PgLogWatcherOptions {
  /** The pool's connection settings: the listener connects the same way, on a connection of its own. */
  config: pg.ClientConfig;
  channel: string;
  /** Called with every newest seq heard: a notification, or the head read after (re)connecting. */
  heard: (lastSeq: number) => void;
  log: (line: string) => void;
  /** The database's URL: shown redacted, its password kept out of every line. */
  url: string;
}

const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5_000;

/**
 * LISTENs for the log's appends on a dedicated connection (a pooled one would be handed to queries and
 * lose the LISTEN). When that connection is lost (the server restarts, a network drop, pg_terminate_backend),
 * it reconnects with a growing delay and, once listening again, reads the head: appends made while nobody
 * listened were not announced to it (R20.16).
 */
export class PgLogWatcher {
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private attempts = 0;
  private stopped = false;
  /** Said once per outage, not once per failed attempt. */
  private outageLogged = false;

  constructor(private readonly options: PgLogWatcherOptions) {}

  start(): void {
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const { config, channel } = this.options;
    // Named in pg_stat_activity unless the URL names its connections itself (application_name).
    const client = new pg.Client({ ...config, fallback_application_name: 'askaway log watch' });
    this.client = client;
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('the connection ended')));
    client.on('notification', (message) => {
      if (message.channel !== channel) return;
      const seq = Number(message.payload);
      if (Number.isSafeInteger(seq)) this.options.heard(seq);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
      const head = await client.query<{ last_seq: string }>('SELECT last_seq FROM askaway_head WHERE id = 1');
      if (client !== this.client) return;
      if (this.outageLogged)
        this.options.log(`Listening to the event log's database ${redactUrl(this.options.url)} again.`);
      this.attempts = 0;
      this.outageLogged = false;
      const seq = Number(head.rows[0]?.last_seq);
      if (Number.isSafeInteger(seq)) this.options.heard(seq);
    } catch (error) {
      this.lost(client, error);
    }
  }

  private lost(client: pg.Client, error: unknown): void {
    if (client !== this.client || this.stopped) return;
    this.client = undefined;
    // The ended client may still emit: those events are about a connection already given up.
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    if (!this.outageLogged) {
      this.outageLogged = true;
      const reason = reasonOf(error, passwordOf(this.options.url));
      this.options.log(
        `Lost the event log's notifications from ${redactUrl(this.options.url)} (${reason}); reconnecting. Appends are read when it is back.`,
      );
    }
    const delay = Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** this.attempts);
    this.attempts += 1;
    this.retry = setTimeout(() => void this.connect(), delay);
    this.retry.unref();
  }
}
