// Fault drill: SIGKILL the host at random points of 100 question lifecycles (while
// announcing, while answers are being written, while the resolution is being
// delivered), restart it on the same port and data dir, and audit: every interaction
// is resolved exactly once, the runtime gets what the log says, and no answer the
// remote got an `accepted` ack for is lost.
import { errorMessage } from '../../lib/contracts';
import { type BrokerResult } from '../../lib/core/tool-types';
import { connectToHost } from '../../lib/runtime/host-connection';
import { createInteractionBroker } from '../../lib/protocol';
import { type DrillOutcome } from '../support/figures';
import { startHost, tempDir, type HostProcess } from '../support/host-process';
import { isMain, runAlone } from '../support/main-guard';
import { permissionRequest, QUESTION_INPUT } from '../support/payloads';
import { pairBenchDevice } from '../support/remote-client';
import { answeringRemote } from './answering-remote';
import { readLog } from './log-reader';

const LIFECYCLES = Number(process.env.DRILL_SIGKILL_LIFECYCLES ?? 100);
const PER_ROUND = 4;
const ROUND_TIMEOUT_MS = 30_000;
const PHASES = ['announce', 'response write', 'delivery'] as const;
type Phase = (typeof PHASES)[number];
const FIRST_QUESTION = QUESTION_INPUT.questions[0]?.question ?? '';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const jitter = (max: number) => Math.random() * max;

async function waitFor(check: () => boolean, what: string, timeoutMs = ROUND_TIMEOUT_MS): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

