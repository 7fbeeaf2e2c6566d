import path from 'node:path';
import { AGENT_NAMES, type AgentRef, type InteractionContext, type InteractionOrigin } from '../../../contracts';
import { readLastAssistantMessage } from './transcript';

/** What every hook payload says about where it runs. */
interface Whereabouts {
  session_id: string;
  transcript_path?: string | undefined;
  cwd?: string | undefined;
}

/**
 * The card's context (R9.10): what the model said last (from the transcript, when its file is this machine's),
 * the project, and how the terminal stands (`extra`). A transcript refused (a FIFO, a link, R12.16) is one `log` line.
 */
export async function contextOf(
  payload: Whereabouts,
  localFiles: boolean,
  extra: Pick<InteractionContext, 'openInTerminal' | 'movesToTerminalAt'> = {},
  log?: (line: string) => void,
): Promise<InteractionContext | undefined> {
  const context: InteractionContext = { ...extra };
  const message = localFiles ? await readLastAssistantMessage(payload.transcript_path, undefined, log) : undefined;
  if (message) context.agentMessage = message;
  if (payload.cwd) {
    context.cwd = payload.cwd.slice(0, 1_000);
    const project = path.basename(payload.cwd);
    if (project) context.projectName = project.slice(0, 200);
  }
  return Object.keys(context).length > 0 ? context : undefined;
}

/** The root session's origin: a call Claude Code made itself, not a subagent's. */
export function rootOrigin(sessionId: string): InteractionOrigin {
  return { kind: 'root', label: 'Claude Code', path: [], depth: 0, sessionId };
}

export const CLAUDE_CODE_AGENT: AgentRef = { kind: 'claude-code', name: AGENT_NAMES['claude-code'] };
