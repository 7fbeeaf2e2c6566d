import { expect } from 'vitest';
import { type Host } from '../create-host';
import { connectRemote, connectRuntime } from './clients';
import { pairDevice, postJson } from './devices';
import { questionRequest } from './fixtures';
import { joinMachine } from './machines';

const pairRequest = (code: string) => ({ code, name: 'New phone', platform: 'Test' });

/**
 * One episode of storage that takes no writes, against a real host: a full disk (R12.6) or a team hub's database
 * out of reach (R20.19). Connections come and go, every write is refused with a reason (`refusal`) and changes
 * nothing, reads go on, the log says so once, and all of it works again once `free` resolves.
 */
export async function storageOutageEpisode(
  host: Host,
  disk: { fill(): void | Promise<void>; free(): void | Promise<void> },
  lines: string[],
  refusal = /disk/,
): Promise<void> {
  const machine = await joinMachine(host, 'laptop');
  const device = await pairDevice(host);
  const asker = await connectRuntime(host.url, machine.credential, 'asker');
  const waiting = questionRequest();
  expect(await asker.socket.emitWithAck('announce', waiting)).toMatchObject({ ok: true, status: 'pending' });
  const { code } = await host.mintPairingCode();
  const seq = host.registry.projection.seq;

  await disk.fill();
  // Connects and disconnects write last-seen times: they must never take the host down.
  const phone = await connectRemote(host.url, device.credential);
  expect(phone.snapshots[0]?.pending.map((view) => view.requestId)).toEqual([
    `${machine.machine.id}:${waiting.requestId}`,
  ]);
  const another = await connectRuntime(host.url, machine.credential, 'another');
  another.socket.disconnect();
  const glance = await connectRemote(host.url, device.credential);
  glance.socket.disconnect();

  const announce = await asker.socket.emitWithAck('announce', questionRequest());
  expect(announce).toMatchObject({ ok: false, error: { code: 'storage-unavailable' } });
  const refusedAnswer = await phone.socket.emitWithAck('respond', {
    requestId: `${machine.machine.id}:${waiting.requestId}`,
    clientResponseId: 'while-full',
    response: { action: 'accept', content: { answers: { 'Which database?': 'SQLite' } } },
  });
  expect(refusedAnswer).toMatchObject({
    ok: false,
    error: { code: 'storage-unavailable', message: expect.stringMatching(refusal) },
  });
  const preferences = await phone.socket.emitWithAck('preferences:update', {
    askUserQuestionAutoResolutionEnabled: true,
  });
  expect(preferences).toMatchObject({ ok: false, error: { code: 'storage-unavailable' } });
  const pairing = await postJson(`${host.url}/api/pair`, pairRequest(code));
  expect(pairing).toMatchObject({ status: 503, json: { error: { code: 'storage-unavailable' } } });
  // Nothing changed and reads go on.
  expect(host.registry.projection.seq).toBe(seq);
  expect((await phone.socket.emitWithAck('snapshot:get')).ok).toBe(true);
  expect(lines.filter((line) => /cannot write/.test(line))).toHaveLength(1);

  await disk.free();
  expect(await asker.socket.emitWithAck('announce', questionRequest())).toMatchObject({ ok: true });
  const answer = await phone.socket.emitWithAck('respond', {
    requestId: `${machine.machine.id}:${waiting.requestId}`,
    clientResponseId: 'after',
    response: { action: 'accept', content: { answers: { 'Which database?': 'SQLite' } } },
  });
  expect(answer).toMatchObject({ ok: true, status: 'accepted' });
  await expect.poll(() => asker.resolved.length).toBe(1);
  // The refused pairing left its code usable (a team hub's codes are in the database: counted once it is back).
  expect(await host.codes.count('pair-device')).toBe(1);
  expect(await postJson(`${host.url}/api/pair`, pairRequest(code))).toMatchObject({ status: 200 });
  expect(lines.filter((line) => /works again/.test(line))).toHaveLength(1);
}
