import { appendFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectItem } from '../../../core/test-support/expect-item';
import { tempDir } from '../../../host/test-support/test-host';
import { followTranscript, type Every, type TranscriptFollower } from './follow-transcript';
import { TRANSCRIPT_TAIL_BYTES } from './transcript';

interface Received {
  lines: string[];
  catchUp: boolean;
}

const MAX_LINE_BYTES = 64 * 1024;

/** A follower on `file` whose poll only runs when the test ticks it (fs.watch off unless asked). */
function follow(file: string, fsWatch = false) {
  const received: Received[] = [];
  const polls = new Set<() => Promise<void>>();
  const every: Every = (_ms, tick) => {
    polls.add(tick);
    return () => polls.delete(tick);
  };
  const follower = followTranscript(file, (lines, catchUp) => received.push({ lines, catchUp }), {
    every,
    fsWatch,
    maxLineBytes: MAX_LINE_BYTES,
  });
  started.push(follower);
  return {
    follower,
    received,
    polls,
    tick: () => Promise.all([...polls].map((tick) => tick())),
  };
}

const started: TranscriptFollower[] = [];
afterEach(() => {
  for (const follower of started.splice(0)) follower.stop();
});

const transcriptIn = (dir = tempDir('askaway-follow-')) => path.join(dir, 'session.jsonl');

describe('followTranscript', () => {
  it('[R11.7] reads what is there as a catch-up, then only appended complete lines', async () => {
    const file = transcriptIn();
    writeFileSync(file, 'one\ntwo\n');
    const { follower, received, tick } = follow(file);
    await follower.check();
    expect(received).toEqual([{ lines: ['one', 'two'], catchUp: true }]);

    appendFileSync(file, 'three\nfou');
    await tick();
    appendFileSync(file, 'r\n');
    await tick();
    await tick();
    expect(received.slice(1)).toEqual([
      { lines: ['three'], catchUp: false },
      { lines: ['four'], catchUp: false },
    ]);
  });

  it('[R11.7] starts a large file at its tail, dropping the line cut in half', async () => {
    const file = transcriptIn();
    const filler = `${'x'.repeat(999)}\n`;
    writeFileSync(file, `old\n${filler.repeat(Math.ceil(TRANSCRIPT_TAIL_BYTES / filler.length) + 10)}last\n`);
    const { follower, received } = follow(file);
    await follower.check();
    expect(received).toHaveLength(1);
    const { lines } = expectItem(received, 0);
    expect(lines.at(-1)).toBe('last');
    expect(lines).not.toContain('old');
    expect(lines.slice(0, -1).every((line) => line === 'x'.repeat(999))).toBe(true);
  });

  it('[R11.7] waits for a missing file, and reads a replaced or truncated one again as a catch-up', async () => {
    const dir = tempDir('askaway-follow-');
    const file = transcriptIn(dir);
    const { received, tick } = follow(file);
    await tick();
    expect(received).toEqual([]);

    writeFileSync(file, 'first\n');
    await tick();
    const replacement = path.join(dir, 'next.jsonl');
    writeFileSync(replacement, 'replaced\n');
    renameSync(replacement, file);
    await tick();
    writeFileSync(file, 'cut\n');
    await tick();
    expect(received).toEqual([
      { lines: ['first'], catchUp: true },
      { lines: ['replaced'], catchUp: true },
      { lines: ['cut'], catchUp: true },
    ]);
  });

  it('[R11.7] skips a line longer than the limit and keeps the lines after it', async () => {
    const file = transcriptIn();
    writeFileSync(file, 'start\n');
    const { follower, received, tick } = follow(file);
    await follower.check();
    const atLimit = 'é'.repeat(MAX_LINE_BYTES / 2); // two bytes each
    appendFileSync(file, `${'y'.repeat(MAX_LINE_BYTES + 1)}\n${atLimit}\nend\n`);
    await tick();
    // Compared by shape: a failure must not print 64 KB lines.
    const got = received.slice(1).map(({ lines, catchUp }) => ({ catchUp, lengths: lines.map((line) => line.length) }));
    expect(got).toEqual([{ catchUp: false, lengths: [atLimit.length, 3] }]);
    expect(expectItem(expectItem(received, 1).lines, 0) === atLimit).toBe(true);
  });

  it('[R11.7] keeps a line whole across read chunks, multi-byte characters at their edges', async () => {
    const file = transcriptIn();
    const received: string[] = [];
    const follower = followTranscript(file, (lines) => received.push(...lines), { every: () => () => undefined });
    started.push(follower);
    writeFileSync(file, 'start\n');
    await follower.check();
    const wide = 'é'.repeat(200_000); // 400 KB, more than one read
    appendFileSync(file, `${wide}\n`);
    await follower.check();
    expect(received.map((line) => line.length)).toEqual([5, wide.length]);
    expect(expectItem(received, 1) === wide).toBe(true);
  });

  it('[R11.7] stops polling and delivering once stopped', async () => {
    const file = transcriptIn();
    writeFileSync(file, 'one\n');
    const { follower, received, polls } = follow(file);
    expect(polls.size).toBe(1);
    follower.stop();
    expect(polls.size).toBe(0);
    appendFileSync(file, 'two\n');
    await follower.check();
    expect(received).toEqual([]);
  });

  it('[R11.7] fs.watch wakes it without waiting for the poll', async () => {
    const file = transcriptIn();
    writeFileSync(file, 'one\n');
    const { follower, received } = follow(file, true);
    await follower.check();
    appendFileSync(file, 'two\n');
    // No tick: only the file system event can deliver this line.
    await vi.waitFor(() => expect(received.at(-1)).toEqual({ lines: ['two'], catchUp: false }), { timeout: 5_000 });
  });
});
