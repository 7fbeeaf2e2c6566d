// An MCP elicitation as Codex relays it (R18.4, R18.12): Codex's own MCP tool-call approval, a form, a page to open.
import {
  ID_MAX,
  PERMISSION_INPUT_MAX_JSON,
  TOOL_INPUT_SHAPE_LIMITS,
  jsonShapeProblem,
  type ApprovalChoice,
  type FormInput,
} from '../../../contracts';
import { CANCEL, DECLINE } from './approval-prompts';
import {
  clip,
  contextOf,
  unreadable,
  type CodexPrompt,
  type CodexThreadContext,
  type Unsupported,
} from './codex-prompt';
import { formInputOf } from '../../mcp-form/form-input';
import { ElicitationParamsSchema, McpToolApprovalMetaSchema, type ElicitationParams } from './protocol';

const base = (request: ElicitationParams) => ({
  threadId: request.threadId,
  ...(request.turnId ? { turnId: request.turnId } : {}),
  nonBlocking: false,
});

function formPrompt(request: ElicitationParams, thread: CodexThreadContext, input: FormInput): CodexPrompt {
  const toolUseId = request.elicitationId ? clip(request.elicitationId, ID_MAX) : undefined;
  return {
    ...base(request),
    interaction: {
      kind: 'form',
      input,
      toolName: clip(`mcp__${request.serverName}`, ID_MAX),
      ...(toolUseId ? { toolUseId } : {}),
      context: contextOf(thread),
    },
    plan: { type: input.mode === 'url' ? 'url' : 'form' },
  };
}

export function elicitationPrompt(params: unknown, thread: CodexThreadContext): CodexPrompt | Unsupported {
  const parsed = ElicitationParamsSchema.safeParse(params);
  if (!parsed.success) return unreadable('elicitation', parsed.error.issues);
  const request = parsed.data;
  const approval = McpToolApprovalMetaSchema.safeParse(request._meta);
  if (approval.success) {
    // Codex's own "allow this MCP tool call?": an approval, not a form.
    const persist = approval.data.persist ?? [];
    const tool = approval.data.tool_name ?? 'tool';
    const choices: ApprovalChoice[] = [{ id: 'allow', label: 'Allow', effect: 'allow' }];
    const persisted: Record<string, string | null> = { allow: null };
    if (persist.includes('session')) {
      choices.push({ id: 'allow-session', label: 'Allow for this session', effect: 'allow-session' });
      persisted['allow-session'] = 'session';
    }
    if (persist.includes('always')) {
      choices.push({ id: 'allow-always', label: 'Always allow', effect: 'allow-always' });
      persisted['allow-always'] = 'always';
    }
    // Checked before JSON.stringify walks it (R12.18): another caller may hand over any value, and a card
    // cannot show a tool input nested past what the host allows one anyway (R12.3).
    const params = approval.data.tool_params;
    const deep = params === undefined ? undefined : jsonShapeProblem(params, TOOL_INPUT_SHAPE_LIMITS);
    if (deep !== undefined) return { unsupported: `an MCP tool call whose input ${deep}` };
    const input = params === undefined ? undefined : JSON.stringify(params);
    return {
      ...base(request),
      interaction: {
        kind: 'approval',
        input: {
          subject: 'tool',
          reason: clip(request.message || `Allow the ${request.serverName} MCP server to run ${tool}?`, 4_000),
          tool: {
            name: clip(`${request.serverName}: ${tool}`, ID_MAX),
            ...(input ? { input: clip(input, PERMISSION_INPUT_MAX_JSON) } : {}),
          },
          choices: [...choices, { ...DECLINE, detail: 'The model reads that the tool call was rejected' }, CANCEL],
        },
        toolName: clip(`mcp__${request.serverName}__${tool}`, ID_MAX),
        context: contextOf(thread, approval.data.tool_description),
      },
      plan: { type: 'mcp-tool', persist: persisted },
    };
  }
  const input = formInputOf(request);
  return 'unsupported' in input ? input : formPrompt(request, thread, input);
}
