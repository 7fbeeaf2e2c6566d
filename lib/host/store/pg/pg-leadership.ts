import pg from 'pg';
import { errorMessage } from '../../../contracts';
import { type Leadership } from '../../leadership';

export interface PgLeadershipOptions {
  /** How often a replica that does not lead tries to (default 3 s). */
  retryMs?: number;
  log?: (line: string) => void;
}

/**
 * A team hub's leader (R20.43): the replica that holds a session-level advisory lock keyed by the log's id, on a
 * connection of its own (`askaway leader` in pg_stat_activity). The others try again every few seconds; the
 * leader checks its session as often. The lock lives as long as that session: a leader whose connection is lost
 * (an error, the end, a check unanswered within the period) stops leading at once, and the next try of another
 * replica takes the lock once the server has ended the session.
 */
export class PgLeadership implements Leadership {
  private client: pg.Client | undefined;
  private isLeading = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private trying: Promise<void> | undefined;
  private readonly listeners = new Set<(leading: boolean) => void>();

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly logId: string,
    private readonly options: PgLeadershipOptions = {},
  ) {}

  /** Tries once at once (so a lone replica leads before it serves), then keeps trying in the background. */
  async start(): Promise<void> {
    await this.tryToLead();
  }

  get leading(): boolean {
    return this.isLeading;
  }

  onChange(listener: (leading: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.trying;
    this.setLeading(false);
    const client = this.client;
    this.client = undefined;
    // Ending the session frees the lock: another replica takes over at its next try.
    await client?.end().catch(() => undefined);
  }

  private tryToLead(): Promise<void> {
    this.trying = this.attempt().finally(() => {
      this.trying = undefined;
      this.schedule();
    });
    return this.trying;
  }

  private schedule(): void {
    if (this.stopped || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.tryToLead();
    }, this.retryMs);
    this.timer.unref();
  }

  /** Not leading: try to take the lock. Leading: make sure the session still holds it (a silent cut, a frozen VM). */
  private async attempt(): Promise<void> {
    try {
      const client = this.client ?? (await this.connect());
      if (this.isLeading) {
        await client.query('SELECT 1');
        return;
      }
      const rows = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [
        `askaway leader ${this.logId}`,
      ]);
      if (rows.rows[0]?.locked === true) this.setLeading(true);
    } catch (error) {
      this.dropConnection(error);
    }
  }

  private async connect(): Promise<pg.Client> {
    // A query the server does not answer within one period counts as a lost session.
    const client = new pg.Client({ ...this.config, application_name: 'askaway leader', query_timeout: this.retryMs });
    client.on('error', (error) => this.dropConnection(error));
    client.on('end', () => this.dropConnection(undefined));
    this.client = client;
    await client.connect();
    return client;
  }

  /** The session is gone, and the lock with it: stop leading now, and try again after the usual wait. */
  private dropConnection(error: unknown): void {
    const client = this.client;
    this.client = undefined;
    if (client) void client.end().catch(() => undefined);
    if (this.isLeading) {
      this.options.log?.(
        `askaway: lost the connection that made this replica the leader${error === undefined ? '' : ` (${errorMessage(error)})`}; another replica takes over deadlines.`,
      );
    }
    this.setLeading(false);
    // An attempt under way schedules the next when it ends.
    if (this.trying === undefined) this.schedule();
  }

  private setLeading(leading: boolean): void {
    if (leading === this.isLeading) return;
    this.isLeading = leading;
    for (const listener of this.listeners) listener(leading);
  }

  private get retryMs(): number {
    return this.options.retryMs ?? 3_000;
  }
}
