// Fault drill (R14.10, R12.3): POST /api/respond, the answer buttons' endpoint, against a real host process.
// Every hostile shape as a body, raw JSON 30,000 levels deep, a body past the limit, the wrong content type,
// a flood of unknown credentials and one of a paired device's answers, all at once with a real answer waiting.
// The host must stay up, /healthz must answer within 1 s throughout, the waiting answer must be taken exactly
// once, and nothing may be answered `500`.
import { errorMessage, RESPOND_API_PATH } from '../../lib/contracts';
import { deepObjectJson, expandRawJson, HOSTILE_SHAPES } from '../../lib/host/test-support/hostile-shapes';
import { drillOutcome } from '../support/drill-watch';
import { type DrillOutcome } from '../support/figures';
import { startHost } from '../support/host-process';
import { isMain, runAlone } from '../support/main-guard';
import { interactionRequest } from '../support/payloads';
import { pairBenchDevice } from '../support/remote-client';
import { connectRawRuntime } from '../support/raw-runtime';

const HEALTH_LIMIT_MS = 1_000;

export async function drillRespondApi(): Promise<DrillOutcome> {
  const name = 'respond API: hostile bodies, floods of refused and of real answers to POST /api/respond (R14.10)';
  const host = await startHost();
  const problems: string[] = [];
  const statuses = new Map<number, number>();
  let slowestHealthMs = 0;
  let watching = true;
  let figures = '';
  try {
    const device = await pairBenchDevice(host, 'drill-phone');
    const answering = await pairBenchDevice(host, 'drill-answering-phone');
    const runtime = await connectRawRuntime(host.url, host.token, 'drill-respond');
    const request = interactionRequest('drill-waiting', 'session-drill');
    const resolutions: unknown[] = [];
    runtime.on('resolved', (notice) => resolutions.push(notice));
    await runtime.emitWithAck('announce', request);

    const health = (async () => {
      while (watching) {
        const started = Date.now();
        const ok = await fetch(`${host.url}/healthz`, { signal: AbortSignal.timeout(5_000) }).then(
          (response) => response.ok,
          () => false,
        );
        const took = Date.now() - started;
        slowestHealthMs = Math.max(slowestHealthMs, took);
        if (!ok) problems.push('/healthz did not answer');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    const post = async (body: string, headers: Record<string, string>) => {
      const response = await fetch(`${host.url}${RESPOND_API_PATH}`, { method: 'POST', headers, body }).catch(
        () => undefined,
      );
      const status = response?.status ?? 0;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      await response?.arrayBuffer().catch(() => undefined);
      return status;
    };
    const asDevice = { 'Content-Type': 'application/json', Authorization: `Bearer ${device.credential}` };
    const bodies = [
      ...HOSTILE_SHAPES.map((shape) => expandRawJson(JSON.stringify(shape.value()))),
      ...HOSTILE_SHAPES.map((shape) =>
        expandRawJson(JSON.stringify({ requestId: request.requestId, clientResponseId: 'x', response: shape.value() })),
      ),
      deepObjectJson(30_000),
      'x'.repeat(2 * 1024 * 1024),
      '{"requestId":',
    ];
    const phases: [string, () => Promise<unknown>][] = [
      ['hostile bodies', () => Promise.all(bodies.map((body) => post(body, asDevice)))],
      [
        '500 unknown credentials',
        () =>
          Promise.all(
            Array.from({ length: 500 }, (_, index) =>
              post('{}', {
                'Content-Type': 'application/json',
                Authorization: `Bearer aw_d_${'0'.repeat(40)}${index}`,
              }),
            ),
          ),
      ],
      [
        '50 form posts',
        () => Promise.all(Array.from({ length: 50 }, () => post('a=1', { ...asDevice, 'Content-Type': 'text/plain' }))),
      ],
    ];
    const answer = JSON.stringify({
      requestId: request.requestId,
      clientResponseId: 'drill-answer',
      response: { action: 'accept', content: { answers: {} } },
    });
    // Another phone answers the waiting question 200 times at once, while the others flood.
    const asAnswering = { ...asDevice, Authorization: `Bearer ${answering.credential}` };
    phases.push([
      '200 copies of one answer',
      () => Promise.all(Array.from({ length: 200 }, () => post(answer, asAnswering))),
    ]);
    const phaseMs: string[] = [];
    for (const [label, run] of phases) {
      const started = Date.now();
      await run();
      phaseMs.push(`${label} ${Date.now() - started} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    watching = false;
    await health;
    runtime.disconnect();
    if ((statuses.get(500) ?? 0) > 0) problems.push(`${statuses.get(500)} answered 500`);
    if (resolutions.length !== 1) problems.push(`the waiting question was resolved ${resolutions.length} times`);
    if (slowestHealthMs > HEALTH_LIMIT_MS) problems.push(`/healthz took ${slowestHealthMs} ms`);
    const total = [...statuses.values()].reduce((sum, count) => sum + count, 0);
    figures =
      `${total} requests: ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${count}× ${status}`)
        .join(', ')}; ` +
      `${phaseMs.join(', ')}; the waiting question resolved ${resolutions.length}×; slowest /healthz ${slowestHealthMs} ms`;
  } catch (error) {
    problems.push(errorMessage(error));
  } finally {
    watching = false;
    await host.stop();
  }
  return drillOutcome(name, figures, problems);
}

if (isMain(import.meta.url))
  await runAlone('drills/hostile-respond-api', async () => ({ figures: [], drills: [await drillRespondApi()] }));
