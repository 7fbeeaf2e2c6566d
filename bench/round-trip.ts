// R13.1: runtime announces → remote receives → remote responds → runtime has its
// modify result, through the real broker and host connection, against a bare
// socket.io relay of the same hops. Both servers run in child processes. Budget: p50 ≤ 1.75× the relay on an
// idle machine, p99 ≤ 1.5×; the host's CPU time per question is recorded beside the ratio.
// Diagnostics: BENCH_SEGMENTS=1 prints the median of each stretch of the trip;
// BENCH_CPU_PROF=<dir> writes CPU profiles of the host, the relay and this process
// (runtime and remote) over the measured questions; with BENCH_HOST=source the
// host's frames name their source files. Read them with
// `node --import tsx bench/support/cpu-profile-summary.ts --per <questions> <dir>/host.cpuprofile`.
import os from 'node:os';
import path from 'node:path';
import { io } from 'socket.io-client';
import { PROTOCOL_VERSION, RUNTIME_NAMESPACE, type ResolvedNotice } from '../lib/contracts';
import { connectToHost } from '../lib/runtime/host-connection';
import { createRuntimeBroker } from '../lib/runtime/runtime-broker';
import { profileDir, startCpuProfile } from './support/cpu-profiler';
import { figure, round, type Figure } from './support/figures';
import { startHost, type ServerProcess } from './support/host-process';
import { isMain, runAlone } from './support/main-guard';
import { ANSWER, interactionRequest, permissionRequest } from './support/payloads';
import { startRelay } from './support/relay-process';
import { answerEverything, connectRemote, pairBenchDevice } from './support/remote-client';
import { segmentRecorder, type SegmentRecorder } from './support/round-trip-segments';
import { percentile } from './support/stats';

const QUESTIONS = Number(process.env.BENCH_ROUND_TRIPS ?? 500);
const WARMUP = 50;
/** R13.1: p50 at most 1.75× the bare relay's on an idle machine, p99 at most 1.5×. */
const BUDGETS = [
  [50, 1.75],
  [99, 1.5],
] as const;
const BLOCKS = 5;
/**
 * The host limits each remote to 20 messages/s (R12.3), far above a human's pace;
 * spacing questions 50 ms apart (untimed, on both sides) keeps one remote within it.
 */
const GAP_MS = 50;
const ROUND_TRIP_TIMEOUT_MS = 10_000;

type RoundTrip = (index: number) => Promise<void>;

interface Path {
  once: RoundTrip;
  server: ServerProcess;
  close(): Promise<void>;
}

async function askawayPath(): Promise<Path> {
  const host = await startHost();
  const remote = await connectRemote(host.url, (await pairBenchDevice(host, 'bench-remote')).credential);
  answerEverything(remote.socket, ANSWER, (ack) => {
    if (!ack.ok) console.error(`round trip: the host refused an answer: ${ack.error.code} ${ack.error.message}`);
  });
  const connection = connectToHost({ url: host.url, token: host.token, label: 'bench' });
  await connection.ready();
  const broker = createRuntimeBroker(connection);
  return {
    server: host,
    once: async (index) => {
      const result = await broker.requestPermission(permissionRequest(`rt-${index}`, `session-${index % 10}`));
      if (result.decision !== 'modify') throw new Error(`round trip ${index}: expected modify, got ${result.decision}`);
    },
    close: async () => {
      await connection.close();
      remote.socket.disconnect();
      await host.stop();
    },
  };
}

async function relayPath(): Promise<Path> {
  const relay = await startRelay();
  // The relay sends no snapshot on connect, so connect by hand rather than with connectRemote.
  const remoteSocket = io(`${relay.url}/remote`, { transports: ['websocket'], reconnection: false });
  await new Promise<void>((resolve) => remoteSocket.once('connect', () => resolve()));
  answerEverything(remoteSocket as Parameters<typeof answerEverything>[0], ANSWER);
  const runtime = io(`${relay.url}${RUNTIME_NAMESPACE}`, {
    auth: { token: 'unused', protocolVersion: PROTOCOL_VERSION, runtimeId: 'bench' },
    transports: ['websocket'],
  });
  await new Promise<void>((resolve) => runtime.once('connect', () => resolve()));
  const waiting = new Map<string, (notice: ResolvedNotice) => void>();
  runtime.on('resolved', (notice: ResolvedNotice) => {
    waiting.get(notice.requestId)?.(notice);
    // Acknowledged once the caller has its result, as the runtime does (lib/runtime/resolution-acks.ts).
    setImmediate(() => runtime.emit('resolution:ack', { requestId: notice.requestId }, () => undefined));
  });
  return {
    server: relay,
    once: (index) =>
      new Promise<void>((resolve) => {
        const request = interactionRequest(`relay-${index}`, `session-${index % 10}`);
        waiting.set(request.requestId, () => {
          waiting.delete(request.requestId);
          resolve();
        });
        runtime.emit('announce', request, () => undefined);
      }),
    close: async () => {
      runtime.disconnect();
      remoteSocket.disconnect();
      await relay.stop();
    },
  };
}

