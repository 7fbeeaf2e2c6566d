import { afterEach, describe, expect, it, vi } from 'vitest';
import { headerValue, sendNtfy } from './ntfy-sender';
import { pushFixture, PUBLIC_URL, type PushFixture } from './push-fixture';
import { NTFY_TEST_ORIGIN, startRecordingServer } from './test-helpers';

let fixture: PushFixture | undefined;
const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function decodeHeader(value: string | string[] | undefined): string {
  const text = String(value ?? '');
  const encoded = /^=\?UTF-8\?B\?(.*)\?=$/.exec(text);
  return encoded?.[1] ? Buffer.from(encoded[1], 'base64').toString('utf8') : text;
}

describe('ntfy target', () => {
  it('[R14.6][R14.12] posts title, message, click link and its one button, opening the card, to the topic URL', async () => {
    const server = await startRecordingServer();
    servers.push(server);
    const outcome = await sendNtfy(`${server.url}/askaway-topic`, {
      title: 'Database',
      body: 'Which database?',
      click: 'http://host.test/card?id=r 1',
    });
    expect(outcome).toEqual({ status: 'sent' });
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/askaway-topic' });
    expect(request?.headers.title).toBe('Database');
    expect(request?.headers.click).toBe('http://host.test/card?id=r%201');
    expect(request?.headers.actions).toBe('view, "Open card", "http://host.test/card?id=r%201", clear=true');
    expect(request?.body.toString('utf8')).toBe('Which database?');
  });

  it('[R14.6] non-ASCII titles travel as RFC 2047 words; line breaks never reach a header', () => {
    expect(headerValue('数据库')).toBe(`=?UTF-8?B?${Buffer.from('数据库').toString('base64')}?=`);
    expect(headerValue('a\r\nInjected: yes')).toBe('a Injected: yes');
  });

  it('[R14.6] reports a refusal from the ntfy server', async () => {
    const server = await startRecordingServer();
    servers.push(server);
    server.statusFor.set('/t', 403);
    await expect(sendNtfy(`${server.url}/t`, { title: 'x', body: 'y' })).resolves.toMatchObject({ status: 'failed' });
  });

  it('[R14.6] the host publishes each new question to the topic a device set, linking to its card', async () => {
    fixture = await pushFixture();
    const f = fixture;
    expect(await f.service.setNtfyTopic('phone', `${NTFY_TEST_ORIGIN}/my-topic`)).toMatchObject({ ok: true });
    const requestId = await f.ask({ header: '部署', question: 'Deploy to which region?' });

    await vi.waitFor(() =>
      expect(f.endpoint.requests.filter((request) => request.path === '/my-topic')).toHaveLength(1),
    );
    const request = f.endpoint.requests.find((candidate) => candidate.path === '/my-topic');
    expect(decodeHeader(request?.headers.title)).toBe('部署');
    expect(request?.headers.click).toBe(`${PUBLIC_URL}/card?id=${requestId}`);
    expect(request?.body.toString('utf8')).toBe('Deploy to which region?');
    expect((await f.service.status('phone')).ntfyTopicUrl).toBe(`${NTFY_TEST_ORIGIN}/my-topic`);
  });

  it('[R14.6][R14.4] ntfy stays quiet while someone is looking at the app', async () => {
    fixture = await pushFixture();
    const f = fixture;
    // The owner's topic may be on this machine (a self-hosted ntfy).
    await f.service.setHostNtfyTopic(`${f.endpoint.url}/my-topic`);
    await f.subscribe('phone');
    f.service.presence.set('desk', 'socket', true);
    await f.ask();
    await vi.waitFor(() => expect(f.received('phone')).toHaveLength(1));
    await f.service.idle();
    expect(f.endpoint.requests.filter((request) => request.path === '/my-topic')).toHaveLength(0);
  });

  it('[R14.6][R14.1] the test button reaches ntfy too', async () => {
    fixture = await pushFixture();
    const f = fixture;
    await f.service.setNtfyTopic('phone', `${NTFY_TEST_ORIGIN}/my-topic`);
    await expect(f.service.test('phone')).resolves.toEqual({ ok: true, webPush: 'not-subscribed', ntfy: 'sent' });
    // Another device's test button checks its own path, not this topic.
    await expect(f.service.test('laptop')).resolves.toMatchObject({ ntfy: 'not-configured' });
    await f.service.setNtfyTopic('phone', null);
    await expect(f.service.test('phone')).resolves.toMatchObject({ ntfy: 'not-configured' });
  });
});
