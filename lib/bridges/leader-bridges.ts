import { type Leadership } from '../host/leadership';
import { type HubBridge, type HubContribution, type HubServices } from '../runtime/hub-contribution';

/** The agents' bridges a hub runs, started and stopped with its leadership. */
export interface LeaderBridges {
  /** Stops whatever runs and follows leadership no more. */
  close(): Promise<void>;
}

/**
 * Runs the contributions' bridges (e.g. Codex's, R18.14) only while this process leads its log (R20.45): on a
 * team hub every replica mounts the same contributions, and two bridges attached to one Codex daemon would each
 * announce its prompts and each answer them. A personal hub always leads, so its bridges start at once. A
 * replica that loses the lead stops its bridges (their waiting questions are withdrawn and the new leader's
 * bridges announce them again from the daemon); one that gains it starts them.
 */
export function runBridgesWhileLeading(
  leadership: Pick<Leadership, 'leading' | 'onChange'>,
  contributions: readonly HubContribution[],
  services: HubServices,
): LeaderBridges {
  const startable = contributions.filter((contribution) => contribution.start !== undefined);
  let running: HubBridge[] | undefined;
  // Starts and stops run one after another: a lead lost and won again must not leave two sets running.
  let transition: Promise<void> = Promise.resolve();
  let closed = false;

  const start = (): void => {
    running = startable.flatMap((contribution) => contribution.start?.(services) ?? []);
  };
  const follow = (leading: boolean): void => {
    transition = transition.then(async () => {
      if (closed) return;
      if (leading && running === undefined) {
        services.log('Agent bridges: started, this hub process leads the log now.');
        start();
      } else if (!leading && running !== undefined) {
        services.log('Agent bridges: stopped, another hub process leads the log now.');
        await stopAll();
      }
    });
  };

  const stopAll = async (): Promise<void> => {
    const stopping = running ?? [];
    running = undefined;
    await Promise.allSettled(stopping.map(async (bridge) => bridge.stop()));
  };

  if (startable.length > 0 && !leadership.leading)
    services.log('Agent bridges: waiting to lead the log (another hub process runs them).');
  // At once when leading from the start, as a personal hub always does: its bridges run before it serves.
  if (leadership.leading) start();
  const unfollow = startable.length > 0 ? leadership.onChange(follow) : () => undefined;
  return {
    async close() {
      unfollow();
      await transition;
      closed = true;
      await stopAll();
    },
  };
}
