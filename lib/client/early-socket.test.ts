import { afterEach, describe, expect, it, vi } from 'vitest';
import { REMOTE_NAMESPACE, REMOTE_PROTOCOL_VERSION } from '../contracts';
import { adoptEarlySocket } from './early-socket';
import { EARLY_NAMESPACE, whenEarlyAnswer, type EarlySocket } from './early-answer';
import { SOCKET_PREFETCH_SCRIPT } from './socket-prefetch';

/** A browser WebSocket as the inline script and engine.io's transport use it. */
class FakeWebSocket {
  static created: FakeWebSocket[] = [];
  readyState = 0;
  binaryType: BinaryType = 'blob';
  sent: unknown[] = [];
  closed = false;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor(readonly url: string) {
    FakeWebSocket.created.push(this);
  }
  send(data: unknown) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
    this.readyState = 3;
  }
  /** The host: open, then what it sends. */
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(data: string) {
    this.onmessage?.({ data });
  }
}

const PAIRING = {
  hostUrl: 'http://hub.lan:4417',
  hostName: 'hub',
  deviceId: 'd1',
  deviceName: 'Phone',
  credential: 'aw_d_d1_s',
};

/** Runs the inline script on a page whose storage holds `stored`; what it left on `window`. */
function prefetch(stored: unknown, origin = 'https://phone.test'): { __askawaySocket?: EarlySocket } {
  const page: { __askawaySocket?: EarlySocket } = {};
  const raw = stored === undefined ? null : JSON.stringify(stored);
  // The script is a string for a <script> tag: evaluating it is the point of this test.
  new Function('window', 'localStorage', 'location', 'WebSocket', SOCKET_PREFETCH_SCRIPT)(
    page,
    { getItem: () => raw },
    { origin },
    FakeWebSocket,
  );
  return page;
}

afterEach(() => {
  FakeWebSocket.created = [];
  vi.unstubAllGlobals();
});

