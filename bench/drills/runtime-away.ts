// Fault drill: a runtime loses the host for 30 s mid-question while the person
// answers from the phone; when it comes back it gets that resolution. Two ways to
// lose the link: a cut (connections reset, reconnects refused) and a stall (nothing
// moves, the connection stays open), each through a loopback TCP proxy.
import { errorMessage } from '../../lib/contracts';
import { type BrokerResult } from '../../lib/core/tool-types';
import { connectToHost, type HostConnection } from '../../lib/runtime/host-connection';
import { createRuntimeBroker } from '../../lib/runtime/runtime-broker';
import { type DrillOutcome } from '../support/figures';
import { startHost } from '../support/host-process';
import { isMain, runAlone } from '../support/main-guard';
import { permissionRequest, QUESTION_INPUT } from '../support/payloads';
import { pairBenchDevice } from '../support/remote-client';
import { answeringRemote } from './answering-remote';
import { startProxy } from './tcp-proxy';

const AWAY_MS = Number(process.env.DRILL_AWAY_MS ?? 30_000);
const FIRST_QUESTION = QUESTION_INPUT.questions[0]?.question ?? '';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export async function drillRuntimeAway(): Promise<DrillOutcome[]> {
  const host = await startHost();
  const remote = answeringRemote(host.url, (await pairBenchDevice(host, 'drill-remote')).credential);
  remote.hold(true);
  const lanes = await Promise.all(
    (['cut', 'stall'] as const).map(async (kind) => {
      const proxy = await startProxy(host.port);
      const connection: HostConnection = connectToHost({ url: proxy.url, token: host.token, label: `drill-${kind}` });
      await connection.ready(10_000);
      let connected = true;
      connection.onConnectionChange((value) => (connected = value));
      const requestId = `away-${kind}`;
      let result: BrokerResult | undefined;
      let error: unknown;
      const call = createRuntimeBroker(connection)
        .requestPermission(permissionRequest(requestId, `session-${kind}`))
        .then(
          (value) => (result = value),
          (reason: unknown) => (error = reason),
        );
      return {
        kind,
        proxy,
        connection,
        requestId,
        call,
        result: () => result,
        error: () => error,
        connected: () => connected,
      };
    }),
  );
  const outcomes: DrillOutcome[] = [];
  try {
    await until(
      () => lanes.every((lane) => remote.pending.has(lane.requestId)),
      'the questions to reach the remote',
      10_000,
    );
    for (const lane of lanes) {
      if (lane.kind === 'cut') lane.proxy.cut();
      else lane.proxy.stall();
    }
    const cutLane = lanes.find((lane) => lane.kind === 'cut');
    await until(() => cutLane?.connected() === false, 'the cut runtime to notice', 10_000);
    const awayFrom = Date.now();
    remote.hold(false);
    await until(
      () => lanes.every((lane) => remote.record.resolutions.has(lane.requestId)),
      'the answers to be accepted',
      10_000,
    );
    await sleep(Math.max(0, AWAY_MS - (Date.now() - awayFrom)));
    const answeredDuringOutage = lanes.map((lane) => lane.result() === undefined);
    for (const lane of lanes) lane.proxy.restore();
    await until(
      () => lanes.every((lane) => lane.result() !== undefined || lane.error() !== undefined),
      'the runtimes to get the resolution',
      20_000,
    ).catch(() => undefined);
    lanes.forEach((lane, index) => {
      const result = lane.result();
      const expected = remote.record.accepted.get(lane.requestId)?.[0]?.text;
      const got =
        result?.decision === 'modify'
          ? (result.modifiedInput as { answers?: Record<string, string> }).answers?.[FIRST_QUESTION]
          : undefined;
      const ok = answeredDuringOutage[index] === true && got !== undefined && got === expected;
      outcomes.push({
        name: `runtime away ${Math.round(AWAY_MS / 1000)} s (${lane.kind}) gets the answer given meanwhile`,
        ok,
        detail: ok
          ? `answered ${Math.round(AWAY_MS / 1000)} s before the link came back; the runtime got ${JSON.stringify(got)}`
          : `expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}${lane.error() ? ` (error: ${String(lane.error())})` : ''}${answeredDuringOutage[index] ? '' : ' (resolved before the outage ended: the link was not really down)'}`,
      });
    });
  } catch (error) {
    outcomes.push({
      name: 'runtime away mid-question',
      ok: false,
      detail: errorMessage(error),
    });
  } finally {
    for (const lane of lanes) {
      await lane.connection.close();
      await lane.proxy.close();
    }
    remote.close();
    await host.stop();
  }
  return outcomes;
}

if (isMain(import.meta.url))
  await runAlone('drills/runtime-away', async () => ({ figures: [], drills: await drillRuntimeAway() }));
