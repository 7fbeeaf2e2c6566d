import { type HubContribution } from '../../hub-contribution';

/**
 * What the hub serves for Copilot CLI: nothing. `askaway copilot` starts Copilot with its server on a loopback
 * port only it knows and runs the bridge in its own process, which reaches the host like any runtime (R18.30).
 */
export function copilotHubContribution(): HubContribution {
  return { agent: 'copilot' };
}
