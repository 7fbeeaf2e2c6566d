// Fault drill, run with the fuzz drill (R12.5, R12.6, R12.7), each part against a real host process:
// - hostile shapes: every family of lib/host/test-support/hostile-shapes (deep, wide, long, many keys,
//   control characters; raw JSON 30,000 levels deep) in every message of both namespaces, from the agent
//   token, a joined machine and a device. The process must stay up and keep serving.
// - flood: one joined machine announces new questions as fast as it can for 10 s. Reports how many the
//   host took, how much its log and memory grew, and how big a phone's snapshot is afterwards.
// - full disk: the data dir on a 4 MiB tmpfs filled to the last byte (needs root to mount): phones and
//   machines connect and disconnect, writes are refused with a reason, and it all works again once freed.
// - special files (hostile-files.ts): FIFOs, /dev/zero links and huge files where a hook or a Codex home names a file.
// - ntfy topics (./hostile-ntfy.ts): every address family a device may not name, all refused (R12.15).
// - the other end of each bridge (R12.18, R12.19): a Codex daemon's 6,000-deep frames, 48 MiB file changes and
//   20,000 threads (./hostile-codex-frames.ts); Copilot's port with 5,000-deep messages and a 32 MiB frame
//   (./hostile-copilot-port.ts); an ACP agent and editor with deep lines both ways, reused ids, 200 MB unread and a
//   600 MB line (./hostile-acp.ts, R12.21); an OpenCode plugin's deep and huge lines (./hostile-opencode.ts).
// - Web Push endpoints (./hostile-push.ts): every private spelling, a rebinding name and redirects (R12.20).
import fs from 'node:fs';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import {
  errorMessage,
  PROTOCOL_VERSION,
  REMOTE_NAMESPACE,
  REMOTE_PROTOCOL_VERSION,
  RUNTIME_NAMESPACE,
} from '../../lib/contracts';
import { mountTinyTmpfs } from '../../lib/host/test-support/full-disk';
import { deepObjectJson, HOSTILE_SHAPES, rawJson, rawJsonParser } from '../../lib/host/test-support/hostile-shapes';
import { type DrillOutcome } from '../support/figures';
import { drillAcp } from './hostile-acp';
import { drillCodexFrames } from './hostile-codex-frames';
import { drillCopilotPort } from './hostile-copilot-port';
import { drillSpecialFiles } from './hostile-files';
import { drillFloodDaemon } from './hostile-flood-daemon';
import { drillHostilePatterns } from './hostile-patterns';
import { startHost, type HostProcess } from '../support/host-process';
import { isMain, runAlone } from '../support/main-guard';
import { ANSWER, interactionRequest } from '../support/payloads';
import { pairBenchDevice } from '../support/remote-client';
import { drillNtfy } from './hostile-ntfy';
import { drillOpenCode } from './hostile-opencode';
import { drillPush } from './hostile-push';
import { drillRespondApi } from './hostile-respond-api';

const FLOOD_MS = Number(process.env.DRILL_FLOOD_MS ?? 10_000);
const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

function adminToken(host: HostProcess): string {
  return fs.readFileSync(path.join(host.dataDir, 'admin-token'), 'utf8').trim();
}

