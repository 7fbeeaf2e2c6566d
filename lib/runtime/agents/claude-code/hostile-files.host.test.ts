import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type InteractionRecord } from '../../../contracts';
import { PLAN_MAX_BYTES } from './plan-input';
import { type ScriptedRemote } from '../../test-support/scripted-remote';
import { makeDevZeroLink, makeFifo, makeHugeFile, type SpecialFile } from '../../test-support/special-files';
import { joinMachine } from '../../../host/test-support/machines';
import { type Host } from '../../../host';
import { cleanups, closeHubWithPhone, hubWithPhone, specials } from './test-support/hub-with-phone';

afterEach(closeHubWithPhone);

const rig = () => hubWithPhone('askaway-special-files-');

let nextToolUse = 0;
function planHook(transcript: string, toolInput: Record<string, unknown>) {
  nextToolUse += 1;
  return {
    session_id: `special-${nextToolUse}`,
    transcript_path: transcript,
    cwd: '/home/dev/project',
    hook_event_name: 'PermissionRequest',
    tool_name: 'ExitPlanMode',
    tool_input: toolInput,
    tool_use_id: `toolu_special_${nextToolUse}`,
  };
}

/** Posts a hook and leaves it waiting for the phone, as Claude Code does; the test's cleanup closes it. */
function postHook(host: Host, credential: string, body: unknown): void {
  const controller = new AbortController();
  cleanups.push(() => controller.abort());
  void fetch(`${host.url}/hooks/claude-code`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${credential}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: controller.signal,
  }).catch(() => undefined);
}

function special(file: SpecialFile): string {
  specials.push(file);
  return file.file;
}

const cardFor = (phone: ScriptedRemote, toolUseId: string) =>
  phone.next((record: InteractionRecord) => record.toolUseId === toolUseId, 10_000);

describe('files named by a hook that are not plain files (R12.16)', () => {
  it('[R12.16] five hook posts whose transcript is a FIFO leave the hub serving: GET / answers, each post is a card', async () => {
    const { host, phone, dir } = await rig();
    const posts = Array.from({ length: 5 }, (_, index) =>
      planHook(special(makeFifo(path.join(dir, `fifo-${index}.jsonl`))), { plan: `Plan ${index}.` }),
    );
    for (const post of posts) postHook(host, host.token, post);
    for (const post of posts) await cardFor(phone, post.tool_use_id);
    // Reading a FIFO the ordinary way takes a thread of the pool until a writer comes: five take all four,
    // and then GET / (which looks at files) never answers. The bound only turns a hang into a failure.
    const page = await fetch(`${host.url}/`, { signal: AbortSignal.timeout(5_000) });
    expect(page.status).toBe(200);
    expect((await fetch(`${host.url}/healthz`)).status).toBe(200);
  });

  it('[R12.16] a FIFO as the plan file: the card shows the path, not a plan, and the hub goes on', async () => {
    const { host, phone, dir } = await rig();
    const transcript = path.join(dir, 'session.jsonl');
    writeFileSync(transcript, '');
    const post = planHook(transcript, { planFilePath: special(makeFifo(path.join(dir, 'plan.md'))) });
    postHook(host, host.token, post);
    const card = await cardFor(phone, post.tool_use_id);
    expect(card).toMatchObject({ kind: 'plan-approval', input: { planFilePath: path.join(dir, 'plan.md') } });
    expect(card.input).not.toHaveProperty('plan');
  });

  it('[R12.16] /dev/zero behind a transcript or a plan file, and files of a gigabyte: cards at once, memory flat', async () => {
    const { host, phone, dir } = await rig();
    const transcript = path.join(dir, 'session.jsonl');
    writeFileSync(transcript, '');
    const zeroPlan = special(makeDevZeroLink(path.join(dir, 'zero.md')));
    const hugePlan = special(
      makeHugeFile(path.join(dir, 'huge.md'), 2 ** 30, `# A long plan\n${'A step.\n'.repeat(40_000)}`),
    );
    const posts = [
      planHook(special(makeDevZeroLink(path.join(dir, 'zero.jsonl'))), { plan: 'The plan.' }),
      planHook(transcript, { planFilePath: zeroPlan }),
      planHook(special(makeHugeFile(path.join(dir, 'huge.jsonl'), 2 ** 30)), { plan: 'The plan.' }),
      planHook(transcript, { planFilePath: hugePlan }),
    ];
    const rssBefore = process.memoryUsage().rss;
    for (const post of posts) postHook(host, host.token, post);
    const cards = await Promise.all(posts.map((post) => cardFor(phone, post.tool_use_id)));
    expect(cards[1]?.input).toEqual({ planFilePath: zeroPlan });
    const fromHuge = cards[3];
    const plan = fromHuge?.kind === 'plan-approval' ? fromHuge.input.plan : undefined;
    expect(plan).toMatch(/^# A long plan\n/);
    expect(Buffer.byteLength(plan ?? '')).toBeLessThanOrEqual(PLAN_MAX_BYTES);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(256 * 2 ** 20);
  });

  it('[R12.16][R17.2] from a joined machine the hub opens none of them: every post is a card without the file', async () => {
    const { host, phone, dir } = await rig();
    const machine = await joinMachine(host, 'laptop');
    const fifoPlan = special(makeFifo(path.join(dir, 'plan.md')));
    const posts = [
      ...Array.from({ length: 5 }, (_, index) =>
        planHook(special(makeFifo(path.join(dir, `fifo-${index}.jsonl`))), { plan: 'The plan.' }),
      ),
      planHook(special(makeDevZeroLink(path.join(dir, 'zero.jsonl'))), { planFilePath: fifoPlan }),
    ];
    for (const post of posts) postHook(host, machine.credential, post);
    const cards = await Promise.all(posts.map((post) => cardFor(phone, post.tool_use_id)));
    expect(cards[5]?.input).toEqual({ planFilePath: fifoPlan });
    expect((await fetch(`${host.url}/`, { signal: AbortSignal.timeout(5_000) })).status).toBe(200);
  });
});
