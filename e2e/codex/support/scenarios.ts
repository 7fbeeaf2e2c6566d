import { expect } from '@playwright/test';
import { type InteractionRecord } from '../../../lib/contracts';
import { type ScriptedRemote } from '../../../lib/runtime/test-support/scripted-remote';
import {
  offeredTools,
  type ScriptedItem,
  type ScriptedModel,
  type ScriptedTurn,
  type ToolOutput,
} from './model-server';
import { forAgentWork } from '../../support/agent-wait';

/** The call id the scripted model gives the `index`th item of its `turn`th reply to `marker`. */
export const callId = (marker: string, turn: number, index: number) =>
  `call_${marker.replace(/[^A-Za-z0-9]/g, '')}_t${turn}_${index}`;

export interface CodexQuestion {
  id: string;
  header: string;
  question: string;
  options: { label: string; description: string }[];
  /** The model's undocumented flag: Codex's terminal masks the answer (the model still reads it). */
  isSecret?: boolean;
}

export const colorQuestion: CodexQuestion = {
  id: 'color',
  header: 'Color',
  question: 'Which color should the widget be?',
  options: [
    { label: 'Red (Recommended)', description: 'Warm.' },
    { label: 'Blue', description: 'Cool.' },
  ],
};
export const sizeQuestion: CodexQuestion = {
  id: 'size',
  header: 'Size',
  question: 'Which size?',
  options: [
    { label: 'Small', description: 'Fits.' },
    { label: 'Large', description: 'Roomy.' },
  ],
};
export const tokenQuestion: CodexQuestion = {
  id: 'token',
  header: 'Token',
  question: 'Paste the deploy token?',
  isSecret: true,
  options: [
    { label: 'No token', description: 'Skip it.' },
    { label: 'Later', description: 'Ask again.' },
  ],
};

/** A turn that says something, then asks `request_user_input` (its call id is callId(marker, turn, 1)). */
export function ask(questions: CodexQuestion[], message = 'I need a few choices from you.'): ScriptedItem[] {
  return [
    { type: 'text', text: message },
    { type: 'function_call', name: 'request_user_input', arguments: { questions } },
  ];
}

/** A command outside the workspace: under on-request + read-only, Codex asks to run it. */
export function escalated(command: string, justification: string): ScriptedItem[] {
  return [
    {
      type: 'function_call',
      name: 'exec_command',
      arguments: { cmd: command, sandbox_permissions: 'require_escalated', justification, prefix_rule: ['touch'] },
    },
  ];
}

/** An apply_patch adding one file: under a read-only sandbox, Codex asks before writing it. */
export function addFile(file: string, content: string): ScriptedItem[] {
  const lines = content
    .split('\n')
    .map((line) => `+${line}`)
    .join('\n');
  return [
    {
      type: 'custom_tool_call',
      name: 'apply_patch',
      input: `*** Begin Patch\n*** Add File: ${file}\n${lines}\n*** End Patch\n`,
    },
  ];
}

/** Finds an MCP tool (Codex defers them behind tool_search), then calls it in its namespace. */
export function mcpTool(name: string): ScriptedTurn[] {
  const call: ScriptedTurn = (request) => {
    const found = offeredTools(request).find((tool) => tool.endsWith(`.${name}`));
    if (!found) return [{ type: 'text', text: `no tool ${name}` }];
    const dot = found.lastIndexOf('.');
    return [{ type: 'function_call', name, namespace: found.slice(0, dot), arguments: {} }];
  };
  return [[{ type: 'tool_search_call', query: name }], call];
}

/** Config for approvals: Codex asks before writing files and before escalated commands. */
export const ASKS_FOR_APPROVAL = ['approval_policy = "on-request"', 'sandbox_mode = "read-only"'];

/** The card for a Codex thread's prompt, or a failure saying what the model saw instead. */
export async function cardFor(
  remote: ScriptedRemote,
  match: (record: InteractionRecord) => boolean,
  timeout = forAgentWork(),
): Promise<InteractionRecord> {
  return remote.next((record) => record.agent?.kind === 'codex' && match(record), timeout);
}

/** What the model read for `callId`, once Codex sent it. */
export async function modelRead(model: ScriptedModel, id: string, timeout = forAgentWork()): Promise<ToolOutput> {
  await expect
    .poll(() => model.toolOutput(id), {
      timeout,
      message: `the model never read the output of ${id}; it read ${JSON.stringify(model.toolOutputs())}`,
    })
    .toBeDefined();
  const output = model.toolOutput(id);
  if (!output) throw new Error('unreachable');
  return output;
}
