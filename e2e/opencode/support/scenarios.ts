import { type InteractionRecord } from '../../../lib/contracts';
import { type ScriptedRemote } from '../../../lib/runtime/test-support/scripted-remote';
import { type SharedTui } from './fixtures';
import { type ScriptedModel, type ScriptedTurn, type ScriptedBlock } from './model-server';
import { newSession } from './tui';
import { forAgentWork } from '../../support/agent-wait';

export function choice(question: string, header: string, labels: string[], multiple = false) {
  return {
    question,
    header,
    ...(multiple ? { multiple } : {}),
    options: labels.map((label) => ({ label, description: `Use ${label}` })),
  };
}

export const DB_QUESTION = 'Which database should the service use?';
export const dbQuestion = choice(DB_QUESTION, 'Database', ['Postgres', 'SQLite']);

/** The model calls OpenCode's question tool. */
export function askQuestions(id: string, questions: unknown[]): ScriptedBlock[] {
  return [{ type: 'tool_call', id, name: 'question', input: { questions } }];
}

export function bash(id: string, command: string): ScriptedBlock[] {
  return [{ type: 'tool_call', id, name: 'bash', input: { command, description: `Runs ${command}` } }];
}

/** OpenCode 1.18's own wording of a question's result (what the model reads). */
export const openCodeSays = {
  answered: (pairs: string) =>
    `User has answered your questions: ${pairs}. You can now continue with the user's answers in mind.`,
  dismissed: 'The user dismissed this question',
  rejectedWith: (message: string) =>
    `The user rejected permission to use this specific tool call with the following feedback: ${message}`,
};

/** The interaction a tool call of OpenCode's became on the phone. */
export function onPhone(
  remote: ScriptedRemote,
  toolCallId: string,
  timeoutMs = forAgentWork(),
): Promise<InteractionRecord> {
  return remote.next((record) => record.agent?.kind === 'opencode' && record.toolUseId === toolCallId, timeoutMs);
}

/**
 * A new session in the worker's TUI whose model plays `turns`, and the card its tool call `toolCallId`
 * became on the phone.
 */
export async function startConversation(
  { sharedTui, model, remote }: { sharedTui: () => Promise<SharedTui>; model: ScriptedModel; remote: ScriptedRemote },
  conversation: { marker: string; turns: ScriptedTurn[]; prompt?: string },
  toolCallId: string,
): Promise<SharedTui & { record: InteractionRecord }> {
  model.add(conversation);
  const shared = await sharedTui();
  await newSession(shared.tmux, `${conversation.marker}: ${conversation.prompt ?? 'set up the service'}`);
  return { ...shared, record: await onPhone(remote, toolCallId) };
}
