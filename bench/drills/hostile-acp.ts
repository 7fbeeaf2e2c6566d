// Fault drill (R12.18, R12.19, R12.21): a hostile agent and editor around a real `askaway acp`. A fake ACP agent
// (lib/runtime/agents/acp/test-support/fake-acp-agent.mjs) behind the proxy and the drill as the editor, with a
// real `askaway start` and a phone that answers every card. In turn: messages 5,000 deep both ways; the same
// JSON-RPC id asked again after each answer; a 600 MB line from the agent; 200 MB from the agent while the editor
// does not read, then reads. Reports the proxy's and the host's RSS, the worst /healthz latency (under 1 s), and
// whether both are alive at the end, the proxy still carrying a prompt to the phone.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type EventBatch } from '../../lib/contracts';
import { errorMessage } from '../../lib/contracts';
import { drillOutcome, mib, probeHealthz, quietHealthz, until as untilEvery50ms } from '../support/drill-watch';
import { type DrillOutcome } from '../support/figures';
import { procUsage, startHost, tempDir } from '../support/host-process';
import { isMain, runAlone } from '../support/main-guard';
import { answerEverything, connectRemote, pairBenchDevice } from '../support/remote-client';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const FAKE_AGENT = path.join(ROOT, 'lib', 'runtime', 'agents', 'acp', 'test-support', 'fake-acp-agent.mjs');
const MiB = 1024 * 1024;
const LONG_LINE_BYTES = Number(process.env.DRILL_ACP_LINE_MB ?? 600) * MiB;
const UNREAD_BYTES = Number(process.env.DRILL_ACP_UNREAD_MB ?? 200) * MiB;
const REUSES = 20;
const RSS_GROWTH_MAX = 300 * MiB;
/** Past this the proxy is killed and the drill stops: a proxy that holds what it relays would take the machine. */
const RSS_STOP_BYTES = 1024 * MiB;
const HEALTHZ_MAX_MS = 1_000;
/** Polls every 20 ms, for two minutes unless told. */
const until = (what: string, check: () => boolean, timeoutMs = 120_000) => untilEvery50ms(what, check, timeoutMs, 20);

/** `askaway acp` as the host runs: dist/cli.js when built, else the sources through tsx. */
function proxyCommand(): string[] {
  const dist = path.join(ROOT, 'dist', 'cli.js');
  const mode = process.env.BENCH_HOST ?? (fs.existsSync(dist) ? 'dist' : 'source');
  return mode === 'dist' ? [dist] : ['--import', 'tsx', path.join(ROOT, 'bin', 'cli.ts')];
}

