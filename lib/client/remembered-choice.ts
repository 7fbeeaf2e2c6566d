// A filter choice remembered on this device only (R17.3, R18.1): a person who looks at one machine's or
// one agent's work keeps seeing it across Sessions and History and on the next visit.

export interface RememberedChoice {
  /** The remembered value, or '' for no filter. */
  get(): string;
  set(value: string): void;
  subscribe(listener: () => void): () => void;
}

export function rememberedChoice(key: string): RememberedChoice {
  const listeners = new Set<() => void>();
  let cached: string | null = null;
  return {
    get() {
      if (cached !== null) return cached;
      try {
        cached = window.localStorage.getItem(key) ?? '';
      } catch {
        cached = '';
      }
      return cached;
    },
    set(value) {
      cached = value;
      try {
        if (value === '') window.localStorage.removeItem(key);
        else window.localStorage.setItem(key, value);
      } catch {
        // Private mode without storage: the choice still holds for this page.
      }
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The machine Sessions and History show ('' = every machine). */
export const machineFilter = rememberedChoice('askaway.machineFilter');
/** The agent Sessions and History show ('' = every agent), by `agentKey`. */
export const agentFilter = rememberedChoice('askaway.agentFilter');
