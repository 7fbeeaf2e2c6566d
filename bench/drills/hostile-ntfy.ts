// Hostile ntfy topics (R12.15), against a real host process: a paired device sends, in bursts, a topic in
// every address family a device may not name (loopback, private, link-local, CGNAT, unique-local,
// IPv4-mapped, numeric IPv4 forms, localhost and LAN names, plain http, credentials). Every one must be
// refused with `invalid-message`, none stored, and /healthz must answer within 1 s throughout. Each burst
// comes on a fresh connection: a remote's message budget (60 at once) would otherwise answer `rate-limited`.
import { errorMessage } from '../../lib/contracts';
import { REFUSED_DEVICE_TOPICS } from '../../lib/host/test-support/refused-topics';
import { watchHealth, type HealthWatch } from '../support/drill-watch';
import { type DrillOutcome } from '../support/figures';
import { startHost } from '../support/host-process';
import { isMain, runAlone } from '../support/main-guard';
import { connectDevice, pairBenchDevice } from '../support/remote-client';

const ROUNDS = Number(process.env.DRILL_NTFY_ROUNDS ?? 20);
const HEALTH_BUDGET_MS = 1_000;

export async function drillNtfy(): Promise<DrillOutcome> {
  const host = await startHost();
  const problems: string[] = [];
  let refused = 0;
  let health: HealthWatch = { probes: 0, slowestMs: 0, misses: [] };
  try {
    const device = await pairBenchDevice(host, 'drill-phone');
    const stopWatching = watchHealth([host], HEALTH_BUDGET_MS);
    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        const socket = await connectDevice(host, device.credential);
        const acks = await Promise.all(
          REFUSED_DEVICE_TOPICS.map(async ({ family, url }) => {
            const ack = (await socket.timeout(5_000).emitWithAck('push:ntfy', { topicUrl: url })) as {
              ok?: boolean;
              error?: { code?: string; message?: string };
            };
            return { family, ack };
          }),
        );
        socket.disconnect();
        for (const { family, ack } of acks) {
          if (ack.ok === false && ack.error?.code === 'invalid-message' && ack.error.message?.startsWith('ntfy topic'))
            refused += 1;
          else problems.push(`${family}: ${JSON.stringify(ack).slice(0, 160)}`);
        }
      }
      const socket = await connectDevice(host, device.credential);
      const status = (await socket.timeout(5_000).emitWithAck('push:status')) as {
        status?: { ntfyTopics?: unknown[] };
      };
      if (status.status?.ntfyTopics?.length !== 0) problems.push(`topics stored: ${JSON.stringify(status)}`);
      // A topic a device may set still is taken (the refusals are not a blanket no), then cleared.
      const accepted = (await socket.timeout(5_000).emitWithAck('push:ntfy', {
        topicUrl: 'https://ntfy.sh/askaway-drill-3f9c',
      })) as { ok?: boolean };
      if (accepted.ok !== true) problems.push('a public https topic was refused');
      await socket.timeout(5_000).emitWithAck('push:ntfy', { topicUrl: null });
      socket.disconnect();
    } finally {
      health = await stopWatching();
    }
    problems.push(...health.misses.slice(0, 5));
  } catch (error) {
    problems.push(errorMessage(error));
  } finally {
    await host.stop();
  }
  const total = ROUNDS * REFUSED_DEVICE_TOPICS.length;
  return {
    name: 'hostile ntfy topics from a device',
    ok: problems.length === 0,
    detail:
      `${refused}/${total} refused (${REFUSED_DEVICE_TOPICS.length} address families × ${ROUNDS}), none stored; ` +
      `/healthz slowest ${Math.round(health.slowestMs)} ms over ${health.probes} probes` +
      (problems.length > 0 ? `; ${problems.slice(0, 5).join('; ')}` : ''),
  };
}

if (isMain(import.meta.url))
  await runAlone('drills/hostile-ntfy', async () => ({ figures: [], drills: [await drillNtfy()] }));
