import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BRIDGE_MESSAGE_SHAPE_LIMITS } from '../../../contracts';
import { connectRpc, frame, frameReader, RPC_MESSAGE_MAX, type RefusedMessage } from './json-rpc';

const servers: net.Server[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

const framed = (text: string) =>
  Buffer.concat([Buffer.from(`Content-Length: ${Buffer.byteLength(text)}\r\n\r\n`), Buffer.from(text)]);
const deep = (depth: number) => `{"jsonrpc":"2.0","method":"x","params":${'['.repeat(depth)}${']'.repeat(depth)}}`;

/** Feeds `bytes` to a reader in chunks of `size`, as a socket delivers them. */
function feed(read: (chunk: Buffer) => void, bytes: Buffer, size: number) {
  for (let at = 0; at < bytes.length; at += size) read(bytes.subarray(at, at + size));
}

describe("[R12.18][R12.19] Copilot's frames, read within the host's limits", () => {
  it('[R12.19] a frame is read in linear time: its bytes are copied about once, however many chunks it comes in', () => {
    const body = JSON.stringify({ jsonrpc: '2.0', method: 'session.event', params: { text: 'x'.repeat(4 * 2 ** 20) } });
    const bytes = framed(body);
    const copied: number[] = [];
    const concat = Buffer.concat.bind(Buffer);
    vi.spyOn(Buffer, 'concat').mockImplementation((list, length) => {
      const joined = concat(list, length);
      copied.push(joined.length);
      return joined;
    });
    const messages: unknown[] = [];
    feed(
      frameReader(
        (message) => messages.push(message),
        () => undefined,
      ),
      bytes,
      16 * 1024,
    );
    vi.restoreAllMocks();
    expect(messages).toHaveLength(1);
    // Joined per chunk, 4 MiB in 16 KiB chunks copies about 512 MiB; joined once, 4 MiB.
    expect(copied.reduce((sum, bytes) => sum + bytes, 0)).toBeLessThan(2 * body.length);
  });

  it('[R12.19] a frame over RPC_MESSAGE_MAX is skipped as it streams past, said once; the next one is read', () => {
    const problems: string[] = [];
    const messages: unknown[] = [];
    const read = frameReader(
      (message) => messages.push(message),
      (problem) => problems.push(problem),
    );
    const header = Buffer.from(`Content-Length: ${RPC_MESSAGE_MAX + 1}\r\n\r\n`);
    read(header);
    const chunk = Buffer.alloc(64 * 1024, 0x78);
    for (let sent = 0; sent < RPC_MESSAGE_MAX + 1; sent += chunk.length)
      read(chunk.subarray(0, Math.min(chunk.length, RPC_MESSAGE_MAX + 1 - sent)));
    feed(read, framed('{"jsonrpc":"2.0","method":"after"}'), 7);
    expect(problems).toEqual([
      `a message of ${RPC_MESSAGE_MAX + 1} bytes, over ${RPC_MESSAGE_MAX}: skipped, not carried to the phone`,
    ]);
    expect(messages).toEqual([{ jsonrpc: '2.0', method: 'after' }]);
  });

  it('[R12.18] a message 5,000 deep is refused before anything walks it, named by its first bytes; the next one is read', () => {
    const refused: RefusedMessage[] = [];
    const messages: unknown[] = [];
    const read = frameReader(
      (message) => messages.push(message),
      () => undefined,
      (message) => refused.push(message),
    );
    read(
      framed(
        `{"jsonrpc":"2.0","method":"session.event","params":{"event":{"type":"permission.requested","data":{"requestId":"r-1","args":${'['.repeat(5_000)}${']'.repeat(5_000)}}}}}`,
      ),
    );
    read(framed('{"jsonrpc":"2.0","method":"after"}'));
    expect(refused).toEqual([
      {
        problem: `nests deeper than ${BRIDGE_MESSAGE_SHAPE_LIMITS.maxDepth} levels`,
        label: 'session.event permission.requested r-1',
      },
    ]);
    expect(messages).toEqual([{ jsonrpc: '2.0', method: 'after' }]);
  });

  it('[R12.18] an answer too deep to read fails its call at once; a notification too deep is one log line; the connection goes on', async () => {
    const server = net.createServer((socket) => {
      socket.on('data', () => {
        socket.write(framed(`{"jsonrpc":"2.0","id":1,"result":${deep(5_000)}}`));
        socket.write(framed(deep(5_000)));
        socket.write(frame({ jsonrpc: '2.0', id: 2, result: { ok: true } }));
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const logs: string[] = [];
    const rpc = await connectRpc((server.address() as AddressInfo).port, (line) => logs.push(line));
    const notified: string[] = [];
    rpc.onNotification((method) => notified.push(method));
    const first = rpc.call('connect', {});
    const second = rpc.call('session.getForeground', {});
    await expect(first).rejects.toThrow(
      `Copilot's answer nests deeper than ${BRIDGE_MESSAGE_SHAPE_LIMITS.maxDepth} levels`,
    );
    await expect(second).resolves.toEqual({ ok: true });
    expect(notified).toEqual([]);
    expect(logs).toEqual([
      `askaway: Copilot sent x that nests deeper than ${BRIDGE_MESSAGE_SHAPE_LIMITS.maxDepth} levels: not carried to the phone, it stays in Copilot's own UI`,
    ]);
    rpc.close();
  });

  it('[R12.18] a notification handler that throws loses that message only, with a log line', async () => {
    const server = net.createServer((socket) => {
      socket.write(frame({ jsonrpc: '2.0', method: 'first' }));
      socket.write(frame({ jsonrpc: '2.0', method: 'second' }));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const logs: string[] = [];
    const rpc = await connectRpc((server.address() as AddressInfo).port, (line) => logs.push(line));
    const seen: string[] = [];
    rpc.onNotification((method) => {
      seen.push(method);
      if (method === 'first') throw new RangeError('Maximum call stack size exceeded');
    });
    await vi.waitFor(() => expect(seen).toEqual(['first', 'second']));
    expect(logs).toEqual(["askaway: Copilot's first could not be read: Maximum call stack size exceeded"]);
    rpc.close();
  });

  it("[R12.19] a peer that sends requests and reads none of the refusals gets no more past 1 MiB unread: the bridge's backlog stays bounded", async () => {
    const requests = 200_000;
    const method = `m${'x'.repeat(99)}`;
    let received = 0;
    let sawPing: () => void = () => undefined;
    const pinged = new Promise<void>((resolve) => (sawPing = resolve));
    let peer: net.Socket | undefined;
    const server = net.createServer((socket) => {
      peer = socket;
      socket.pause();
      const flood = Buffer.concat(
        Array.from({ length: 1_000 }, (_, index) => frame({ jsonrpc: '2.0', id: index, method })),
      );
      for (let sent = 0; sent < requests; sent += 1_000) socket.write(flood);
      socket.write(frame({ jsonrpc: '2.0', method: 'done' }));
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (chunk.includes('"method":"ping"')) sawPing();
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const rpc = await connectRpc((server.address() as AddressInfo).port, () => undefined);
    const done = new Promise<void>((resolve) => rpc.onNotification((name) => name === 'done' && resolve()));
    await done;
    void rpc.call('ping', {}, 60_000).catch(() => undefined);
    peer?.resume();
    await pinged;
    // Answered each, it would be about 30 MiB; the kernel's socket buffers hold a few of them at most.
    expect(received).toBeLessThan(16 * 2 ** 20);
    rpc.close();
  });
});
