import { type HubContribution } from '../../hub-contribution';

/**
 * What the hub serves for ACP agents: nothing. The editor starts `askaway acp -- <agent>`, which reaches the host
 * like any runtime (R18.37).
 */
export function acpHubContribution(): HubContribution {
  return { agent: 'acp' };
}
