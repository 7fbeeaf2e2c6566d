import { describe, expect, it, vi } from 'vitest';
import { type HubSignIn } from '../contracts/hub-api';
import { type TeamView } from '../contracts/team-api';
import { type Pairing } from './pairing';
import { createTeamStore } from './team-store';

const SIGN_IN: HubSignIn = { path: '/auth/sign-in', provider: 'login.example.com' };
const pairing = (credential: string): Pairing => ({
  hostUrl: 'https://hub.example.com',
  hostName: 'hub',
  deviceId: '0123456789abcdef',
  deviceName: 'Pixel',
  credential,
});
const team = (canManage: boolean): TeamView => ({ me: null, canManage, people: [], groups: [] });

/** A promise and its resolve, to answer when the test says. */
function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe('[R21.75] one copy of the team for every screen', () => {
  it('[R21.75] a personal hub is never asked for a team: the screens stay as they were', async () => {
    const read = vi.fn(() => Promise.resolve(team(true)));
    const store = createTeamStore({ signIn: () => Promise.resolve(null), read });
    await store.refresh(pairing('c1'));
    expect(store.snapshot()).toEqual({ credential: 'c1', team: null });
    expect(read).not.toHaveBeenCalled();
  });

  it('[R21.75] screens asking at once share one request; a fresh answer is not asked again until the connection drops', async () => {
    const answer = deferred<TeamView>();
    const read = vi.fn(() => answer.promise);
    const store = createTeamStore({ signIn: () => Promise.resolve(SIGN_IN), read });
    const heard = vi.fn();
    store.subscribe(heard);
    store.ensure(pairing('c1'));
    store.ensure(pairing('c1'));
    answer.resolve(team(true));
    await vi.waitFor(() => expect(store.snapshot()).toEqual({ credential: 'c1', team: team(true) }));
    expect(heard).toHaveBeenCalledTimes(1);
    store.ensure(pairing('c1'));
    expect(read).toHaveBeenCalledTimes(1);

    store.markStale();
    store.ensure(pairing('c1'));
    await vi.waitFor(() => expect(read).toHaveBeenCalledTimes(2));
  });

  it('[R21.75] a device paired again is asked for at once, and a late answer for the old pairing is dropped', async () => {
    const first = deferred<TeamView>();
    const second = deferred<TeamView>();
    const read = vi.fn().mockReturnValueOnce(first.promise).mockReturnValueOnce(second.promise);
    const store = createTeamStore({ signIn: () => Promise.resolve(SIGN_IN), read });
    const old = store.refresh(pairing('old'));
    await vi.waitFor(() => expect(read).toHaveBeenCalledTimes(1));
    store.ensure(pairing('new'));
    await vi.waitFor(() => expect(read).toHaveBeenCalledTimes(2));
    second.resolve(team(false));
    await vi.waitFor(() => expect(store.snapshot()).toEqual({ credential: 'new', team: team(false) }));
    first.resolve(team(true));
    await old;
    expect(store.snapshot()).toEqual({ credential: 'new', team: team(false) });
  });

  it('[R21.75] a hub that cannot answer now keeps what was known, and is asked again next time', async () => {
    const read = vi.fn().mockResolvedValueOnce(team(true)).mockRejectedValueOnce(new Error('HTTP 502'));
    const store = createTeamStore({ signIn: () => Promise.resolve(SIGN_IN), read });
    await store.refresh(pairing('c1'));
    await store.refresh(pairing('c1'));
    expect(store.snapshot()).toEqual({ credential: 'c1', team: team(true) });
    read.mockResolvedValueOnce(team(false));
    store.markStale();
    store.ensure(pairing('c1'));
    await vi.waitFor(() => expect(store.snapshot()?.team).toEqual(team(false)));
  });
});
