import path from 'node:path';
import { afterEach, describe, it } from 'vitest';
import { closeAllClients } from './test-support/clients';
import { FullDiskStore, mountTinyTmpfs } from './test-support/full-disk';
import { storageOutageEpisode } from './test-support/storage-outage-episode';
import { closeAllHosts, startTestHost } from './test-support/test-host';

const unmounts: (() => void)[] = [];
afterEach(async () => {
  closeAllClients();
  await closeAllHosts();
  for (const unmount of unmounts.splice(0)) unmount();
});

describe('[R12.6] a full disk', () => {
  it('[R12.6] every write is refused with a reason and changes nothing, reads go on, and it all resumes by itself (SQLite made full)', async () => {
    const lines: string[] = [];
    const store = new FullDiskStore();
    const host = await startTestHost({ store, log: (line) => lines.push(line) });
    await storageOutageEpisode(
      host,
      {
        fill: () => {
          store.full = true;
        },
        free: () => {
          store.full = false;
        },
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
      await storageOutageEpisode(host, disk, lines);
    },
  );
});
