import { describe, expect, it, vi } from 'vitest';
import { readHubSignIn, readMyPerson } from './hub-people';
import { type Pairing } from './pairing';

const PAIRING: Pairing = {
  hostUrl: 'https://hub.example.com',
  hostName: 'hub',
  deviceId: '0123456789abcdef',
  deviceName: 'Pixel',
  credential: `aw_d_0123456789abcdef_${'a'.repeat(43)}`,
};

function answering(status: number, body: unknown) {
  return vi.fn<typeof fetch>(() => Promise.resolve(Response.json(body, { status })));
}

describe('[R21.32] whether the hub that served the app signs people in', () => {
  it('[R21.32] reads the sign-in path and the provider’s host', async () => {
    const fetchImpl = answering(200, { signIn: { path: '/auth/sign-in', provider: 'login.example.com' } });
    expect(await readHubSignIn(fetchImpl)).toEqual({ path: '/auth/sign-in', provider: 'login.example.com' });
    expect(fetchImpl).toHaveBeenCalledWith('/api/hub', expect.objectContaining({ credentials: 'omit' }));
  });

  it('[R21.32] anything but a well-formed yes is a no: no sign-in, an error, a path to another site, no hub at all', async () => {
    expect(await readHubSignIn(answering(200, { signIn: null }))).toBeNull();
    expect(await readHubSignIn(answering(404, { error: { code: 'not-found', message: 'no' } }))).toBeNull();
    const elsewhere = { signIn: { path: 'https://evil.example/auth/sign-in', provider: 'evil.example' } };
    expect(await readHubSignIn(answering(200, elsewhere))).toBeNull();
    expect(await readHubSignIn(answering(200, { signIn: { path: '//evil.example', provider: 'x' } }))).toBeNull();
    expect(await readHubSignIn(() => Promise.reject(new TypeError('Failed to fetch')))).toBeNull();
  });
});

describe('[R21.33] whose this device is', () => {
  it('[R21.33] asks its own hub with its own credential and reads the person', async () => {
    const person = { id: 'p1', name: 'Ana Lima', email: 'ana@example.com', role: 'owner' };
    const fetchImpl = answering(200, { deviceId: PAIRING.deviceId, person });
    expect(await readMyPerson(PAIRING, fetchImpl)).toEqual(person);
    expect(fetchImpl).toHaveBeenCalledWith(
      'https://hub.example.com/api/me',
      expect.objectContaining({ headers: { Authorization: `Bearer ${PAIRING.credential}` }, credentials: 'omit' }),
    );
    expect(await readMyPerson(PAIRING, answering(200, { deviceId: PAIRING.deviceId, person: null }))).toBeNull();
  });

  it('[R21.33] a refusal, another device’s answer or an unreadable one is not taken for "nobody’s"', async () => {
    await expect(
      readMyPerson(PAIRING, answering(401, { error: { code: 'unauthorized', message: 'no' } })),
    ).rejects.toThrow('HTTP 401');
    await expect(readMyPerson(PAIRING, answering(200, { deviceId: 'fedcba9876543210', person: null }))).rejects.toThrow(
      'Unexpected reply',
    );
    await expect(readMyPerson(PAIRING, answering(200, { deviceId: PAIRING.deviceId }))).rejects.toThrow(
      'Unexpected reply',
    );
  });
});