describe('the socket <head> opens (R13.8)', () => {
  it('[R13.8][R16.1] a paired device connects the remote namespace with its credential as the HTML parses; its pings are answered', () => {
    expect(EARLY_NAMESPACE).toBe(REMOTE_NAMESPACE);
    const page = prefetch(PAIRING);
    const ws = FakeWebSocket.created[0];
    expect(ws?.url).toBe('ws://hub.lan:4417/socket.io/?EIO=4&transport=websocket');
    ws?.open();
    ws?.receive('0{"sid":"s1","pingInterval":25000,"pingTimeout":20000}');
    expect(ws?.sent).toEqual([
      `40/remote,${JSON.stringify({ credential: PAIRING.credential, protocolVersion: REMOTE_PROTOCOL_VERSION })}`,
    ]);
    ws?.receive('2');
    expect(ws?.sent.at(-1)).toBe('3');
    ws?.receive('40/remote,{"sid":"n1"}');
    ws?.receive('42/remote,["snapshot",{}]');
    expect(page.__askawaySocket?.messages).toEqual([
      '0{"sid":"s1","pingInterval":25000,"pingTimeout":20000}',
      '40/remote,{"sid":"n1"}',
      '42/remote,["snapshot",{}]',
    ]);
  });

  it('[R13.8] the host that served the app, over wss when the page is https; nothing for a device that is not paired', () => {
    prefetch({ ...PAIRING, hostUrl: '' });
    expect(FakeWebSocket.created[0]?.url).toBe('wss://phone.test/socket.io/?EIO=4&transport=websocket');
    expect(prefetch(undefined).__askawaySocket).toBeUndefined();
    expect(prefetch({ removed: 'device-revoked', hostUrl: '', hostName: 'hub' }).__askawaySocket).toBeUndefined();
    expect(prefetch({ hostUrl: '', token: 'old' }).__askawaySocket).toBeUndefined();
    expect(FakeWebSocket.created).toHaveLength(1);
  });

  it('[R13.8][R13.5] the connection takes it over: open, then what the host sent, in order, in a task of their own; its namespace connect is not sent twice', async () => {
    const page = prefetch(PAIRING);
    vi.stubGlobal('window', page);
    const ws = FakeWebSocket.created[0];
    ws?.open();
    ws?.receive('0{"sid":"s1"}');
    ws?.receive('40/remote,{"sid":"n1"}');
    const adopted = adoptEarlySocket(PAIRING.hostUrl, PAIRING.credential);
    if (!adopted) throw new Error('not adopted');
    const seen: string[] = [];
    adopted.onopen = () => seen.push('open');
    adopted.onmessage = (event) => seen.push(String((event as { data: unknown }).data));
    expect(seen).toEqual([]);
    // A message that arrives while the kept ones are handed over waits behind them.
    ws?.receive('42/remote,["snapshot",{}]');
    await vi.waitFor(() =>
      expect(seen).toEqual(['open', '0{"sid":"s1"}', '40/remote,{"sid":"n1"}', '42/remote,["snapshot",{}]']),
    );
    ws?.receive('42/remote,["machines",{}]');
    expect(seen.at(-1)).toBe('42/remote,["machines",{}]');
    adopted.send('40/remote,{"credential":"aw_d_d1_s","protocolVersion":3}');
    adopted.send('42/remote,["respond",{}]');
    expect(ws?.sent.slice(1)).toEqual(['42/remote,["respond",{}]']);
    // Once only: the next connect opens a socket of its own.
    expect(adoptEarlySocket(PAIRING.hostUrl, PAIRING.credential)).toBeNull();
  });

  it('[R13.8][R16.9] a socket still opening is taken over as it is; one for another pairing, or closed, is closed and not used', async () => {
    vi.stubGlobal('window', prefetch(PAIRING));
    const opening = FakeWebSocket.created[0];
    const adopted = adoptEarlySocket(PAIRING.hostUrl, PAIRING.credential);
    const seen: string[] = [];
    if (!adopted) throw new Error('not adopted');
    adopted.onopen = () => seen.push('open');
    adopted.onmessage = (event) => seen.push(String((event as { data: unknown }).data));
    await Promise.resolve();
    expect(seen).toEqual([]);
    opening?.open();
    opening?.receive('0{"sid":"s2"}');
    // The transport connects the namespace itself: the script sent nothing yet.
    adopted.send('40/remote,{}');
    expect(seen).toEqual(['open', '0{"sid":"s2"}']);
    expect(opening?.sent).toEqual(['40/remote,{}']);

    vi.stubGlobal('window', prefetch(PAIRING));
    const other = FakeWebSocket.created[1];
    expect(adoptEarlySocket(PAIRING.hostUrl, 'aw_d_d2_new')).toBeNull();
    expect(other?.closed).toBe(true);
    const page = prefetch(PAIRING);
    vi.stubGlobal('window', page);
    FakeWebSocket.created[2]?.onclose?.({});
    expect(adoptEarlySocket(PAIRING.hostUrl, PAIRING.credential)).toBeNull();
    expect(FakeWebSocket.created[2]?.closed).toBe(true);
  });

  it('[R13.8] the first screen hears when the host has answered it: a snapshot, or a refusal', async () => {
    const page = prefetch(PAIRING);
    vi.stubGlobal('window', page);
    const ws = FakeWebSocket.created[0];
    ws?.open();
    ws?.receive('0{"sid":"s1"}');
    let answered = false;
    const answer = whenEarlyAnswer().then(() => (answered = true));
    ws?.receive('40/remote,{"sid":"n1"}');
    await Promise.resolve();
    expect(answered).toBe(false);
    ws?.receive('42/remote,["snapshot",{}]');
    await answer;
    // Kept already: at once.
    await expect(whenEarlyAnswer()).resolves.toBeUndefined();
    const refused = prefetch(PAIRING);
    vi.stubGlobal('window', refused);
    FakeWebSocket.created[1]?.open();
    FakeWebSocket.created[1]?.receive('0{"sid":"s2"}');
    FakeWebSocket.created[1]?.receive('44/remote,{"message":"revoked","data":{"code":"device-revoked"}}');
    await expect(whenEarlyAnswer()).resolves.toBeUndefined();
  });
});