/** A machine joined as `askaway invite` and `askaway join` do; its credential. */
async function joinBenchMachine(host: HostProcess, name: string): Promise<string> {
  const invite = await fetch(`${host.url}/api/admin/join-codes`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken(host)}`, 'Content-Type': 'application/json' },
    body: '{}',
  });
  const { code } = (await invite.json()) as { code: string };
  const joined = await fetch(`${host.url}/api/join`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code, name }),
  });
  if (joined.status !== 200) throw new Error(`joining ${name} failed: ${joined.status} ${await joined.text()}`);
  return ((await joined.json()) as { credential: string }).credential;
}

function connect(url: string, namespace: string, auth: Record<string, unknown>): Promise<Socket> {
  const socket = io(`${url}${namespace}`, {
    auth,
    parser: rawJsonParser,
    forceNew: true,
    transports: ['websocket'],
    reconnection: false,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => {
      socket.disconnect();
      reject(error);
    });
  });
}

const runtimeAuth = (token: string) => ({ token, protocolVersion: PROTOCOL_VERSION, runtimeId: 'drill' });
const remoteAuth = (credential: string) => ({ credential, protocolVersion: REMOTE_PROTOCOL_VERSION });

async function alive(host: HostProcess): Promise<boolean> {
  if (host.child.exitCode !== null || host.child.signalCode !== null) return false;
  try {
    return (await fetch(`${host.url}/healthz`)).ok;
  } catch {
    return false;
  }
}

const RUNTIME_EVENTS = ['announce', 'announce:batch', 'withdraw', 'resolution:ack'];
const REMOTE_EVENTS = [
  'respond',
  'preferences:update',
  'snapshot:get',
  'pending:more',
  'devices:list',
  'devices:revoke',
  'device:rename',
  'machines:list',
  'machines:revoke',
  'push:subscribe',
  'push:ntfy',
  'presence',
];

/** Every shape in every message of both namespaces, from each kind of credential. */
export async function drillHostileShapes(): Promise<DrillOutcome> {
  const host = await startHost();
  const problems: string[] = [];
  let sent = 0;
  try {
    const machine = await joinBenchMachine(host, 'drill-machine');
    const device = await pairBenchDevice(host, 'drill-phone');
    const senders: [string, Socket, string[]][] = [
      ['agent token', await connect(host.url, RUNTIME_NAMESPACE, runtimeAuth(host.token)), RUNTIME_EVENTS],
      ['joined machine', await connect(host.url, RUNTIME_NAMESPACE, runtimeAuth(machine)), RUNTIME_EVENTS],
      ['device', await connect(host.url, REMOTE_NAMESPACE, remoteAuth(device.credential)), REMOTE_EVENTS],
    ];
    for (const [who, socket, events] of senders) {
      for (const event of events) {
        for (const shape of HOSTILE_SHAPES) {
          for (const payload of [
            shape.value(),
            { requestId: 'r', input: { blob: shape.value() }, kind: 'permission' },
          ]) {
            sent += 1;
            try {
              const ack = (await socket.timeout(10_000).emitWithAck(event, payload)) as { error?: { code?: string } };
              if (ack.error?.code === 'internal') problems.push(`${who} ${event} (${shape.name}): internal`);
            } catch {
              problems.push(`${who} ${event} (${shape.name}): no reply`);
              if (!(await alive(host)))
                throw new Error(
                  `the host stopped (exit ${host.child.exitCode ?? host.child.signalCode}) on message ${sent}: ${who} '${event}' with ${shape.name}`,
                );
            }
          }
        }
        // With junk where the ack goes, and an event nobody handles.
        socket.emit(event, rawJson(deepObjectJson(30_000)), 'not a function');
        socket.emit('no-such-event', rawJson(deepObjectJson(30_000)));
        sent += 2;
      }
      socket.disconnect();
    }
    for (const path of ['/hooks/claude-code', '/mcp', '/api/pair', '/api/join']) {
      sent += 1;
      const response = await fetch(`${host.url}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${machine}`, 'Content-Type': 'application/json' },
        body: deepObjectJson(30_000),
      });
      if (response.status >= 500) problems.push(`POST ${path} with a deep body: ${response.status}`);
    }
    if (!(await alive(host))) problems.push(`the host stopped (exit ${host.child.exitCode ?? host.child.signalCode})`);
    else {
      const agent = await connect(host.url, RUNTIME_NAMESPACE, runtimeAuth(host.token));
      const request = interactionRequest('after-shapes', 'session-after');
      const announced = (await agent.timeout(5_000).emitWithAck('announce', request)) as { ok?: boolean };
      agent.disconnect();
      if (!announced.ok) problems.push('after the shapes the host did not take a normal question');
    }
  } catch (error) {
    problems.push(errorMessage(error));
  } finally {
    await host.stop();
  }
  return {
    name: 'hostile shapes in every message, from every credential (R12.5)',
    ok: problems.length === 0,
    detail:
      `${sent} messages and bodies (${HOSTILE_SHAPES.map((shape) => shape.name).join('; ')})` +
      (problems.length === 0 ? '; the host stayed up and served a question after them' : '') +
      (problems.length > 0 ? `; PROBLEMS: ${[...new Set(problems)].slice(0, 5).join(' | ')}` : ''),
  };
}

function logBytes(dataDir: string): number {
  return ['askaway.db', 'askaway.db-wal']
    .map((name) => path.join(dataDir, name))
    .filter((file) => fs.existsSync(file))
    .reduce((sum, file) => sum + fs.statSync(file).size, 0);
}

/** One joined machine announcing as fast as it can. */
export async function drillFlood(): Promise<DrillOutcome> {
  // The host as a person runs it: the benchmarks' --max-pending is overridden back to the default.
  const host = await startHost({ extraArgs: ['--max-pending', '500'] });
  const problems: string[] = [];
  const codes = new Map<string, number>();
  let figures = '';
  try {
    const machine = await joinBenchMachine(host, 'flooder');
    const before = await host.usage();
    const logBefore = logBytes(host.dataDir);
    const flooder = await connect(host.url, RUNTIME_NAMESPACE, runtimeAuth(machine));
    const until = Date.now() + FLOOD_MS;
    let next = 0;
    const worker = async () => {
      while (Date.now() < until) {
        const ack = (await flooder
          .timeout(10_000)
          .emitWithAck('announce', interactionRequest(`flood-${next++}`, 'session-flood'))
          .catch(() => ({ ok: false, error: { code: 'no reply' } }))) as { ok: boolean; error?: { code: string } };
        const key = ack.ok ? 'accepted' : (ack.error?.code ?? 'unknown');
        codes.set(key, (codes.get(key) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    flooder.disconnect();
    const after = await host.usage();
    const device = await pairBenchDevice(host, 'flood-phone');
    const phone = await connect(host.url, REMOTE_NAMESPACE, remoteAuth(device.credential));
    const snapshot = await new Promise<unknown>((resolve) => phone.once('snapshot', resolve));
    phone.disconnect();
    const snapshotBytes = JSON.stringify(snapshot).length;
    const accepted = codes.get('accepted') ?? 0;
    if (accepted > 500) problems.push(`the host took ${accepted} questions from one machine (cap 500)`);
    if (!(await alive(host))) problems.push('the host stopped');
    figures =
      `${next.toLocaleString('en-US')} announces in ${FLOOD_MS / 1000} s: ` +
      `${[...codes].map(([code, count]) => `${count.toLocaleString('en-US')} ${code}`).join(', ')}; ` +
      `log +${mib(logBytes(host.dataDir) - logBefore)} MiB, RSS ${mib(before.rssBytes)} → ${mib(after.rssBytes)} MiB, ` +
      `a phone's snapshot next ${mib(snapshotBytes)} MiB`;
  } catch (error) {
    problems.push(errorMessage(error));
  } finally {
    await host.stop();
  }
  return {
    name: `flood: one joined machine announcing for ${FLOOD_MS / 1000} s (R12.7)`,
    ok: problems.length === 0,
    detail: `${figures}${problems.length > 0 ? `; PROBLEMS: ${problems.join(' | ')}` : ''}`,
  };
}

