import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../host/test-support/test-host';
import { makeDevZeroLink, makeFifoWithWriter, makeHugeFile, type SpecialFile } from '../../test-support/special-files';
import { DAEMON_PID_MAX_BYTES, daemonPidFile, readDaemonProcess } from './codex-home';

const specials: SpecialFile[] = [];
afterEach(() => {
  for (const special of specials.splice(0)) special.remove();
});

const PID_JSON = JSON.stringify({ pid: 4242, processStartTime: 'Mon Jan  5 10:00:00 2026' });

function home(): { codexHome: string; pidFile: string } {
  const codexHome = path.join(tempDir('askaway-codex-home-'), 'codex');
  mkdirSync(path.join(codexHome, 'app-server-daemon'), { recursive: true });
  return { codexHome, pidFile: daemonPidFile(codexHome) };
}

describe('daemon.pid (R12.16)', () => {
  it('[R18.14] reads the pid and start time Codex wrote', async () => {
    const { codexHome, pidFile } = home();
    writeFileSync(pidFile, PID_JSON);
    expect(await readDaemonProcess(codexHome)).toEqual({ pid: 4242, startedAt: 'Mon Jan  5 10:00:00 2026' });
  });

  it('[R12.16] a FIFO is not read: no daemon, and nothing waits on a writer', async () => {
    const { codexHome, pidFile } = home();
    // Its writer would hand a reader a valid pid: only a reader that refuses FIFOs sees none.
    specials.push(makeFifoWithWriter(pidFile, PID_JSON));
    expect(await readDaemonProcess(codexHome)).toBeNull();
  });

  it('[R12.16] a daemon.pid over its bound is not one, nor a link to a pid file', async () => {
    const { codexHome, pidFile } = home();
    writeFileSync(pidFile, PID_JSON + ' '.repeat(DAEMON_PID_MAX_BYTES));
    expect(await readDaemonProcess(codexHome)).toBeNull();
    const elsewhere = path.join(path.dirname(pidFile), 'elsewhere.pid');
    writeFileSync(elsewhere, PID_JSON);
    const linked = path.join(path.dirname(pidFile), 'linked.pid');
    symlinkSync(elsewhere, linked);
    expect(await readDaemonProcess(codexHome, linked)).toBeNull();
  });

  it('[R12.16] /dev/zero behind daemon.pid, or a sparse gigabyte: no daemon, memory flat', async () => {
    const { codexHome, pidFile } = home();
    const rssBefore = process.memoryUsage().rss;
    specials.push(makeDevZeroLink(pidFile));
    expect(await readDaemonProcess(codexHome)).toBeNull();
    specials.splice(0).forEach((special) => special.remove());
    specials.push(makeHugeFile(pidFile, 2 ** 30, '{"pid":1,'));
    expect(await readDaemonProcess(codexHome)).toBeNull();
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 2 ** 20);
  });
});