export async function drillSigkill(): Promise<DrillOutcome[]> {
  const dataDir = tempDir('askaway-drill-kill-');
  let host: HostProcess = await startHost({ dataDir });
  const port = host.port;
  const url = host.url;
  const token = host.token;
  let onRespond: ((requestId: string) => void) | undefined;
  const { credential } = await pairBenchDevice(host, 'drill-remote');
  const remote = answeringRemote(url, credential, { onRespond: (requestId) => onRespond?.(requestId) });
  const connection = connectToHost({ url, token, label: 'drill' });
  await connection.ready(10_000);
  let onDelivered: ((requestId: string) => void) | undefined;
  // The runtime's side of delivery: called when the resolution reached it, just as it sends resolution:ack.
  const broker = createInteractionBroker({
    transport: {
      announce: (request, signal) =>
        connection.announce(request, signal).then((resolution) => {
          onDelivered?.(request.requestId);
          return resolution;
        }),
      withdraw: (requestId, reason) => connection.withdraw(requestId, reason),
    },
  });
  const results = new Map<string, BrokerResult>();
  const settledCount = new Map<string, number>();
  const phaseAtKill = new Map<string, string>();
  const problems: string[] = [];
  let kills = 0;

  const classify = (requestId: string): string => {
    if (settledCount.has(requestId)) return 'runtime acknowledging';
    if (remote.record.resolutions.has(requestId)) return 'delivery';
    if ((remote.record.attempts.get(requestId) ?? 0) > 0) return 'response write';
    return 'announce';
  };

  let killing: Promise<void> | undefined;
  /** Arms one kill per round, synchronously, so the round always waits for it. */
  const killAfter = (ids: string[], delayMs: number) => {
    killing ??= (async () => {
      await sleep(delayMs);
      for (const id of ids) phaseAtKill.set(id, classify(id));
      await host.kill('SIGKILL');
      kills += 1;
      host = await startHost({ dataDir, port });
    })();
    return killing;
  };

  try {
    for (let round = 0; round * PER_ROUND < LIFECYCLES; round += 1) {
      const phase: Phase = PHASES[round % PHASES.length] ?? 'announce';
      const ids = Array.from(
        { length: Math.min(PER_ROUND, LIFECYCLES - round * PER_ROUND) },
        (_, index) => `kill-${round}-${index}`,
      );
      killing = undefined;
      onRespond = undefined;
      onDelivered = undefined;
      remote.hold(phase !== 'delivery');
      if (phase === 'delivery') {
        onDelivered = (requestId) => {
          if (ids.includes(requestId)) killAfter(ids, jitter(2));
        };
      }
      const calls = ids.map(async (id, index) => {
        await sleep(jitter(4) * index);
        const result = await broker.requestPermission(permissionRequest(id, `session-${round % 7}`));
        settledCount.set(id, (settledCount.get(id) ?? 0) + 1);
        results.set(id, result);
      });
      if (phase === 'announce') {
        await killAfter(ids, jitter(12));
        remote.hold(false);
      } else if (phase === 'response write') {
        await waitFor(() => ids.every((id) => remote.pending.has(id)), 'the remote to see the questions');
        onRespond = (requestId) => {
          if (ids.includes(requestId)) killAfter(ids, jitter(6));
        };
        remote.hold(false);
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.all(calls),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`round ${round} (${phase}) did not finish in ${ROUND_TIMEOUT_MS} ms`)),
            ROUND_TIMEOUT_MS,
          );
        }),
      ]).finally(() => clearTimeout(timer));
      await killing;
    }
  } catch (error) {
    problems.push(errorMessage(error));
  } finally {
    await connection.close();
    remote.close();
    await host.stop();
  }

  const events = readLog(dataDir);
  const requested = new Map<string, number>();
  const resolved = new Map<string, { count: number; text?: string; clientResponseId?: string }>();
  const delivered = new Set<string>();
  for (const event of events) {
    if (event.type === 'interaction.requested')
      requested.set(event.interaction.requestId, (requested.get(event.interaction.requestId) ?? 0) + 1);
    if (event.type === 'interaction.resolved') {
      const entry = resolved.get(event.resolution.requestId) ?? { count: 0 };
      entry.count += 1;
      const content = event.resolution.response.action === 'accept' ? event.resolution.response.content : undefined;
      entry.text = content?.answers?.[FIRST_QUESTION];
      entry.clientResponseId = event.resolution.clientResponseId;
      resolved.set(event.resolution.requestId, entry);
    }
    if (event.type === 'interaction.delivered') delivered.add(event.requestId);
  }
  for (const [id, count] of settledCount) if (count !== 1) problems.push(`${id}: the runtime settled ${count} times`);
  for (const id of results.keys()) {
    const logged = resolved.get(id);
    if (requested.get(id) !== 1) problems.push(`${id}: requested ${requested.get(id) ?? 0} times in the log`);
    if (!logged || logged.count !== 1) {
      problems.push(`${id}: resolved ${logged?.count ?? 0} times in the log`);
      continue;
    }
    const result = results.get(id);
    const got =
      result?.decision === 'modify'
        ? (result.modifiedInput as { answers?: Record<string, string> }).answers?.[FIRST_QUESTION]
        : undefined;
    if (got !== logged.text)
      problems.push(`${id}: the runtime got ${JSON.stringify(got)}, the log says ${JSON.stringify(logged.text)}`);
    const accepted = remote.record.accepted.get(id) ?? [];
    if (accepted.length > 1) problems.push(`${id}: ${accepted.length} different responses were acked as accepted`);
    for (const ack of accepted) {
      if (ack.text !== logged.text)
        problems.push(
          `${id}: acked answer ${JSON.stringify(ack.text)} was lost; the log kept ${JSON.stringify(logged.text)}`,
        );
    }
  }
  if (results.size !== LIFECYCLES && problems.length === 0)
    problems.push(`only ${results.size} of ${LIFECYCLES} lifecycles finished`);
  const phases = new Map<string, number>();
  for (const phase of phaseAtKill.values()) phases.set(phase, (phases.get(phase) ?? 0) + 1);
  const retried = [...remote.record.attempts.values()].filter((attempts) => attempts > 1).length;
  const detail =
    `${results.size}/${LIFECYCLES} lifecycles, ${kills} SIGKILLs; phase at kill: ` +
    [...phases].map(([phase, count]) => `${phase} ${count}`).join(', ') +
    `; ${retried} answers re-sent after a lost ack; runtime acks logged (R10.5) for ${delivered.size}/${results.size}` +
    (problems.length > 0
      ? `; PROBLEMS: ${problems.slice(0, 5).join(' | ')}${problems.length > 5 ? ` (+${problems.length - 5} more)` : ''}`
      : '');
  return [{ name: 'SIGKILL during 100 question lifecycles', ok: problems.length === 0, detail }];
}

if (isMain(import.meta.url))
  await runAlone('drills/sigkill', async () => ({ figures: [], drills: await drillSigkill() }));
