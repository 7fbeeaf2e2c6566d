import { type InteractionResolution } from '../contracts';

/**
 * How a secret answer (R18.5) reaches an agent connected to another replica of a team hub (R20.47). The log holds
 * its mask (R12.13) and the whole answer waits in the memory of the replica that took it; that replica hands it
 * over sealed to every replica alive, before the mask is appended, and the agent's replica opens its box.
 */
export interface SecretRelay {
  /** Seals the whole resolution for every replica alive. Throws when it cannot (the append would fail too). */
  seal(resolution: InteractionResolution): Promise<void>;
  /** The whole resolution sealed for this replica, if any. */
  open(requestId: string): Promise<InteractionResolution | undefined>;
  /** The agent has it, or refused it: every replica's box goes. */
  forget(requestId: string): Promise<void>;
}
