import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeAllHosts, startTestHost } from '../../host/test-support/test-host';
import { connectScriptedRemote, type ScriptedRemote } from '../test-support/scripted-remote';
import { startDemoAgent, type DemoAgent } from './demo-agent';
import { pairDevice } from '../../host/test-support/devices';

let demo: DemoAgent | undefined;
let remote: ScriptedRemote | undefined;

afterEach(async () => {
  remote?.close();
  remote = undefined;
  await demo?.stop();
  demo = undefined;
  await closeAllHosts();
});

describe('demo agent on a real host', () => {
  it('[R10.1] shows its first questions to a remote and continues after an answer', async () => {
    const host = await startTestHost();
    const lines: string[] = [];
    demo = startDemoAgent({ url: host.url, token: host.token, log: (line) => lines.push(line) });
    remote = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
    const phone = remote;
    await vi.waitFor(() => expect(phone.pending()).toHaveLength(3), { timeout: 5_000 });
    const origins = phone.pending().map((record) => record.origin?.label);
    expect(origins).toEqual(expect.arrayContaining(['shop-service agent', 'reviewer', 'reviewer › tests']));
    expect(new Set(phone.pending().map((record) => record.sessionId)).size).toBe(1);

    const keys = await phone.next((record) => record.origin?.label === 'reviewer');
    const ack = await phone.respond(keys.requestId, {
      action: 'accept',
      content: {
        answers: { 'How should cache keys be built?': 'Versioned prefix (Recommended)' },
        annotations: { 'How should cache keys be built?': { notes: 'keep v3' } },
      },
    });
    expect(ack).toMatchObject({ ok: true, status: 'accepted' });
    await vi.waitFor(() =>
      expect(lines.join('\n')).toContain(
        'User has answered your questions: "How should cache keys be built?"="Versioned prefix (Recommended)" user notes: keep v3. You can now continue',
      ),
    );
    const card = await phone.next(
      (record) => record.kind === 'question' && record.input.questions[0]?.header === 'Admin card',
    );
    expect(card.context?.cwd).toBe('/home/dev/shop-service');
    expect(phone.pending()).toHaveLength(3);
  });

  it('[R3.2] runs the plan approval and the shell command permission, printing what the model sees', async () => {
    const host = await startTestHost();
    const lines: string[] = [];
    demo = startDemoAgent({ url: host.url, token: host.token, log: (line) => lines.push(line), concurrency: 3 });
    remote = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
    const phone = remote;
    for (let answered = 0; answered < 4; answered += 1) {
      const next = await phone.next((record) => record.kind === 'question');
      await phone.respond(next.requestId, { action: 'accept', content: { answers: {} } });
    }
    const plan = await phone.next((record) => record.kind === 'plan-approval');
    await phone.respond(plan.requestId, { action: 'decline', message: 'Use a 30 minute TTL' });
    await vi.waitFor(() => expect(lines.join('\n')).toContain('Use a 30 minute TTL'));
    const migrate = await phone.next((record) => record.kind === 'permission');
    expect(migrate.input).toMatchObject({ command: 'npm run migrate' });
    await phone.respond(migrate.requestId, { action: 'accept' });
    await vi.waitFor(() => expect(lines.join('\n')).toContain('Batch 14 run: 1 migrations'));
  });
});
