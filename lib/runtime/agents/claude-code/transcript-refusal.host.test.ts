import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type InteractionRecord } from '../../../contracts';
import { makeDevZeroLink, makeFifo } from '../../test-support/special-files';
import { cleanups, closeHubWithPhone, hubWithPhone, specials } from './test-support/hub-with-phone';

afterEach(closeHubWithPhone);

/** A hub whose log the test reads, a phone on it, and a folder for the files a hook names. */
const rig = () => hubWithPhone('askaway-transcript-refusal-');

let nextToolUse = 0;
/** A plan approval hook post naming `transcript`, left waiting for the phone as Claude Code leaves it. */
function postPlanHook(url: string, token: string, transcript: string): string {
  nextToolUse += 1;
  const toolUseId = `toolu_refusal_${nextToolUse}`;
  const controller = new AbortController();
  cleanups.push(() => controller.abort());
  void fetch(`${url}/hooks/claude-code`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      session_id: `refusal-${nextToolUse}`,
      transcript_path: transcript,
      cwd: '/home/dev/project',
      hook_event_name: 'PermissionRequest',
      tool_name: 'ExitPlanMode',
      tool_input: { plan: 'The plan.' },
      tool_use_id: toolUseId,
    }),
    signal: controller.signal,
  }).catch(() => undefined);
  return toolUseId;
}

describe("a hook's transcript that is not a plain file (R12.16)", () => {
  it.each([
    ['a FIFO', (file: string) => makeFifo(file), /is not a regular file \(a FIFO\)/],
    ['a link to /dev/zero', (file: string) => makeDevZeroLink(file), /is not a regular file \(a symbolic link\)/],
  ])(
    '[R12.16] %s as the transcript is refused with one log line naming it, and the card goes on without it',
    async (_, make, reason) => {
      const { host, phone, lines, dir } = await rig();
      const transcript = path.join(dir, 'session.jsonl');
      specials.push(make(transcript));
      const toolUseId = postPlanHook(host.url, host.token, transcript);
      const card = await phone.next((record: InteractionRecord) => record.toolUseId === toolUseId, 10_000);
      expect(card.context?.agentMessage).toBeUndefined();
      const said = lines.filter((line) => line.includes(transcript));
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(/not reading the transcript/);
      expect(said[0]).toMatch(reason);
    },
  );

  it('[R12.16] a transcript not written yet says nothing: only a refusal is worth a line', async () => {
    const { host, phone, lines, dir } = await rig();
    const transcript = path.join(dir, 'not-yet.jsonl');
    const toolUseId = postPlanHook(host.url, host.token, transcript);
    await phone.next((record: InteractionRecord) => record.toolUseId === toolUseId, 10_000);
    expect(lines.filter((line) => line.includes(transcript))).toEqual([]);
  });
});
