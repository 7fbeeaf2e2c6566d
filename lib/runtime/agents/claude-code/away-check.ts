import { AWAY_API_PATH, AwayStateSchema, errorMessage } from '../../../contracts';
import { resolveHostTarget } from '../../host-address';
import { requestJson } from '../../../http/request-json';

/** How long the Stop hook asks before it takes the person to be at the desk: it delays every turn's end. */
export const AWAY_CHECK_TIMEOUT_MS = 3_000;

/**
 * Whether the person is away (R19.50), from the host this machine's agents report to (`GET /api/agent/away` with
 * its credential). A host that cannot be asked means "at the desk": the turn then ends at once, as without Askaway,
 * and `log` says why.
 */
export async function askAway(
  env: Record<string, string | undefined>,
  log: (line: string) => void,
  timeoutMs = AWAY_CHECK_TIMEOUT_MS,
): Promise<boolean> {
  const target = resolveHostTarget(env);
  if (target.token === null) {
    log('askaway hook: no agent token for the host; the finished turn is not held for the phone');
    return false;
  }
  try {
    const reply = await requestJson(new URL(AWAY_API_PATH, `${target.url}/`), {
      method: 'GET',
      token: target.token,
      insecureLoopback: true,
      timeoutMs,
    });
    const state = AwayStateSchema.safeParse(reply.json);
    if (reply.status !== 200 || !state.success) {
      log(`askaway hook: the host did not say whether you are away (HTTP ${reply.status}); not waiting for the phone`);
      return false;
    }
    return state.data.away;
  } catch (error) {
    log(
      `askaway hook: could not ask the host whether you are away (${errorMessage(error)}); not waiting for the phone`,
    );
    return false;
  }
}