const permission = (id: number | string, toolCallId: string, rawInput = '{"command":"make"}') =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"session/request_permission","params":{"sessionId":"sess-1",` +
  `"toolCall":{"toolCallId":"${toolCallId}","title":"run ${toolCallId}","kind":"other","rawInput":${rawInput}},` +
  `"options":[{"optionId":"once","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]}}\n`;
const deepArguments = (depth: number) => `${'{"path":'.repeat(depth)}"x"${'}'.repeat(depth)}`;
const deepSchema = (depth: number) =>
  `${'{"type":"object","properties":{"a":'.repeat(depth)}{"type":"string"}${'}}'.repeat(depth)}`;

export async function drillAcp(): Promise<DrillOutcome> {
  const name =
    `hostile ACP agent and editor: 5,000 deep both ways, ${REUSES} reused ids, a ${mib(LONG_LINE_BYTES)} MB line, ` +
    `${mib(UNREAD_BYTES)} MB unread (R12.18, R12.19, R12.21)`;
  const problems: string[] = [];
  const host = await startHost();
  const dir = tempDir('askaway-drill-acp-');
  const record = path.join(dir, 'agent-read.bin');
  fs.writeFileSync(record, '');
  let proxy: ChildProcessWithoutNullStreams | undefined;
  let detail = '';
  /** What is known so far, for a drill that stops early. */
  let soFar = () => '';
  try {
    const device = await pairBenchDevice(host, 'Drill phone');
    const { socket } = await connectRemote(host.url, device.credential);
    const cards: string[] = [];
    socket.on('events', (batch: EventBatch) => {
      for (const event of batch.events)
        if (event.type === 'interaction.requested') cards.push(event.interaction.toolUseId ?? '');
    });
    answerEverything(socket, { action: 'accept', content: { choice: 'once' } });

    const child = spawn(process.execPath, [...proxyCommand(), 'acp', '--', process.execPath, FAKE_AGENT], {
      env: {
        ...process.env,
        ASKAWAY_URL: host.url,
        ASKAWAY_TOKEN: host.token,
        ASKAWAY_DATA_DIR: dir,
        FAKE_ACP_RECORD: record,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    proxy = child;
    let proxyExit: string | undefined;
    child.once('exit', (code, signal) => (proxyExit = String(code ?? signal)));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    // The editor keeps what it reads only while it needs to look (the handshake, the small phases).
    let kept: Buffer[] = [];
    let keep = true;
    let received = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (keep) kept.push(chunk);
    });
    child.stdin.on('error', () => undefined);
    const editorGot = (text: string) => Buffer.concat(kept).includes(Buffer.from(text));
    const agentGot = (text: string) => fs.readFileSync(record).includes(Buffer.from(text));
    const agentWrites = (text: string) =>
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', method: '_fake/write', params: { base64: Buffer.from(text).toString('base64') } })}\n`,
      );
    const alive = () => proxyExit === undefined;
    const stillAlive = (check: () => boolean) => () => {
      if (!alive()) throw new Error(`the proxy exited (${proxyExit}): ${stderr.trim().split('\n').at(-1) ?? ''}`);
      return check();
    };
    child.stdin.write(
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"elicitation":{"form":{}}}}}\n' +
        '{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/home/dev/shop","mcpServers":[]}}\n',
    );
    await until(
      'the session is open',
      stillAlive(() => editorGot('"sessionId":"sess-1"')),
    );

    const hostBefore = procUsage(host.pid);
    const proxyBefore = procUsage(child.pid ?? -1);
    let proxyPeak = proxyBefore.rssBytes;
    let hostPeak = hostBefore.rssBytes;
    const sample = () => {
      if (alive()) proxyPeak = Math.max(proxyPeak, procUsage(child.pid ?? -1).rssBytes);
      hostPeak = Math.max(hostPeak, procUsage(host.pid).rssBytes);
      if (proxyPeak > RSS_STOP_BYTES) {
        child.kill('SIGKILL');
        throw new Error(`the proxy's RSS passed ${mib(RSS_STOP_BYTES)} MiB: stopped early`);
      }
    };
    // The same probe with nothing going on first.
    const quiet = await quietHealthz(host.url);
    const probe = probeHealthz(host.url);
    const sampled = (check: () => boolean) =>
      stillAlive(() => {
        sample();
        return check();
      });
    const started = performance.now();
    soFar = () =>
      `proxy RSS ${mib(proxyBefore.rssBytes)} MiB, peak ${mib(proxyPeak)}; host RSS ${mib(hostBefore.rssBytes)} MiB, ` +
      `peak ${mib(hostPeak)}; proxy ${alive() ? 'up' : `exited (${proxyExit}): ${stderr.trim().split('\n').at(-1) ?? ''}`}`;

    /** One phase; its failure is a problem and the next phase runs, unless the proxy is gone. */
    const phase = async (run: () => Promise<void>) => {
      try {
        await run();
      } catch (error) {
        problems.push(errorMessage(error));
        if (!alive()) throw new Error('the proxy is gone: the drill stops');
      }
    };

    // 1. Messages 5,000 deep: a permission's tool arguments and a form's schema from the agent, a reply and a
    // request from the editor. Relayed exactly, none on the phone.
    await phase(async () => {
      const deepFromAgent =
        permission('deep', 'call-deep', deepArguments(5_000)) +
        `{"jsonrpc":"2.0","id":"deep-form","method":"elicitation/create","params":{"mode":"form","sessionId":"sess-1",` +
        `"message":"Deep?","requestedSchema":${deepSchema(5_000)}}}\n`;
      const deepFromEditor =
        `{"jsonrpc":"2.0","id":"deep","result":{"outcome":${deepArguments(5_000)}}}\n` +
        `{"jsonrpc":"2.0","id":9,"method":"session/prompt","params":${deepArguments(5_000)}}\n`;
      agentWrites(deepFromAgent);
      child.stdin.write(deepFromEditor);
      await until(
        'the deep messages crossed',
        sampled(() => editorGot(deepFromAgent) && agentGot(deepFromEditor)),
      );
      if (cards.includes('call-deep')) problems.push('the deep permission reached the phone');
    });

    // 2. The agent asks with id 7 again after each answer: a new card each time, each answered once.
    await phase(async () => {
      const answers = () => fs.readFileSync(record).toString('utf8').split('"id":7,"result"').length - 1;
      for (let round = 1; round <= REUSES; round += 1) {
        agentWrites(permission(7, `call-reuse-${round}`));
        await until(
          `card ${round} for id 7`,
          sampled(() => cards.includes(`call-reuse-${round}`)),
          10_000,
        );
        await until(
          `answer ${round} for id 7`,
          sampled(() => answers() >= round),
          10_000,
        );
      }
    });
    const reusedCards = cards.filter((card) => card.startsWith('call-reuse-')).length;
    kept = [];
    keep = false;

    // 3. 200 MB from the agent while the editor does not read, until the proxy stops reading (paused) or the
    // agent is done; then the editor reads it all.
    let pausedAgent = false;
    let unreadPeak = 0;
    await phase(async () => {
      child.stdout.pause();
      const beforeFlood = received;
      child.stdin.write(
        `{"jsonrpc":"2.0","method":"_fake/flood","params":{"total":${UNREAD_BYTES},"line":${64 * 1024}}}\n`,
      );
      let lastWrote = -1;
      let still = 0;
      // The agent (the proxy's child) writes nothing more while the proxy has paused reading it.
      const agentWrote = () => {
        const children = fs.readFileSync(`/proc/${child.pid ?? -1}/task/${child.pid ?? -1}/children`, 'utf8');
        // The proxy's children: the agent, and (from the sources) tsx's esbuild.
        const agentPid = children
          .trim()
          .split(' ')
          .find((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('fake-acp-agent'));
        return Number(/wchar:\s+(\d+)/.exec(fs.readFileSync(`/proc/${agentPid ?? ''}/io`, 'utf8'))?.[1]);
      };
      try {
        await until(
          'the agent finished or the proxy paused it',
          sampled(() => {
            const wrote = agentWrote();
            still = wrote === lastWrote ? still + 1 : 0;
            lastWrote = wrote;
            return stderr.includes('fake-acp flood done') || still >= 100;
          }),
          300_000,
        );
      } finally {
        child.stdout.resume();
      }
      pausedAgent = !stderr.includes('fake-acp flood done');
      unreadPeak = proxyPeak;
      if (!pausedAgent) problems.push('the agent wrote all of it while the editor did not read');
      await until(
        'the editor read the flood',
        sampled(() => received - beforeFlood >= UNREAD_BYTES),
        300_000,
      );
    });

    // 4. One line of 600 MB from the agent, read as it comes.
    let linePeak = 0;
    await phase(async () => {
      const beforeLine = received;
      child.stdin.write(`{"jsonrpc":"2.0","method":"_fake/longline","params":{"total":${LONG_LINE_BYTES}}}\n`);
      await until(
        'the long line crossed',
        sampled(() => received - beforeLine >= LONG_LINE_BYTES),
        300_000,
      );
      linePeak = proxyPeak;
    });

    // The proxy still carries a prompt to the phone, and the phone's answer to the agent.
    agentWrites(permission('last', 'call-last'));
    await phase(async () => {
      await until(
        'the last card',
        sampled(() => cards.includes('call-last')),
        10_000,
      );
      await until(
        'the last answer',
        sampled(() => agentGot('"id":"last","result"')),
        10_000,
      );
    });
    const seconds = (performance.now() - started) / 1000;
    const worstHealthz = await probe.stop();
    const hostAfter = procUsage(host.pid);
    const proxyAfter = procUsage(child.pid ?? -1);
    socket.disconnect();
    if (!alive()) problems.push(`the proxy exited (${proxyExit})`);
    if (host.child.exitCode !== null) problems.push(`the host exited (${host.child.exitCode})`);
    if (worstHealthz >= HEALTHZ_MAX_MS) problems.push(`/healthz took ${Math.round(worstHealthz)} ms`);
    if (proxyPeak - proxyBefore.rssBytes > RSS_GROWTH_MAX)
      problems.push(`the proxy grew ${mib(proxyPeak - proxyBefore.rssBytes)} MiB`);
    if (hostPeak - hostBefore.rssBytes > RSS_GROWTH_MAX)
      problems.push(`the host grew ${mib(hostPeak - hostBefore.rssBytes)} MiB`);
    if (stderr.includes('kept serving after')) problems.push('an error went unseen to the last resort');
    const logLines = stderr.split('\n').filter((line) => line.startsWith('askaway:') && !line.includes('on the phone'));
    detail =
      `proxy RSS ${mib(proxyBefore.rssBytes)} → ${mib(proxyAfter.rssBytes)} MiB (peak ${mib(proxyPeak)}; ` +
      `${mib(unreadPeak)} while ${mib(UNREAD_BYTES)} MB went unread, ${mib(linePeak)} after the ` +
      `${mib(LONG_LINE_BYTES)} MB line, the agent ${pausedAgent ? 'paused' : 'not paused'}), ` +
      `CPU ${((proxyAfter.cpuMicros - proxyBefore.cpuMicros) / 1e6).toFixed(1)} s; host RSS ${mib(hostBefore.rssBytes)} → ` +
      `${mib(hostAfter.rssBytes)} MiB (peak ${mib(hostPeak)}); ${reusedCards}/${REUSES} cards for a reused id; ` +
      `/healthz max ${Math.round(worstHealthz)} ms over ${seconds.toFixed(1)} s (${Math.round(quiet)} ms in 3 s ` +
      `before, load ${os.loadavg()[0]?.toFixed(1)}); ${logLines.length} proxy log lines ` +
      `besides answers; proxy ${alive() ? 'up' : 'down'}, host ${host.child.exitCode === null ? 'up' : 'down'}`;
  } catch (error) {
    problems.push(errorMessage(error));
    detail = soFar();
  } finally {
    proxy?.kill('SIGKILL');
    await host.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return drillOutcome(name, detail, problems);
}

if (isMain(import.meta.url))
  await runAlone('drills/hostile-acp', async () => ({ figures: [], drills: [await drillAcp()] }));
