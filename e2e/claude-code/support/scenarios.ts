import { expect } from '@playwright/test';
import { type InteractionRecord } from '../../../lib/contracts';
import { type ScriptedRemote } from '../../../lib/runtime/test-support/scripted-remote';
import { type Workspace } from './fixtures';
import { type MessagesRequest, type ScriptedBlock, type ToolResult } from './model-server';
import { SDK_HOST_DENIAL, startSdkSession, type SdkSession, type SdkSessionOptions } from './sdk-session';
import { forAgentWork } from '../../support/agent-wait';

export const DB_QUESTION = 'Which database should the service use?';
export const CACHE_QUESTION = 'Which cache should sit in front of it?';

export function choice(question: string, header: string, labels: string[], multiSelect = false) {
  return { question, header, multiSelect, options: labels.map((label) => ({ label, description: `Use ${label}` })) };
}

export const dbQuestion = choice(DB_QUESTION, 'Database', ['Postgres', 'SQLite']);
export const cacheQuestion = choice(CACHE_QUESTION, 'Cache', ['Redis', 'None']);

export function askUserQuestion(id: string, input: unknown): ScriptedBlock[] {
  return [{ type: 'tool_use', id, name: 'AskUserQuestion', input }];
}

/** The plan file Claude Code's plan mode tells the model to write (it names it in the request). */
export function planFileIn(request: MessagesRequest): string {
  const match = /create your plan at (\/\S+?\.md)/.exec(JSON.stringify(request));
  if (!match?.[1]) throw new Error('plan mode did not name a plan file in the request');
  return match[1];
}

/** Claude Code's own wording on the hook path (2.1.332, mapToolResultToToolResultBlockParam). */
export const claudeCodeSays = {
  answered: (pairs: string) =>
    `Your questions have been answered: ${pairs}. You can now continue with these answers in mind.`,
  /** Typed text, notes, or a question without an answer among the answers (2.1.332). */
  userAnswered: (pairs: string) =>
    `The user answered: ${pairs}. Read the answers carefully — they may request clarification, changes, or that you not proceed — and follow what they actually say.`,
  skipped: 'The user did not answer the questions.',
  planApproved: 'User has approved your plan. You can now start coding.',
  emptyPlanApproved: 'User has approved exiting plan mode. You can now proceed.',
};

/** Claude Code in SDK print mode in this workspace, the test being its SDK host. */
export function runSdk(
  claude: string,
  { project, stoppers }: Workspace,
  prompt: string,
  options: Omit<SdkSessionOptions, 'binary' | 'cwd' | 'env' | 'prompt'> = {},
): SdkSession {
  const session = startSdkSession({ binary: claude, cwd: project.dir, env: project.env, prompt, ...options });
  stoppers.push(() => session.close());
  return session;
}

/**
 * The interaction on the phone, or a failure that says what Claude Code did instead (finished the turn,
 * asked its SDK host) rather than a bare timeout.
 */
export async function onPhone(
  remote: ScriptedRemote,
  session: SdkSession,
  match: (record: InteractionRecord) => boolean = (record) => record.sessionId === session.sessionId(),
): Promise<InteractionRecord> {
  const ended = session.result.then((result) => {
    const asked = session.canUseTool.map((request) => `${request.toolName} ${JSON.stringify(request.input)}`);
    throw new Error(
      `Claude Code ended the turn (${result.subtype}) before the phone saw the interaction; SDK host asked: ${
        asked.join('; ') || 'nothing'
      }`,
    );
  });
  return Promise.race([remote.next(match, forAgentWork()), ended]);
}

/** Waits for the turn to end and for Claude Code to exit cleanly; returns what the model read for `toolUseId`. */
export async function finish(session: SdkSession, workspace: Workspace, toolUseId: string): Promise<ToolResult> {
  const result = await session.result;
  const exit = await session.close();
  expect(exit, `claude exited badly; stderr:\n${session.stderr()}`).toEqual({ code: 0, signal: null });
  expect(result.isError, JSON.stringify(result.raw)).toBe(false);
  const toolResult = workspace.model.toolResult(toolUseId);
  expect(
    toolResult,
    `no tool_result for ${toolUseId}; got ${JSON.stringify(workspace.model.toolResults())}`,
  ).toBeDefined();
  if (!toolResult) throw new Error('unreachable');
  expect(toolResult.content, 'Claude Code asked its SDK host: the hook did not settle the call').not.toContain(
    SDK_HOST_DENIAL,
  );
  return toolResult;
}
