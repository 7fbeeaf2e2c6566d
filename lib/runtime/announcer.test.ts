import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AnnounceAck, type InteractionRequest } from '../contracts';
import { permissionRequest } from '../host/test-support/fixtures';
import { ANNOUNCE_RETRY_MAX_MS, Announcer, announceRetryDelayMs } from './announcer';
import { type RuntimeSocket } from './host-link';
import { HostMessageParser } from './protocol-errors';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A connected socket whose host answers every announce at once with `reply()`; records when each was sent. */
function fakeSocket(reply: () => AnnounceAck) {
  const sentAt: number[] = [];
  const socket = {
    connected: true,
    emit(event: string, _request: InteractionRequest, ack: (raw: unknown) => void) {
      if (event !== 'announce') return;
      sentAt.push(Date.now());
      ack(reply());
    },
    timeout: () => socket,
  };
  return { socket: socket as unknown as RuntimeSocket, sentAt };
}

const outcomes = { resolved: vi.fn(), ended: vi.fn(), autoResolution: vi.fn(), deferred: vi.fn() };
const refused: AnnounceAck = { ok: false, error: { code: 'rate-limited', message: 'slow down' } };

/** The re-announce loop (R8.1): the same request every second for `seconds`. */
function reannounceEverySecond(announcer: Announcer, request: InteractionRequest, seconds: number) {
  for (let second = 0; second <= seconds; second += 1) {
    announcer.announce(request);
    vi.advanceTimersByTime(1_000);
  }
}

describe('[R12.17] a refused announce backs off', () => {
  it('[R12.17] a request the host keeps refusing is sent again after 1, 2, 4, 8… s up to the cap, not every second', () => {
    vi.useFakeTimers({ now: 0 });
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const { socket, sentAt } = fakeSocket(() => refused);
    const announcer = new Announcer(socket, new HostMessageParser(), outcomes, 250);
    reannounceEverySecond(announcer, permissionRequest({ requestId: 'refused' }), 120);
    expect(sentAt).toEqual([0, 1_000, 3_000, 7_000, 15_000, 31_000, 61_000, 91_000]);
    expect(ANNOUNCE_RETRY_MAX_MS).toBe(30_000);
  });

  it('[R12.17] once taken, the backoff is over; a reconnect sends every request at once', () => {
    vi.useFakeTimers({ now: 0 });
    vi.spyOn(Math, 'random').mockReturnValue(0);
    let reply: AnnounceAck = refused;
    const { socket, sentAt } = fakeSocket(() => reply);
    const announcer = new Announcer(socket, new HostMessageParser(), outcomes, 250);
    const request = permissionRequest({ requestId: 'later-taken' });
    reannounceEverySecond(announcer, request, 10);
    expect(sentAt).toEqual([0, 1_000, 3_000, 7_000]);
    announcer.reset();
    announcer.announceAll();
    expect(sentAt).toHaveLength(5);
    reply = { ok: true, status: 'pending', autoResolution: { status: 'disabled' } };
    reannounceEverySecond(announcer, request, 20);
    // Refused again at 11 s (a fifth refusal: 16 s), then taken at 27 s; by id from then on.
    expect(sentAt).toEqual([0, 1_000, 3_000, 7_000, 11_000, 27_000]);
    expect(outcomes.autoResolution).toHaveBeenCalledTimes(1);
  });

  it('[R12.17] the delay is jittered down by up to half, never past the cap', () => {
    expect(announceRetryDelayMs(1, () => 0)).toBe(1_000);
    expect(announceRetryDelayMs(1, () => 1)).toBe(500);
    expect(announceRetryDelayMs(3, () => 0.5)).toBe(3_000);
    expect(announceRetryDelayMs(40, () => 0)).toBe(ANNOUNCE_RETRY_MAX_MS);
  });
});
