import { expect } from '@playwright/test';
import { type InteractionRecord } from '../../../lib/contracts';
import { type ScriptedRemote } from '../../../lib/runtime/test-support/scripted-remote';
import { type ScriptedBlock, type ScriptedModel } from '../../opencode/support/model-server';
import { forAgentWork } from '../../support/agent-wait';

/** The model asks to run `command` with its `bash` tool; Copilot's TUI asks "Do you want to run this command?". */
export const bash = (id: string, command: string): ScriptedBlock[] => [
  { type: 'tool_call', id, name: 'bash', input: { command, description: `Runs ${command}` } },
];

export const askUser = (id: string): ScriptedBlock[] => [
  {
    type: 'tool_call',
    id,
    name: 'ask_user',
    input: {
      message: 'Which database?',
      requestedSchema: {
        type: 'object',
        properties: { db: { type: 'string', enum: ['Postgres', 'SQLite'] } },
        required: ['db'],
      },
    },
  },
];

export const RUN_COMMAND_DIALOG = /Do you want to run this command\?/;

/** The card of Copilot's prompt for the model's tool call `toolCallId`, once the phone has it. */
export const onPhone = (remote: ScriptedRemote, toolCallId: string): Promise<InteractionRecord> =>
  remote.next((record) => record.agent?.name === 'GitHub Copilot' && record.toolUseId === toolCallId, forAgentWork());

/** What the model read back for its tool call `id` (waits for it). */
export async function toolResult(model: ScriptedModel, id: string): Promise<string> {
  await expect.poll(() => model.toolResult(id)?.content, { timeout: forAgentWork() }).toBeDefined();
  return model.toolResult(id)?.content ?? '';
}
