import { claudeCodeHubContribution } from '../../lib/runtime/agents/claude-code/hub-contribution';
import { acpHubContribution } from '../../lib/runtime/agents/acp/hub-contribution';
import { copilotHubContribution } from '../../lib/runtime/agents/copilot/hub-contribution';
import { codexHubContribution } from '../../lib/runtime/agents/codex/hub-contribution';
import { openCodeHubContribution } from '../../lib/runtime/agents/opencode/hub-contribution';
import { type HubContribution } from '../../lib/runtime/hub-contribution';

/**
 * Every agent's part of the hub (R18.29), one line each: what `askaway start` serves and runs for it and what
 * `askaway status` says. The host knows no agent; a new agent adds its folder's contribution here.
 */
export function hubContributions(options: { codexHomes: readonly string[] }): HubContribution[] {
  return [
    claudeCodeHubContribution(),
    codexHubContribution({ homes: options.codexHomes }),
    openCodeHubContribution(),
    copilotHubContribution(),
    acpHubContribution(),
  ];
}
