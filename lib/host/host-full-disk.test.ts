import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Host } from './create-host';
import { closeAllClients, connectRemote, connectRuntime } from './test-support/clients';
import { pairDevice, postJson } from './test-support/devices';
import { questionRequest } from './test-support/fixtures';
import { FullDiskStore, mountTinyTmpfs } from './test-support/full-disk';
import { joinMachine } from './test-support/machines';
import { closeAllHosts, startTestHost } from './test-support/test-host';

const unmounts: (() => void)[] = [];
afterEach(async () => {
  closeAllClients();
  await closeAllHosts();
  for (const unmount of unmounts.splice(0)) unmount();
});

const pairRequest = (code: string) => ({ code, name: 'New phone', platform: 'Test' });

/**
 * One full-disk episode against a real host (R12.6): connections come and go, every write is refused with
 * a reason and changes nothing, reads go on, the log says so once, and all of it works again once freed.
 */
async function fullDiskEpisode(host: Host, disk: { fill(): void; free(): void }, lines: string[]): Promise<void> {
  const machine = await joinMachine(host, 'laptop');
  const device = await pairDevice(host);
  const asker = await connectRuntime(host.url, machine.credential, 'asker');
  const waiting = questionRequest();
  expect(await asker.socket.emitWithAck('announce', waiting)).toMatchObject({ ok: true, status: 'pending' });
  const { code } = host.mintPairingCode();
  const seq = host.registry.projection.seq;

  disk.fill();
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
    error: { code: 'storage-unavailable', message: expect.stringMatching(/disk/) },
  });
  const preferences = await phone.socket.emitWithAck('preferences:update', {
    askUserQuestionAutoResolutionEnabled: true,
  });
  expect(preferences).toMatchObject({ ok: false, error: { code: 'storage-unavailable' } });
  const pairing = await postJson(`${host.url}/api/pair`, pairRequest(code));
  expect(pairing).toMatchObject({ status: 503, json: { error: { code: 'storage-unavailable' } } });
  // Nothing changed, reads go on, and the refused pairing left its code usable.
  expect(host.registry.projection.seq).toBe(seq);
  expect(host.codes.count('pair-device')).toBe(1);
  expect((await phone.socket.emitWithAck('snapshot:get')).ok).toBe(true);
  expect(lines.filter((line) => /cannot write/.test(line))).toHaveLength(1);

  disk.free();
  expect(await asker.socket.emitWithAck('announce', questionRequest())).toMatchObject({ ok: true });
  const answer = await phone.socket.emitWithAck('respond', {
    requestId: `${machine.machine.id}:${waiting.requestId}`,
    clientResponseId: 'after',
    response: { action: 'accept', content: { answers: { 'Which database?': 'SQLite' } } },
  });
  expect(answer).toMatchObject({ ok: true, status: 'accepted' });
  await expect.poll(() => asker.resolved.length).toBe(1);
  expect(await postJson(`${host.url}/api/pair`, pairRequest(code))).toMatchObject({ status: 200 });
  expect(lines.filter((line) => /works again/.test(line))).toHaveLength(1);
}

describe('[R12.6] a full disk', () => {
  it('[R12.6] every write is refused with a reason and changes nothing, reads go on, and it all resumes by itself (SQLite made full)', async () => {
    const lines: string[] = [];
    const store = new FullDiskStore();
    const host = await startTestHost({ store, log: (line) => lines.push(line) });
    await fullDiskEpisode(
      host,
      {
        fill: () => (store.full = true),
        free: () => (store.full = false),
      },
      lines,
    );
  });

  const tmpfs = mountTinyTmpfs(4 * 1024 * 1024);
  if (tmpfs) tmpfs.unmount();
  // A real filesystem that runs out of space, where this machine lets the test mount one (root on Linux).
  it.runIf(tmpfs !== undefined)(
    '[R12.6] the same on a real filesystem that is full to the last byte (tmpfs)',
    async () => {
      const disk = mountTinyTmpfs(4 * 1024 * 1024);
      if (!disk) throw new Error('tmpfs could be mounted a moment ago');
      unmounts.push(() => disk.unmount());
      const lines: string[] = [];
      const host = await startTestHost({ dataDir: path.join(disk.dir, 'data'), log: (line) => lines.push(line) });
      await fullDiskEpisode(host, disk, lines);
    },
  );
});
