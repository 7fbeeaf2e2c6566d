import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../host/test-support/test-host';
import { writeHookSettings } from './agents/claude-code/install';
import { writeCodexHooks } from './agents/codex/install';
import { writePluginFile } from './agents/opencode/install';
import { AGENT_CONFIG_MAX_BYTES, openRegularFile, OutsideFileError, readRegularText } from './safe-file';
import { makeDevZeroLink, makeFifo, makeHugeFile, type SpecialFile } from './test-support/special-files';

const specials: SpecialFile[] = [];
afterEach(() => {
  // Wakes a reader the old code left blocked on a FIFO, so no thread of the pool stays taken.
  for (const special of specials.splice(0)) special.remove();
});

function special(file: SpecialFile): string {
  specials.push(file);
  return file.file;
}

describe('files something outside names (R12.16)', () => {
  it('[R12.16] reads a regular file, following a link unless told not to', async () => {
    const dir = tempDir('askaway-safe-file-');
    const file = path.join(dir, 'settings.json');
    writeFileSync(file, '{"hooks":{}}');
    const link = path.join(dir, 'link.json');
    symlinkSync(file, link);
    expect(await readRegularText(link, { maxBytes: 100 })).toBe('{"hooks":{}}');
    await expect(readRegularText(link, { maxBytes: 100, noFollow: true })).rejects.toThrow(
      `${link} is not a regular file (a symbolic link)`,
    );
    await expect(readRegularText(path.join(dir, 'missing.json'), { maxBytes: 100 })).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('[R12.16] a FIFO without a writer is refused at once, by name and by handle', async () => {
    const fifo = special(makeFifo(path.join(tempDir('askaway-safe-file-'), 'transcript.jsonl')));
    await expect(openRegularFile(fifo)).rejects.toThrow(`${fifo} is not a regular file (a FIFO)`);
    await expect(readRegularText(fifo, { maxBytes: 100 })).rejects.toBeInstanceOf(OutsideFileError);
  });

  it('[R12.16] /dev/zero behind a link is refused, and a file over the bound, also one that grows', async () => {
    const dir = tempDir('askaway-safe-file-');
    const zero = special(makeDevZeroLink(path.join(dir, 'zero.json')));
    await expect(readRegularText(zero, { maxBytes: 100 })).rejects.toThrow('(a character device)');
    const huge = special(makeHugeFile(path.join(dir, 'huge.json'), 2 ** 30));
    await expect(readRegularText(huge, { maxBytes: 100 })).rejects.toMatchObject({ reason: 'too-large' });
    const exact = path.join(dir, 'exact.json');
    writeFileSync(exact, 'x'.repeat(100));
    expect(await readRegularText(exact, { maxBytes: 100 })).toHaveLength(100);
  });
});

describe("agents' config files that are not plain files (R12.16)", () => {
  const installs: [string, (file: string) => Promise<unknown>][] = [
    ["Claude Code's settings.json", (file) => writeHookSettings(file)],
    ["Codex's hooks.json", (file) => writeCodexHooks(file)],
    ["OpenCode's plugin file", (file) => writePluginFile(file, '// plugin\n')],
  ];

  it.each(installs)(
    '[R12.16] %s as a FIFO: refused with the reason, nothing written',
    async (_name, install) => {
      const fifo = special(makeFifo(path.join(tempDir('askaway-install-'), 'config.json')));
      await expect(install(fifo)).rejects.toThrow(`${fifo} is not a regular file (a FIFO)`);
    },
    5_000,
  );

  it.each(installs)('[R12.16] %s over the bound: refused, the file unchanged', async (_name, install) => {
    const file = path.join(tempDir('askaway-install-'), 'config.json');
    const text = `{"hooks":{}}${' '.repeat(AGENT_CONFIG_MAX_BYTES)}`;
    writeFileSync(file, text);
    await expect(install(file)).rejects.toThrow('more than the');
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});
