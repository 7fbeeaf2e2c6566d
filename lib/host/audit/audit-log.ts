import { type AuditLine, type AuditPage, type HostEvent } from '../../contracts';
import { type InteractionRegistry } from '../registry';
import { type EventStore } from '../store/event-store';

/** Most entries one page of `GET /api/team/audit` holds, and its default. */
export const AUDIT_PAGE_MAX = 200;
export const AUDIT_PAGE_DEFAULT = 50;
/** Entries one `GET /api/admin/audit` answer holds; the CLI asks again after the last one until a page is empty. */
export const ADMIN_AUDIT_PAGE = 1_000;

/**
 * Reads a team hub's audit record (R21.66, R21.67). The projection knows only where the entries are (their seqs
 * and times); the entries are read from the store by seq, one query a page, on SQLite and PostgreSQL alike. It
 * catches up first, so an entry another replica wrote a moment ago is in the answer.
 */
export class AuditLog {
  constructor(
    private readonly registry: Pick<InteractionRegistry, 'projection' | 'catchUp'>,
    private readonly store: Pick<EventStore, 'readSeqs'>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Newest first: the `limit` entries before seq `before` (all, without it); `nextBefore` when older ones remain. */
  async newest(before: number | undefined, limit: number): Promise<AuditPage> {
    await this.caughtUp();
    const seqs = this.registry.projection.audit.newestBefore(before ?? Number.MAX_SAFE_INTEGER, limit + 1);
    const page = seqs.slice(0, limit);
    const entries = (await this.read(page)).reverse();
    const last = page.at(-1);
    return { entries, ...(seqs.length > limit && last !== undefined ? { nextBefore: last } : {}) };
  }

  /** Oldest first: entries recorded at or after `sinceMs`, after seq `afterSeq`, at most ADMIN_AUDIT_PAGE. */
  async since(sinceMs: number, afterSeq: number): Promise<AuditLine[]> {
    await this.caughtUp();
    return this.read(this.registry.projection.audit.oldestSince(sinceMs, afterSeq, ADMIN_AUDIT_PAGE));
  }

  private async caughtUp(): Promise<void> {
    try {
      await this.registry.catchUp();
    } catch (error) {
      // The log out of reach: the answer holds what this replica has, and reading it will say if the store is gone.
      this.onError(error);
    }
  }

  private async read(seqs: readonly number[]): Promise<AuditLine[]> {
    return (await this.store.readSeqs(seqs)).flatMap(toLine);
  }
}

function toLine(event: HostEvent): AuditLine[] {
  return event.type === 'audit.recorded' ? [{ seq: event.seq, at: event.at, ...event.entry }] : [];
}
