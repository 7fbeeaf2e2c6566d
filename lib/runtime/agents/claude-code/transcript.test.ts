import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../host/test-support/test-host';
import { readLastAssistantMessage } from './transcript';

const assistant = (text: string) =>
  JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text }] } });

function file(lines: string[]): string {
  const target = path.join(tempDir('askaway-transcript-'), 't.jsonl');
  writeFileSync(target, lines.join('\n'));
  return target;
}

describe('transcript reader', () => {
  it('[R9.10] returns the last assistant text, skipping tool-only turns and user lines', async () => {
    const target = file([
      assistant('first'),
      assistant('the one that matters'),
      JSON.stringify({
        type: 'assistant',
        message: { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Bash', input: {} }] },
      }),
      JSON.stringify({ type: 'user', message: { role: 'user', content: 'tool result' } }),
    ]);
    expect(await readLastAssistantMessage(target)).toBe('the one that matters');
  });

  it('reads only the tail of a large transcript', async () => {
    const filler = JSON.stringify({ type: 'user', message: { role: 'user', content: 'x'.repeat(1_000) } });
    const target = file([assistant('too early'), ...Array.from({ length: 400 }, () => filler), assistant('recent')]);
    expect(await readLastAssistantMessage(target, 64 * 1024)).toBe('recent');
    const noAssistantInTail = file([assistant('too early'), ...Array.from({ length: 400 }, () => filler)]);
    expect(await readLastAssistantMessage(noAssistantInTail, 64 * 1024)).toBeUndefined();
  });

  it('never throws: missing file, garbage, undefined path', async () => {
    expect(await readLastAssistantMessage('/nonexistent/askaway.jsonl')).toBeUndefined();
    expect(await readLastAssistantMessage(file(['{not json', '"assistant" but broken']))).toBeUndefined();
    expect(await readLastAssistantMessage(undefined)).toBeUndefined();
  });
});
