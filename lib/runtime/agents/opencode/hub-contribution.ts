import { type HubContribution } from '../../hub-contribution';

/**
 * What the hub serves for OpenCode: nothing. OpenCode's plugin starts its own `askaway opencode bridge` in
 * each OpenCode process (R18.21), which reaches the host like any runtime.
 */
export function openCodeHubContribution(): HubContribution {
  return { agent: 'opencode' };
}
