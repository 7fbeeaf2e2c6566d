import { type RuntimeRoute } from './registry-types';

/**
 * Where each interaction's runtime is (R8.1), with the keys routed to each connection, so a connection's
 * share of its machine's waiting interactions (R12.17) is counted without walking every route.
 */
export class RouteTable {
  private readonly byKey = new Map<string, RuntimeRoute>();
  private readonly bySocket = new Map<string, Set<string>>();

  get(key: string): RuntimeRoute | undefined {
    return this.byKey.get(key);
  }

  set(key: string, route: RuntimeRoute): void {
    this.unlink(key);
    this.byKey.set(key, route);
    const keys = this.bySocket.get(route.socketId);
    if (keys) keys.add(key);
    else this.bySocket.set(route.socketId, new Set([key]));
  }

  delete(key: string): void {
    this.unlink(key);
    this.byKey.delete(key);
  }

  /** How many of the keys routed to `socketId` pass `counts` (e.g. are still pending). */
  countOf(socketId: string, counts: (key: string) => boolean): number {
    let count = 0;
    for (const key of this.bySocket.get(socketId) ?? []) if (counts(key)) count += 1;
    return count;
  }

  private unlink(key: string): void {
    const old = this.byKey.get(key);
    if (!old) return;
    const keys = this.bySocket.get(old.socketId);
    keys?.delete(key);
    if (keys?.size === 0) this.bySocket.delete(old.socketId);
  }
}
