import type pg from 'pg';
import { describeWorkError } from './pg-errors';

/**
 * The log's connection pool after a good start. Every query's failure becomes a PgLogError that says whether
 * the database is unreachable or refused the statement (never quoting the password), so the host's write
 * queue can refuse with the reason and serve on from its state.
 */
export class PgDatabase {
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    readonly url: string,
  ) {}

  /** `doing` completes "Cannot … the event log" in the error: "read", "append to". */
  async query<Row extends pg.QueryResultRow>(doing: string, text: string, values?: unknown[]): Promise<Row[]> {
    this.assertOpen(doing);
    try {
      return (await this.pool.query<Row>(text, values)).rows;
    } catch (error) {
      throw describeWorkError(this.url, doing, error);
    }
  }

  /**
   * A pooled client for a transaction; `work` leaves it outside any transaction (ROLLBACK or COMMIT) when it
   * resolves. When it throws, the client is discarded and the error described like a query's.
   */
  async withClient<T>(doing: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    this.assertOpen(doing);
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw describeWorkError(this.url, doing, error);
    }
    // A checked-out client whose connection ends emits `error` even when the failing query has been told:
    // the pool listens only while the client is idle, and an unheard `error` would end the process.
    let lost: unknown;
    const onError = (error: unknown) => {
      lost = error;
    };
    client.on('error', onError);
    try {
      const result = await work(client);
      client.removeListener('error', onError);
      client.release(lost === undefined ? undefined : true);
      return result;
    } catch (error) {
      // A client whose transaction state is unknown (the connection broke mid-way) must not go back to the pool.
      client.removeListener('error', onError);
      client.on('error', () => undefined);
      client.release(true);
      throw describeWorkError(this.url, doing, error);
    }
  }

  get isClosed(): boolean {
    return this.closed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  private assertOpen(doing: string): void {
    if (this.closed) throw new Error(`Cannot ${doing} the event log: it is closed`);
  }
}
