// The machine Sessions and History show (R17.3), remembered on this device only: a person who
// looks at one machine's work keeps seeing it across both screens and the next visit.

const KEY = 'askaway.machineFilter';
const listeners = new Set<() => void>();
let cached: string | null = null;

/** The remembered machine id, or '' for every machine. */
export function getMachineFilter(): string {
  if (cached !== null) return cached;
  try {
    cached = window.localStorage.getItem(KEY) ?? '';
  } catch {
    cached = '';
  }
  return cached;
}

export function setMachineFilter(machineId: string): void {
  cached = machineId;
  try {
    if (machineId === '') window.localStorage.removeItem(KEY);
    else window.localStorage.setItem(KEY, machineId);
  } catch {
    // Private mode without storage: the choice still holds for this page.
  }
  for (const listener of listeners) listener();
}

export function subscribeMachineFilter(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
