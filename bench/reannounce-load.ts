// R13.3: 10,000 pending interactions from 100 runtime connections, each re-announced
// every second (R8.1) through the real broker and host connection, for 30 s.
// Measures the host child's own process.cpuUsage() and RSS over the window.
import { setMaxListeners } from 'node:events';
import { type HostConnection, connectToHost } from '../lib/runtime/host-connection';
import { createRuntimeBroker } from '../lib/runtime/runtime-broker';
import { figure, round, type Figure } from './support/figures';
import { procUsage, startHost } from './support/host-process';
import { isMain, runAlone } from './support/main-guard';
import { permissionRequest } from './support/payloads';

const CONNECTIONS = Number(process.env.BENCH_REANNOUNCE_CONNECTIONS ?? 100);
const PER_CONNECTION = Number(process.env.BENCH_REANNOUNCE_PER_CONNECTION ?? 100);
const WINDOW_MS = Number(process.env.BENCH_REANNOUNCE_WINDOW_MS ?? 30_000);
/** Let every loop reach its steady 1 s rhythm before measuring. */
const SETTLE_MS = 3_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runReannounceLoad(): Promise<{ figures: Figure[] }> {
  const host = await startHost();
  const connections: HostConnection[] = [];
  const abort = new AbortController();
  // One signal stops all 10,000 calls at the end; each adds a listener to it.
  setMaxListeners(0, abort.signal);
  // Announces answered by the host, full or by id in a batch, over all connections.
  const answered = () => connections.reduce((sum, connection) => sum + connection.answered, 0);
  try {
    for (let index = 0; index < CONNECTIONS; index += 1) {
      connections.push(connectToHost({ url: host.url, token: host.token, label: `bench-${index}` }));
    }
    await Promise.all(connections.map((connection) => connection.ready(30_000)));
    const total = CONNECTIONS * PER_CONNECTION;
    const first = performance.now();
    // Start the calls spread over one second, as independent agents would be.
    for (let index = 0; index < total; index += 1) {
      const connection = connections[index % CONNECTIONS];
      if (!connection) continue;
      const broker = createRuntimeBroker(connection);
      const request = permissionRequest(`load-${index}`, `session-${index % CONNECTIONS}`);
      const delay = (index / total) * 1_000 - (performance.now() - first);
      if (delay > 1) await sleep(delay);
      broker.requestPermission(request, { signal: abort.signal }).catch(() => undefined);
    }
    // Wait until the host holds every interaction (the first announces are the only writes).
    for (;;) {
      const since = answered();
      await sleep(1_000);
      const acks = answered() - since;
      if (acks >= total * 0.9) break;
      if (performance.now() - first > 120_000)
        throw new Error(`only ${acks} acks/s after 120 s; the host never caught up`);
    }
    await sleep(SETTLE_MS);

    // CPU and RSS from /proc: an overloaded host answers IPC late, /proc never does.
    const before = procUsage(host.pid);
    const acksBefore = answered();
    let peakRss = before.rssBytes;
    let peakHeap = 0;
    const samples = Math.max(1, Math.round(WINDOW_MS / 1_000));
    for (let second = 0; second < samples; second += 1) {
      await sleep(WINDOW_MS / samples);
      peakRss = Math.max(peakRss, procUsage(host.pid).rssBytes);
    }
    const after = procUsage(host.pid);
    const acksAfter = answered();
    peakHeap = await host.usage().then(
      (usage) => usage.heapUsedBytes,
      () => Number.NaN,
    );
    const wallMs = after.at - before.at;
    const cpuShare = ((after.cpuMicros - before.cpuMicros) / 1000 / wallMs) * 100;
    const acksPerSecond = ((acksAfter - acksBefore) / wallMs) * 1000;
    const note = `${total.toLocaleString('en-US')} pending from ${CONNECTIONS} runtime connections, re-announced every 1 s, ${Math.round(wallMs / 1000)} s window`;
    return {
      figures: [
        figure({
          name: 're-announce load: host CPU (R13.3)',
          value: round(cpuShare, 1),
          unit: '% of one core',
          budget: 25,
          note,
        }),
        figure({
          name: 're-announce load: announces answered',
          value: Math.round(acksPerSecond),
          unit: '/s',
          note: `expected ${total.toLocaleString('en-US')}/s`,
        }),
        figure({
          name: 're-announce load: host CPU per announce',
          value: round((after.cpuMicros - before.cpuMicros) / Math.max(1, acksAfter - acksBefore), 1),
          unit: 'µs',
        }),
        figure({ name: 're-announce load: host RSS peak', value: round(peakRss / 2 ** 20, 1), unit: 'MiB', note }),
        figure({
          name: 're-announce load: host heap used at end',
          value: round(peakHeap / 2 ** 20, 1),
          unit: 'MiB',
          note,
        }),
      ],
    };
  } finally {
    abort.abort();
    await Promise.all(connections.map((connection) => connection.close()));
    await host.stop();
  }
}

if (isMain(import.meta.url)) await runAlone('reannounce-load', runReannounceLoad);
