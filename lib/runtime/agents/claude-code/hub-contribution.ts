import { type HubContribution } from '../../hub-contribution';
import { type FollowOptions } from './follow-transcript';
import { type HookDeadline } from './handle-hook';
import { createClaudeCodeHookHandler } from './http-hook-route';
import { HOOK_HTTP_PATH } from './install';

/** What the hub serves for Claude Code: its HTTP hook at `/hooks/claude-code` (R11.2). */
export function claudeCodeHubContribution(
  options: {
    /** How each hook's fallback deadline is kept (tests); a real timer by default. */
    deadline?: HookDeadline;
    /** How each hook follows its transcript (tests poll by hand). */
    follow?: FollowOptions;
  } = {},
): HubContribution {
  return {
    agent: 'claude-code',
    routes: (hub) => [
      {
        method: 'POST',
        path: HOOK_HTTP_PATH,
        handler: createClaudeCodeHookHandler({
          runtimeFor: hub.runtimeFor,
          // Why a form stays in the terminal, and the like: the hub's log says it (R12.12).
          log: (line) => hub.log(line),
          deadline: options.deadline,
          follow: options.follow,
          localMachineName: hub.localMachineName,
        }),
      },
    ],
  };
}
