import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { lineWriter, relayLines } from './line-relay';

function relay(readMax: number) {
  const source = new PassThrough();
  const target = new PassThrough();
  const out: Buffer[] = [];
  target.on('data', (chunk: Buffer) => out.push(chunk));
  const to = lineWriter(target);
  const lines: string[] = [];
  const onOverLong = vi.fn();
  const done = relayLines({
    source,
    to,
    readMax,
    onLine: (line) => (lines.push(line.toString()), to.message(line)),
    onOverLong,
  });
  return { source, to, lines, onOverLong, done, out: () => Buffer.concat(out).toString() };
}

describe('[R12.21] the ACP relay splits on newline bytes only and streams long lines', () => {
  it('[R12.21] a message of the proxy’s own waits until a half-written over-long line ends', async () => {
    const { source, to, lines, onOverLong, out } = relay(10);
    source.write('a'.repeat(25));
    await vi.waitFor(() => expect(out()).toBe('a'.repeat(25)));
    to.message('{"own":1}');
    source.write('bb\nshort\n');
    await vi.waitFor(() => expect(out()).toBe(`${'a'.repeat(25)}bb\n{"own":1}\nshort\n`));
    expect(lines).toEqual(['short']);
    expect(onOverLong).toHaveBeenCalledTimes(1);
  });

  it('[R12.21] lines split across chunks are handed over whole; a last line without a newline is relayed as it came', async () => {
    const { source, lines, done, out } = relay(100);
    source.write('{"a"');
    source.write(':1}\r\n{"b":2}');
    source.end('\rtail');
    await done;
    expect(lines).toEqual(['{"a":1}\r']);
    expect(out()).toBe('{"a":1}\r\n{"b":2}\rtail');
  });
});
