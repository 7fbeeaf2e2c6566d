import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PushPayloadSchema, type InteractionOrigin, type InteractionRequest, type PushPayload } from '../../contracts';
import { InteractionRegistry } from '../registry';
import { SqliteEventStore } from '../store/sqlite-event-store';
import { createPushService, type PushRuntime } from './create-push-service';
import { decryptWebPush, makeSubscription, routeToSink, startRecordingServer, type BrowserKeys } from './test-helpers';

export const PUBLIC_URL = 'http://askaway.test:4417';

/** A real registry over a SQLite log, the push service on it, and a recording push endpoint. */
export async function pushFixture(
  limits: { collapseWindowMs?: number; rateLimitMax?: number; rateLimitWindowMs?: number } = {},
) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'askaway-push-'));
  const store = new SqliteEventStore(path.join(dataDir, 'askaway.db'));
  const registry = await InteractionRegistry.open({ store });
  const endpoint = await startRecordingServer();
  const logs: string[] = [];
  const push: PushRuntime = await createPushService({
    dataDir,
    publicUrl: () => PUBLIC_URL,
    collapseWindowMs: limits.collapseWindowMs ?? 20,
    rateLimitMax: limits.rateLimitMax ?? 6,
    rateLimitWindowMs: limits.rateLimitWindowMs ?? 60_000,
    log: (line) => logs.push(line),
    // A device's https topic on a `*.test` name lands on the recording endpoint.
    fetch: routeToSink(endpoint.url),
    // The recording push service is on loopback: the owner's to allow (R12.20).
    allowPrivatePush: true,
  });
  const detach = push.service.attach(registry);
  const devices = new Map<string, BrowserKeys>();
  let counter = 0;

  return {
    dataDir,
    registry,
    endpoint,
    service: push.service,
    logs,

    /** Subscribes a device whose push endpoint is `<recording server>/push/<deviceId>`. */
    async subscribe(deviceId: string): Promise<BrowserKeys> {
      const keys = makeSubscription(`${endpoint.url}/push/${deviceId}`);
      devices.set(deviceId, keys);
      const outcome = await push.service.subscribe(deviceId, keys.subscription);
      if (!outcome.ok) throw new Error(outcome.message);
      return keys;
    },

    /** Decrypted payloads the device's endpoint received, oldest first. */
    received(deviceId: string): PushPayload[] {
      const keys = devices.get(deviceId);
      if (!keys) throw new Error(`no device ${deviceId}`);
      return endpoint.requests
        .filter((request) => request.path === `/push/${deviceId}`)
        .map((request) => PushPayloadSchema.parse(JSON.parse(decryptWebPush(request.body, keys))));
    },

    async ask(
      question: { header?: string; question?: string; origin?: InteractionOrigin; requestId?: string } = {},
    ): Promise<string> {
      counter += 1;
      const requestId = question.requestId ?? `req-${counter}`;
      const request: InteractionRequest = {
        kind: 'question',
        requestId,
        protocolRequestId: `proto-${requestId}`,
        sessionId: 'session-1',
        toolName: 'AskUserQuestion',
        createdAt: new Date().toISOString(),
        ...(question.origin ? { origin: question.origin } : {}),
        input: {
          questions: [
            {
              question: question.question ?? `Which database for service ${counter}?`,
              header: question.header ?? 'Database',
              multiSelect: false,
              options: [
                { label: 'Postgres (Recommended)', description: 'Relational, already in use' },
                { label: 'SQLite', description: 'One file, no server' },
              ],
            },
          ],
        },
      };
      const ack = await registry.announce(request, 'runtime-socket');
      if (!ack.ok) throw new Error(ack.error.message);
      return requestId;
    },

    async answer(requestId: string): Promise<void> {
      const ack = await registry.respond(
        {
          requestId,
          clientResponseId: `answer-${requestId}`,
          response: { action: 'accept', content: { answers: {} } },
        },
        { id: 'desk' },
      );
      if (!ack.ok) throw new Error(ack.error.message);
    },

    /** The agent took the question back (its terminal answered first). */
    async withdraw(requestId: string): Promise<void> {
      const ack = await registry.withdraw({ requestId, reason: 'Answered in the terminal' });
      if (!ack.ok) throw new Error(ack.error.message);
    },

    async close(): Promise<void> {
      detach();
      registry.stop();
      await push.close();
      await store.close();
      await endpoint.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type PushFixture = Awaited<ReturnType<typeof pushFixture>>;
