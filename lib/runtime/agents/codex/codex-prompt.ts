// What every Codex prompt becomes (to-interaction's pieces share these): the interaction and the plan to answer it.
import path from 'node:path';
import { CONTEXT_MESSAGE_MAX, ID_MAX, type ApprovalInput, type InteractionContext } from '../../../contracts';
import { type DirectInteractionRequest } from '../../../protocol';
import { type CommandDecision } from './protocol';

/** What the thread tells the card: where it runs, its title, what Codex said before asking. */
export interface CodexThreadContext {
  cwd?: string;
  title?: string;
  agentMessage?: string;
}

/** One question as the phone keys it, and what Codex needs to read the answer back. */
export interface PlannedQuestion {
  id: string;
  /** The question text the phone answers by (made unique when two questions share a text). */
  key: string;
  labels: string[];
  /** Codex takes a typed answer ("None of the above" with a note). */
  isOther: boolean;
  /** No options: the answer is typed text only. */
  freeform: boolean;
}

/** What to-answer needs to answer Codex in its format. */
export type CodexAnswerPlan =
  | { type: 'question'; questions: PlannedQuestion[] }
  /** Each allowing choice id, and the decision Codex gets for it. */
  | { type: 'command'; decisions: Record<string, CommandDecision> }
  | { type: 'file-change' }
  | { type: 'permissions'; granted: Record<string, unknown> }
  /** Each allowing choice id, and the `_meta.persist` Codex gets with it (null: this once). */
  | { type: 'mcp-tool'; persist: Record<string, string | null> }
  | { type: 'form' }
  | { type: 'url' };

/** The interaction, without what the bridge adds: its key, the thread as session, the agent. */
export type CodexInteraction = Omit<DirectInteractionRequest, 'requestId' | 'sessionId' | 'agent' | 'origin'>;

export interface CodexPrompt {
  interaction: CodexInteraction;
  plan: CodexAnswerPlan;
  threadId: string;
  turnId?: string;
  /** Codex resolves it unanswered after its own 2 minutes (a Default-mode question). */
  nonBlocking: boolean;
}

/** Why a request stays with the terminal. */
export interface Unsupported {
  unsupported: string;
}

export const clip = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

/**
 * `text` cut to `max` characters as a string of its own, for what a bridge keeps (R12.19): V8 makes a slice of a
 * long string point into it, so 200 characters cut from a 50 KB preview would otherwise keep all 50 KB alive.
 */
export function keptSlice(text: string, max: number): string {
  if (text.length <= max) return text;
  return Buffer.from(text.slice(0, max), 'utf16le').toString('utf16le');
}

/** `clip` for what a bridge keeps: the same text, as a string of its own (keptSlice). */
export const keptClip = (value: string, max: number) => (value.length > max ? `${keptSlice(value, max - 1)}…` : value);

/** Why Codex's params could not be read: the request stays with the terminal. */
export const unreadable = (what: string, issues: readonly { message: string }[]): Unsupported => ({
  unsupported: `unreadable ${what}: ${issues[0]?.message ?? 'invalid'}`,
});

export function contextOf(thread: CodexThreadContext, extra?: string | null): InteractionContext | undefined {
  const message = [thread.agentMessage, extra].filter((part) => part !== undefined && part !== null && part !== '');
  const context: InteractionContext = {
    ...(message.length > 0 ? { agentMessage: clip(message.join('\n\n'), CONTEXT_MESSAGE_MAX) } : {}),
    ...(thread.cwd ? { cwd: clip(thread.cwd, 1_000), projectName: clip(path.basename(thread.cwd), ID_MAX) } : {}),
    ...(thread.title ? { sessionTitle: clip(thread.title, ID_MAX) } : {}),
  };
  return Object.keys(context).length > 0 ? context : undefined;
}

/** Where it runs and why Codex asks, as the approval card carries them. */
export function whereAndWhy(cwd: string | null | undefined, reason: string | null | undefined) {
  return { ...(cwd ? { cwd: clip(cwd, 4_096) } : {}), ...(reason ? { reason: clip(reason, 4_000) } : {}) };
}

/** An approval prompt of one turn item (a command, a patch, a permissions request). */
export function approvalPrompt(
  item: { threadId: string; turnId: string; itemId: string },
  toolName: string,
  input: ApprovalInput,
  plan: CodexAnswerPlan,
  thread: CodexThreadContext,
): CodexPrompt {
  return {
    interaction: { kind: 'approval', input, toolName, toolUseId: item.itemId, context: contextOf(thread) },
    plan,
    threadId: item.threadId,
    turnId: item.turnId,
    nonBlocking: false,
  };
}
