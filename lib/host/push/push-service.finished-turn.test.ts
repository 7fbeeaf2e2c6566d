import { afterEach, describe, expect, it, vi } from 'vitest';
import { type InteractionRequest, type PushPayload, type PushShowPayload } from '../../contracts';
import { pushFixture, type PushFixture } from './push-fixture';

let fixture: PushFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const shows = (payloads: PushPayload[]) =>
  payloads.filter((payload): payload is PushShowPayload => payload.type === 'show');

async function finish(f: PushFixture, turnId: string): Promise<string> {
  const request: InteractionRequest = {
    kind: 'finished-turn',
    requestId: `turn:thread-1:${turnId}`,
    protocolRequestId: `proto-${turnId}`,
    sessionId: 'thread-1',
    toolName: 'finished-turn',
    createdAt: new Date().toISOString(),
    agent: { kind: 'codex', name: 'Codex' },
    context: { projectName: 'shop' },
    input: { status: 'completed', message: 'The cache is in.', reply: 'prompt' },
  };
  const ack = await f.registry.announce(request, 'runtime-socket');
  if (!ack.ok) throw new Error(ack.error.message);
  return request.requestId;
}

describe('PushService: finished turns (R19.9)', () => {
  it('[R19.9] a finished turn buzzes as "<Agent> finished in <project>", with no answer buttons', async () => {
    fixture = await pushFixture();
    const f = fixture;
    await f.subscribe('phone');
    const requestId = await finish(f, 't1');
    await vi.waitFor(() => expect(shows(f.received('phone'))).toHaveLength(1));
    const [payload] = shows(f.received('phone'));
    expect(payload).toMatchObject({ tag: requestId, title: 'Codex finished in shop', body: 'The cache is in.' });
    expect(payload?.data.answers).toBeUndefined();
  });

  it('[R19.9] switched off in Settings, finished turns buzz nothing while questions still do', async () => {
    fixture = await pushFixture();
    const f = fixture;
    await f.subscribe('phone');
    await f.registry.updatePreferences({ notifyFinishedTurns: false });
    await finish(f, 't1');
    const question = await f.ask();
    await vi.waitFor(() => expect(shows(f.received('phone'))).toHaveLength(1));
    expect(shows(f.received('phone'))[0]?.tag).toBe(question);
    expect(f.service.throttleState('phone')).toMatchObject({ queued: 0 });
  });
});
