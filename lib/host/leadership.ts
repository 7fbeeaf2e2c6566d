/**
 * Which hub process does what must happen once per hub, not once per replica (R20.43): the deadlines that
 * auto-resolve questions. A personal hub is alone on its log and always leads; a team hub's replicas elect one
 * through the database (`PgLeadership`).
 */
export interface Leadership {
  readonly leading: boolean;
  /** Tries once to lead before the process serves, then keeps trying in the background. */
  start(): Promise<void>;
  /** Called on every change, with the new state. */
  onChange(listener: (leading: boolean) => void): () => void;
  stop(): Promise<void>;
}

/** The only process on its log: it leads from the start and never stops. */
export const aloneOnTheLog: Leadership = {
  leading: true,
  start: () => Promise.resolve(),
  onChange: () => () => undefined,
  stop: () => Promise.resolve(),
};
