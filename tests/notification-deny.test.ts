import { describe, expect, it } from 'vitest';
import { AGENT_NAMES, type AgentRef, type ApprovalChoice, type InteractionView } from '../lib/contracts';
import { notificationAnswers } from '../lib/host/push/notification-content';
import { permissionChoices as acpChoices } from '../lib/runtime/agents/acp/to-interaction';
import { commandChoices } from '../lib/runtime/agents/codex/approval-prompts';
import { choicesOf } from '../lib/runtime/agents/copilot/to-interaction';
import { permissionChoices as openCodeChoices } from '../lib/runtime/agents/opencode/to-interaction';

/**
 * Deny as a notification button only where the agent goes on after a Deny without a reason (R14.8): each agent's
 * own approval, as its folder builds it, through the host's choice of buttons. Copilot, OpenCode and an ACP agent
 * (Copilot's reject over ACP ends its turn) keep Deny on the card, where a reason can go with it.
 */
const view = (agent: AgentRef, choices: ApprovalChoice[]): InteractionView => ({
  requestId: 'r1',
  machine: { id: 'local', name: 'workstation' },
  sessionId: 's',
  createdAt: '2026-01-01T10:00:00.000Z',
  status: 'pending',
  autoResolution: { status: 'disabled' },
  kind: 'approval',
  toolName: 'exec',
  agent,
  input: { subject: 'command', command: 'npm test', choices },
});

const buttons = (interaction: InteractionView) =>
  notificationAnswers(interaction)?.answers.map((answer) => [answer.title, answer.response.action]);

describe('a notification Deny only where the agent goes on (R14.8)', () => {
  it('[R14.8] Codex goes on after "No": the button is there, second, sent with no reason', () => {
    const codex = view({ kind: 'codex', name: AGENT_NAMES.codex }, commandChoices(['accept', 'cancel']).choices);
    expect(buttons(codex)).toEqual([
      ['Yes, proceed', 'accept'],
      ['No', 'decline'],
    ]);
  });

  it.each([
    [
      'Copilot',
      view(
        { kind: 'copilot', name: AGENT_NAMES.copilot },
        choicesOf({ kind: 'write', canOfferSessionApproval: true } as Parameters<typeof choicesOf>[0]).choices,
      ),
      ['Allow once', 'Allow file changes for this session'],
    ],
    [
      'OpenCode',
      view({ kind: 'opencode', name: AGENT_NAMES.opencode }, openCodeChoices({ always: ['npm *'] })),
      ['Allow once', 'Always allow'],
    ],
    [
      'an ACP agent',
      view(
        { kind: 'acp', name: 'GitHub Copilot' },
        acpChoices([
          { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
          { optionId: 'allow_always', name: 'Always allow', kind: 'allow_always' },
          { optionId: 'reject_once', name: 'Deny', kind: 'reject_once' },
        ]),
      ),
      ['Allow once', 'Always allow'],
    ],
  ])(
    '[R14.8] %s ends its turn on a Deny without a reason: no Deny button, only its ways to allow',
    (_, interaction, titles) => {
      expect(interaction.kind === 'approval' && interaction.input.choices.some((c) => c.effect === 'deny')).toBe(true);
      const answers = notificationAnswers(interaction)?.answers ?? [];
      expect(answers.map((answer) => answer.title)).toEqual(titles);
      expect(answers.every((answer) => answer.outcome === 'allowed' && answer.response.action === 'accept')).toBe(true);
    },
  );

  it("[R14.8] Claude Code's tool permission keeps Allow and Deny: the model reads the denial and goes on", () => {
    const permission: InteractionView = {
      ...view({ kind: 'claude-code', name: AGENT_NAMES['claude-code'] }, []),
      kind: 'permission',
      toolName: 'Bash',
      input: { command: 'ls' },
    };
    expect(buttons(permission)).toEqual([
      ['Allow', 'accept'],
      ['Deny', 'decline'],
    ]);
  });
});
