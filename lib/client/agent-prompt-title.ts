import { type ApprovalInput, type FormInput } from '../contracts';

// One line for an agent's approval or form where a list shows it (inbox, History, Sessions): what runs or
// changes reads better than the tool's name, which the chip beside it shows (R18.3, R18.4).

export function approvalTitle(input: ApprovalInput, toolName: string): string {
  const what = input.command ?? input.changes?.map((change) => change.path).join(', ') ?? input.tool?.name;
  return what ?? input.scope?.join(', ') ?? input.reason ?? toolName;
}

export function formTitle(input: FormInput): string {
  return input.message || input.serverName;
}

/** A finished turn's line in a list (R19.8): the first line its agent said, without Markdown's heading marks. */
export function finishedTurnTitle(input: { message?: string }): string | undefined {
  const line = input.message?.split('\n').find((candidate) => candidate.trim() !== '');
  return line?.replace(/^\s*#+\s*/, '').trim();
}
