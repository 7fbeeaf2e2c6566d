import { describe, expect, it } from 'vitest';
import { PushShowPayloadSchema, type InteractionView } from '../../contracts';
import { interactionPayload, notificationAnswers, ntfyText, summaryPayload } from './notification-content';

const turn = (
  input: Extract<InteractionView, { kind: 'finished-turn' }>['input'],
  machine = 'local',
): InteractionView => ({
  requestId: 'turn:t1:u1',
  machine: { id: machine, name: machine === 'local' ? 'workstation' : 'laptop' },
  sessionId: 't1',
  createdAt: '2026-01-01T10:00:00.000Z',
  status: 'pending',
  autoResolution: { status: 'disabled' },
  kind: 'finished-turn',
  toolName: 'finished-turn',
  agent: { kind: 'codex', name: 'Codex' },
  context: { projectName: 'shop' },
  input,
});

describe('notification content of a finished turn (R19.9)', () => {
  it('[R19.9] "<Agent> finished in <project>" with the first line of its message, opening the card', () => {
    const payload = interactionPayload(
      turn({ status: 'completed', message: '\n# Done\nThe cache is in.\nMore.', reply: 'prompt' }),
    );
    expect(payload).toMatchObject({ title: 'Codex finished in shop', body: 'Done', tag: 'turn:t1:u1' });
    expect(payload.data).toMatchObject({ kind: 'interaction', url: expect.stringContaining('turn%3At1%3Au1') });
    expect(PushShowPayloadSchema.safeParse(payload).success).toBe(true);
  });

  it('[R19.9] an interrupted turn and a failed one say so, the failure with its reason; a joined machine is named', () => {
    expect(interactionPayload(turn({ status: 'interrupted', message: 'Halfway.', reply: 'prompt' }))).toMatchObject({
      title: 'Codex was interrupted in shop',
      body: 'Halfway.',
    });
    expect(
      interactionPayload(turn({ status: 'failed', error: 'Rate limit reached\nretry later', reply: 'prompt' }, 'm2')),
    ).toMatchObject({ title: 'Codex failed in shop', body: 'Rate limit reached\nOn laptop' });
  });

  it('[R19.9] no answer buttons, on any platform: a reply needs text', () => {
    const view = turn({ status: 'completed', message: 'Done.', reply: 'prompt' });
    expect(notificationAnswers(view)).toBeUndefined();
    expect(interactionPayload(view).data.answers).toBeUndefined();
    expect(ntfyText(interactionPayload(view))).toEqual({ title: 'Codex finished in shop', body: 'Done.' });
  });

  it('[R19.8][R19.9] a summary counts waiting questions and finished turns apart', () => {
    const done = turn({ status: 'completed', message: 'Done.', reply: 'prompt' });
    expect(summaryPayload([done, { ...done, requestId: 'turn:t2:u1' }], new Date()).title).toBe('2 turns finished');
    const question: InteractionView = {
      ...done,
      requestId: 'q1',
      kind: 'permission',
      toolName: 'Bash',
      input: { command: 'ls' },
    };
    expect(summaryPayload([question, done], new Date()).title).toBe('1 question waiting · 1 turn finished');
  });
});
