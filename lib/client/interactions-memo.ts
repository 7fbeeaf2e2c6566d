import { type InteractionView } from '../contracts';
import { type HostView } from './host-view';

/** A selector computed once per interactions map (the fold hands out a new one on every change). */
export function memoByInteractions<T>(compute: (interactions: ReadonlyMap<string, InteractionView>) => T) {
  const cache = new WeakMap<ReadonlyMap<string, InteractionView>, T>();
  return (host: Pick<HostView, 'interactions'>): T => {
    const hit = cache.get(host.interactions);
    if (hit !== undefined) return hit;
    const value = compute(host.interactions);
    cache.set(host.interactions, value);
    return value;
  };
}
