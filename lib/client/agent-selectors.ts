// Zod-free: the inbox's first screen names agents without the schemas.
import { agentKey } from '../contracts/agent-ref';
import { memoByInteractions as memo } from './interactions-memo';

// Agents on the phone (R18.1): whether to show them at all (the filter is in ./filter-options.ts). The host
// names the agent of every interaction, older ones included (its log migration), so the phone reads it and
// never infers it; a view cached by an older app without one counts for none.

/**
 * Whether agents are worth naming: something on record came from a second agent. With one agent
 * only, no chip or filter shows and the screens look as they did before there were several.
 */
export const selectShowAgents = memo((interactions): boolean => {
  let first: string | undefined;
  for (const view of interactions.values()) {
    if (!view.agent) continue;
    const key = agentKey(view.agent);
    if (first === undefined) first = key;
    else if (key !== first) return true;
  }
  return false;
});