/** The data dir on a real filesystem that runs out of space. */
export async function drillFullDisk(): Promise<DrillOutcome> {
  const name = 'full disk: the data dir on a 4 MiB tmpfs filled to the last byte (R12.6)';
  const disk = mountTinyTmpfs(4 * 1024 * 1024);
  if (!disk) return { name, ok: true, detail: 'skipped: this user may not mount a tmpfs (run as root)' };
  const problems: string[] = [];
  const host = await startHost({ dataDir: path.join(disk.dir, 'data') });
  try {
    const machine = await joinBenchMachine(host, 'laptop');
    const device = await pairBenchDevice(host, 'phone');
    const waiting = interactionRequest('waiting', 'session-disk');
    const agent = await connect(host.url, RUNTIME_NAMESPACE, runtimeAuth(machine));
    await agent.emitWithAck('announce', waiting);
    disk.fill();
    for (let round = 0; round < 5; round += 1) {
      (await connect(host.url, REMOTE_NAMESPACE, remoteAuth(device.credential))).disconnect();
      (await connect(host.url, RUNTIME_NAMESPACE, runtimeAuth(machine))).disconnect();
    }
    const refused = (await agent.emitWithAck('announce', interactionRequest('while-full', 'session-disk'))) as {
      error?: { code?: string };
    };
    if (refused.error?.code !== 'storage-unavailable')
      problems.push(`announce on a full disk: ${JSON.stringify(refused)}`);
    const phone = await connect(host.url, REMOTE_NAMESPACE, remoteAuth(device.credential));
    const machineId = (await (
      await fetch(`${host.url}/api/agent/whoami`, { headers: { Authorization: `Bearer ${machine}` } })
    ).json()) as {
      machine: { id: string };
    };
    const requestId = `${machineId.machine.id}:${waiting.requestId}`;
    const answer = (await phone.emitWithAck('respond', { requestId, clientResponseId: 'full', response: ANSWER })) as {
      error?: { code?: string };
    };
    if (answer.error?.code !== 'storage-unavailable')
      problems.push(`an answer on a full disk: ${JSON.stringify(answer)}`);
    if (!(await alive(host))) problems.push('the host stopped on a full disk');
    disk.free();
    const after = (await phone.emitWithAck('respond', { requestId, clientResponseId: 'freed', response: ANSWER })) as {
      status?: string;
    };
    if (after.status !== 'accepted') problems.push(`once freed, the answer was not taken: ${JSON.stringify(after)}`);
    phone.disconnect();
    agent.disconnect();
    const said = host.output().match(/cannot write/g)?.length ?? 0;
    if (said !== 1) problems.push(`the log said "cannot write" ${said} times, not once`);
  } catch (error) {
    problems.push(errorMessage(error));
  } finally {
    await host.stop();
    disk.unmount();
  }
  return {
    name,
    ok: problems.length === 0,
    detail:
      '10 connects and disconnects, an announce and an answer on the full disk: refused with storage-unavailable, ' +
      'the host up, one log line; the answer taken once space returned' +
      (problems.length > 0 ? `; PROBLEMS: ${problems.join(' | ')}` : ''),
  };
}

export async function drillHostile(): Promise<DrillOutcome[]> {
  return [
    await drillHostileShapes(),
    await drillFlood(),
    await drillFloodDaemon(),
    await drillFullDisk(),
    await drillSpecialFiles(),
    await drillNtfy(),
    await drillHostilePatterns(),
    await drillRespondApi(),
    await drillCodexFrames(),
    await drillCopilotPort(),
    await drillAcp(),
    await drillOpenCode(),
    await drillPush(),
  ];
}

if (isMain(import.meta.url))
  await runAlone('drills/hostile', async () => ({ figures: [], drills: await drillHostile() }));
