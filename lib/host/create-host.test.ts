import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HostStartError } from './errors';
import { closeAllHosts, startTestHost, tempDir } from './test-support/test-host';

afterEach(closeAllHosts);

describe('[R10.1] createHost start-up and shutdown', () => {
  it('[R10.2] refuses a data dir that is not a directory, writing nothing', async () => {
    const file = path.join(tempDir(), 'not-a-dir');
    fs.writeFileSync(file, 'keep me');
    await expect(startTestHost({ dataDir: file })).rejects.toThrow(HostStartError);
    await expect(startTestHost({ dataDir: file })).rejects.toThrow(/data dir .* is a file, not a folder/);
    expect(fs.readFileSync(file, 'utf8')).toBe('keep me');
  });

  it('[R10.2] refuses a second host on the same data dir with a clear reason', async () => {
    const dataDir = tempDir();
    await startTestHost({ dataDir });
    await expect(startTestHost({ dataDir })).rejects.toThrow(/locked: is another askaway host running/);
  });

  it('[R10.1] explains a port in use', async () => {
    const first = await startTestHost();
    await expect(startTestHost({ port: first.port })).rejects.toThrow(/port \d+ on 127\.0\.0\.1 is in use/);
  });

  it('[R12.1] creates an owner-only token once, keeps it across restarts, and lets ASKAWAY_TOKEN override it', async () => {
    const dataDir = tempDir();
    const first = await startTestHost({ dataDir, token: undefined });
    const tokenFile = path.join(dataDir, 'token');
    expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(first.token.length).toBeGreaterThanOrEqual(32);
    await first.close();
    const second = await startTestHost({ dataDir, token: undefined });
    expect(second.token).toBe(first.token);
    await second.close();
    const overridden = await startTestHost({ dataDir, token: 'from-env' });
    expect(overridden.token).toBe('from-env');
    expect(fs.readFileSync(tokenFile, 'utf8').trim()).toBe(first.token);
  });

  it('[R10.1] writes host.json while running and removes it on close', async () => {
    const dataDir = tempDir();
    const host = await startTestHost({ dataDir });
    const info = JSON.parse(fs.readFileSync(path.join(dataDir, 'host.json'), 'utf8')) as Record<string, unknown>;
    expect(info).toEqual({ url: host.url, pid: process.pid, port: host.port, version: expect.any(String) });
    await host.close();
    await host.close();
    expect(fs.existsSync(path.join(dataDir, 'host.json'))).toBe(false);
  });
});
