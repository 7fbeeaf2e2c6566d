// What a Codex bridge keeps about a daemon's threads and file changes stays bounded whatever the daemon announces
// (R12.19): the review's 20 × 48 MiB `item/started` and 20,000 `thread/started` with 50 KB previews.
import { afterEach, describe, expect, it } from 'vitest';
import {
  BRIDGE_FILE_CHANGES_KEPT,
  BRIDGE_FILE_CHANGES_MAX_CHARS,
  BRIDGE_THREADS_KEPT,
  ID_MAX,
} from '../../../contracts';
import { startFakeCodexDaemon, type FakeCodexDaemon } from '../../test-support/fake-codex-daemon';
import { fileChangesOf } from './approval-prompts';
import { controlSocketPath } from './codex-home';
import { DaemonRpc } from './daemon-rpc';
import { ThreadRegistry } from './thread-registry';

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function registry(): Promise<{ registry: ThreadRegistry; logs: string[]; daemon: FakeCodexDaemon }> {
  const daemon = await startFakeCodexDaemon();
  cleanups.push(() => daemon.remove());
  const rpc = await DaemonRpc.connect(controlSocketPath(daemon.codexHome), {
    onRequest: () => undefined,
    onNotification: () => undefined,
    onClose: () => undefined,
  });
  cleanups.push(() => rpc.close());
  const logs: string[] = [];
  return { registry: new ThreadRegistry(rpc, (line) => logs.push(line)), logs, daemon };
}

const threadId = (index: number) => `01a23100-0000-7000-8000-${index.toString(16).padStart(12, '0')}`;

describe('[R12.19] a daemon announcing more than a bridge keeps', () => {
  it('[R12.19] 20,000 thread/started with 50 KB previews: at most BRIDGE_THREADS_KEPT threads, each as a card shows it, the oldest forgotten, said once', async () => {
    const { registry: threads, logs } = await registry();
    const preview = 'p'.repeat(50_000);
    const cwd = `/${'d'.repeat(60_000)}`;
    for (let index = 0; index < 20_000; index += 1)
      threads.onNotification('thread/started', {
        // Ephemeral: not joined, so this counts what is kept, not the daemon's answers.
        thread: { id: threadId(index), ephemeral: true, preview, cwd, cliVersion: preview },
      });
    expect(threads.held.threads).toBe(BRIDGE_THREADS_KEPT);
    expect(threads.context(threadId(0))).toEqual({});
    const newest = threads.context(threadId(19_999));
    expect(newest.title?.length).toBe(ID_MAX);
    expect(newest.cwd?.length).toBe(4_096);
    expect(threads.version(threadId(19_999))?.length).toBe(80);
    expect(logs.filter((line) => line.includes('more threads than the bridge keeps'))).toHaveLength(1);
    // A thread id no Codex makes is not kept at all.
    threads.onNotification('thread/started', { thread: { id: 'x'.repeat(50_000), ephemeral: true } });
    expect(threads.context('x'.repeat(50_000))).toEqual({});
  });

  it('[R12.19] big item/started file changes: only what the card shows is kept, at most BRIDGE_FILE_CHANGES_KEPT items and BRIDGE_FILE_CHANGES_MAX_CHARS, said once', async () => {
    const { registry: threads, logs } = await registry();
    const diff = 'd'.repeat(48 * 1024 * 1024);
    const changes = Array.from({ length: 150 }, (_, index) => ({
      path: `src/file-${index}.ts`,
      kind: { type: 'update', move_path: null },
      diff,
      // Anything else a daemon sends along with a change.
      junk: diff,
    }));
    for (let index = 0; index < 500; index += 1)
      threads.onNotification('item/started', {
        threadId: threadId(1),
        turnId: 't',
        item: { type: 'fileChange', id: `call_${index}`, changes },
      });
    const held = threads.held;
    expect(held.fileChangeItems).toBeLessThanOrEqual(BRIDGE_FILE_CHANGES_KEPT);
    expect(held.fileChangeChars).toBeLessThanOrEqual(BRIDGE_FILE_CHANGES_MAX_CHARS);
    expect(held.fileChangeItems).toBeGreaterThan(0);
    // The newest approval's card is exactly what the whole announcement would have made.
    const kept = await threads.fileChanges(threadId(1), 'call_499');
    expect(kept && fileChangesOf(kept)).toEqual(fileChangesOf(changes.map(({ junk: _junk, ...change }) => change)));
    expect(kept?.[0]).not.toHaveProperty('junk');
    expect(logs.filter((line) => line.includes('more file changes announced than the bridge keeps'))).toHaveLength(1);
    // item/completed gives back what its item held.
    threads.onNotification('item/completed', {
      threadId: threadId(1),
      item: { type: 'fileChange', id: 'call_499', changes: [] },
    });
    expect(threads.held.fileChangeItems).toBe(held.fileChangeItems - 1);
    expect(threads.held.fileChangeChars).toBeLessThan(held.fileChangeChars);
  });
});