async function timed(
  once: RoundTrip,
  from: number,
  count: number,
  samples: number[],
  segments?: SegmentRecorder,
): Promise<void> {
  for (let index = from; index < from + count; index += 1) {
    await new Promise((resolve) => setTimeout(resolve, GAP_MS));
    segments?.begin();
    const started = performance.now();
    await withTimeout(once(index), ROUND_TRIP_TIMEOUT_MS, `round trip ${index}`);
    samples.push(performance.now() - started);
    segments?.end();
  }
}

/**
 * With BENCH_CPU_PROF=<dir>, profiles this process (the runtime and remote of one
 * path) over `run`; the servers' profiles cover every block.
 */
async function profiled(file: string | undefined, run: () => Promise<void>): Promise<void> {
  if (!file) return run();
  const profile = await startCpuProfile();
  try {
    await run();
  } finally {
    await profile.stop(file);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function runRoundTrip(): Promise<{ figures: Figure[] }> {
  const askaway = await askawayPath();
  const relay = await relayPath();
  try {
    await timed(askaway.once, 0, WARMUP, []);
    await timed(relay.once, 0, WARMUP, []);
    const askawaySamples: number[] = [];
    const relaySamples: number[] = [];
    const cpuBefore = await Promise.all([askaway.server.usage(), relay.server.usage()]);
    const profiles = profileDir();
    const segments = process.env.BENCH_SEGMENTS ? { relay: segmentRecorder(), askaway: segmentRecorder() } : undefined;
    if (profiles) await Promise.all([askaway.server.startProfile(), relay.server.startProfile()]);
    // Interleaved blocks, so drift on a shared machine hits both sides alike.
    const block = Math.ceil(QUESTIONS / BLOCKS);
    for (let done = 0, index = 0; done < QUESTIONS; done += block, index += 1) {
      const count = Math.min(block, QUESTIONS - done);
      await profiled(profiles && path.join(profiles, `bench-relay-${index}.cpuprofile`), () =>
        timed(relay.once, WARMUP + done, count, relaySamples, segments?.relay),
      );
      await profiled(profiles && path.join(profiles, `bench-askaway-${index}.cpuprofile`), () =>
        timed(askaway.once, WARMUP + done, count, askawaySamples, segments?.askaway),
      );
    }
    const cpuAfter = await Promise.all([askaway.server.usage(), relay.server.usage()]);
    if (profiles) {
      await askaway.server.stopProfile(path.join(profiles, 'host.cpuprofile'));
      await relay.server.stopProfile(path.join(profiles, 'relay.cpuprofile'));
      console.log(`CPU profiles of ${QUESTIONS} questions each: ${profiles}`);
    }
    if (segments) {
      const relayMedians = segments.relay.medians();
      console.log('\nmedian of each stretch (ms)   askaway   relay');
      segments.askaway
        .medians()
        .forEach(({ stretch, ms }, index) =>
          console.log(
            `${stretch.padEnd(38)} ${ms.toFixed(3).padStart(7)} ${(relayMedians[index]?.ms ?? 0).toFixed(3).padStart(7)}`,
          ),
        );
    }
    const cpuPerQuestion = (side: 0 | 1) =>
      ((cpuAfter[side]?.cpuMicros ?? 0) - (cpuBefore[side]?.cpuMicros ?? 0)) / 1000 / QUESTIONS;
    const hostCpu = round(cpuPerQuestion(0), 3);
    const relayCpu = round(cpuPerQuestion(1), 3);
    const load = round(os.loadavg()[0] ?? 0, 2);
    const figures: Figure[] = [];
    for (const [p, budget] of BUDGETS) {
      figures.push(
        figure({
          name: `round trip p${p} (R13.1)`,
          value: round(percentile(askawaySamples, p), 3),
          unit: 'ms',
          baseline: round(percentile(relaySamples, p), 3),
          budget,
          budgetOn: 'ratio',
          // The ratio moves with whatever else the machine runs; CPU time per question does not, so a regression
          // in the host's own work shows beside it even on a noisy run.
          note:
            `${QUESTIONS} sequential questions; baseline: bare socket.io relay of the same hops; host and relay in child ` +
            `processes; budget ${budget}× on an idle machine (1-minute load here ${load}); host CPU ${hostCpu} ms per ` +
            `question (relay ${relayCpu} ms)`,
        }),
      );
    }
    figures.push(
      figure({
        name: 'round trip: server CPU per question',
        value: hostCpu,
        unit: 'ms',
        baseline: relayCpu,
        note: 'process.cpuUsage() of the host vs the relay over the measured questions; independent of other load on the machine',
      }),
    );
    return { figures };
  } finally {
    await askaway.close();
    await relay.close();
  }
}

if (isMain(import.meta.url)) await runAlone('round-trip', runRoundTrip);
