import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SECRET_ANSWER_MASK } from '../contracts';
import { asAdmin } from './store/test-support/pg-test-database';
import { schemaOf, setUpPgTestLogs } from './store/test-support/pg-test-logs';
import { closeAllClients, connectRemote, connectRuntime } from './test-support/clients';
import { pairDevice } from './test-support/devices';
import { SECRET_TOKEN_QUESTION, secretQuestionRequest } from './test-support/fixtures';
import { closeAllHosts, startTestHost, TEST_TOKEN } from './test-support/test-host';

/** A secret answer (R18.5) given through one replica reaches the agent on another, and rests nowhere in plaintext. */
const logs = setUpPgTestLogs();

afterEach(async () => {
  closeAllClients();
  await closeAllHosts();
});

const SECRET = 'tok-51d0c2e9b7a4f3';
const answer = {
  action: 'accept' as const,
  content: { answers: { [SECRET_TOKEN_QUESTION]: SECRET, 'Which region?': 'eu' } },
};

/** Every row of the log's tables that holds `text` as bytes, in any column. */
async function rowsHolding(url: string, text: string): Promise<string[]> {
  const schema = schemaOf(url);
  const tables = ['askaway_events', 'askaway_sealed_answers', 'askaway_replicas', 'askaway_meta'];
  const found: string[] = [];
  for (const table of tables) {
    const rows = await asAdmin<{ row: string }>(`SELECT t::text AS row FROM ${schema}.${table} t`, [], url);
    found.push(...rows.filter((row) => row.row.includes(text)).map((row) => `${table}: ${row.row}`));
  }
  return found;
}

async function boxes(url: string): Promise<number> {
  const rows = await asAdmin<{ count: string }>(
    `SELECT count(*) AS count FROM ${schemaOf(url)}.askaway_sealed_answers`,
    [],
    url,
  );
  return Number(rows[0]?.count);
}

describe('[R20.47] a secret answer crosses replicas sealed', () => {
  it('[R20.47][R12.13] the phone on B answers the agent on A: A’s agent gets the whole answer once, the log the mask, and no box outlives the ack', async () => {
    const url = await logs.freshLogUrl();
    const a = await startTestHost({ databaseUrl: url, token: TEST_TOKEN });
    const b = await startTestHost({ databaseUrl: url, token: TEST_TOKEN });
    const runtime = await connectRuntime(a.url, TEST_TOKEN);
    const phone = await connectRemote(b.url, (await pairDevice(b)).credential);
    const request = secretQuestionRequest();
    await runtime.socket.emitWithAck('announce', request);
    await vi.waitFor(() => expect(b.registry.projection.get(request.requestId)?.status).toBe('pending'));

    const ack = await phone.socket.emitWithAck('respond', {
      requestId: request.requestId,
      clientResponseId: randomUUID(),
      response: answer,
    });
    expect(ack).toMatchObject({ ok: true, status: 'accepted' });
    await vi.waitFor(() => expect(runtime.resolved).toHaveLength(1), { timeout: 5_000 });
    expect(runtime.resolved[0]?.resolution.response).toEqual(answer);
    // The agent's re-announce finds it resolved with the whole answer, not asked again.
    const again = await runtime.socket.emitWithAck('announce', request);
    expect(again).toMatchObject({ status: 'resolved', resolution: { response: answer } });
    expect(a.registry.projection.get(request.requestId)?.status).toBe('resolved');

    expect(JSON.stringify(a.registry.projection.get(request.requestId))).toContain(SECRET_ANSWER_MASK);
    expect(await rowsHolding(url, SECRET)).toEqual([]);
    expect(await boxes(url)).toBe(2);
    expect(await runtime.socket.emitWithAck('resolution:ack', { requestId: request.requestId })).toEqual({ ok: true });
    await vi.waitFor(async () => expect(await boxes(url)).toBe(0));
    expect(runtime.resolved).toHaveLength(1);
  });

  it('[R20.47] a replica started after the answer cannot open its box: the agent that moves there is asked again, never handed the mask', async () => {
    const url = await logs.freshLogUrl();
    const a = await startTestHost({ databaseUrl: url, token: TEST_TOKEN });
    const b = await startTestHost({ databaseUrl: url, token: TEST_TOKEN });
    const phone = await connectRemote(b.url, (await pairDevice(b)).credential);
    const request = secretQuestionRequest();
    // The agent asked on A and went away before the answer (its replica died, say).
    const gone = await connectRuntime(a.url, TEST_TOKEN, 'gone');
    await gone.socket.emitWithAck('announce', request);
    gone.socket.disconnect();
    await vi.waitFor(() => expect(b.registry.projection.get(request.requestId)?.status).toBe('pending'));
    await phone.socket.emitWithAck('respond', {
      requestId: request.requestId,
      clientResponseId: randomUUID(),
      response: answer,
    });

    const c = await startTestHost({ databaseUrl: url, token: TEST_TOKEN });
    const moved = await connectRuntime(c.url, TEST_TOKEN, 'moved');
    const reply = await moved.socket.emitWithAck('announce', request);
    expect(reply).toMatchObject({ ok: true, status: 'pending' });
    expect(moved.resolved).toEqual([]);
    await vi.waitFor(() => expect(b.registry.projection.get(request.requestId)?.status).toBe('pending'));
  });
});
