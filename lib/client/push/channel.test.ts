import { describe, expect, it } from 'vitest';
import { attachPushChannel, pushRequest, type PushChannelSocket } from './channel';

class FakeSocket implements PushChannelSocket {
  connected = false;
  readonly emitted: unknown[][] = [];
  private readonly connectListeners: (() => void)[] = [];
  on(_event: 'connect', listener: () => void): this {
    this.connectListeners.push(listener);
    return this;
  }
  emit(event: string, ...args: unknown[]): this {
    this.emitted.push([event, ...args]);
    const ack = args.at(-1);
    if (event !== 'presence' && typeof ack === 'function') ack({ ok: true, echo: event });
    return this;
  }
  connect(): void {
    this.connected = true;
    for (const listener of this.connectListeners) listener();
  }
}

function fakeDocument(visibilityState: DocumentVisibilityState) {
  const listeners: (() => void)[] = [];
  return {
    visibilityState,
    addEventListener: (_type: string, listener: () => void) => listeners.push(listener),
    fire: () => listeners.forEach((listener) => listener()),
  };
}

describe('push channel', () => {
  it('[R14.4] reports presence on every connect and visibility change', () => {
    const socket = new FakeSocket();
    const doc = fakeDocument('hidden');
    attachPushChannel(socket, doc as unknown as Document);
    expect(socket.emitted).toEqual([]);

    socket.connect();
    expect(socket.emitted).toEqual([['presence', { visible: false }]]);
    doc.visibilityState = 'visible';
    doc.fire();
    expect(socket.emitted.at(-1)).toEqual(['presence', { visible: true }]);
  });

  it('[R14.1] requests are acked through the current socket and refused while disconnected', async () => {
    const socket = new FakeSocket();
    attachPushChannel(socket, undefined);
    await expect(pushRequest('push:status')).rejects.toThrow('not-connected');
    socket.connect();
    await expect(pushRequest('push:status')).resolves.toEqual({ ok: true, echo: 'push:status' });
    await expect(pushRequest('push:ntfy', { topicUrl: null })).resolves.toMatchObject({ ok: true });
    expect(socket.emitted.at(-1)?.slice(0, 2)).toEqual(['push:ntfy', { topicUrl: null }]);
  });
});
