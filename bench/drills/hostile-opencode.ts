// Fault drill (R12.18, R12.19): what a plugin (or whatever writes to `askaway opencode bridge`'s stdin) can send,
// to a real bridge process carrying prompts to a real `askaway start`. The drill plays OpenCode's plugin: it
// answers the bridge's calls as OpenCode's client does, and sends, in rounds,
//   1. lines without end: 6 of 64 MiB (past the 16 MiB line bound);
//   2. 200 messages nested a million deep;
//   3. 20,000 directory instances whose calls nobody answers;
//   4. 300 permission prompts carrying 4 MiB each that no card shows (100 go to the phone, the rest stay).
// After them a plain question must still reach the phone and its answer OpenCode. Reports the host's RSS before
// and after (within 300 MiB of the start) and the bridge's, its peak, the worst /healthz latency (under 1 s), the
// bridge's log lines about it, and whether host and bridge are alive at the end.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { BRIDGE_PROMPTS_MAX, errorMessage, type EventBatch } from '../../lib/contracts';
import { PLUGIN_CALL_TIMEOUT_MS } from '../../lib/runtime/agents/opencode/bridge';
import { BRIDGE_PROTOCOL, type BridgeRequest } from '../../lib/runtime/agents/opencode/bridge-protocol';
import { drillOutcome, mib, probeHealthz, until, type HealthzProbe } from '../support/drill-watch';
import { type DrillOutcome } from '../support/figures';
import { hostCommand, procPeakBytes, procUsage, startHost } from '../support/host-process';
import { isMain, runAlone } from '../support/main-guard';
import { connectRemote, pairBenchDevice } from '../support/remote-client';

const RSS_GROWTH_MAX = 300 * 2 ** 20;
const HEALTHZ_MAX_MS = 1_000;
const SESSION = 'ses_drill0000000000000000001';

/** The plugin's side of the bridge: OpenCode's answers to its calls, for the directory instances it answers for. */
function startPlugin(host: { url: string; token: string }) {
  const child = spawn(process.execPath, [...hostCommand(), 'opencode', 'bridge'], {
    env: { ...process.env, ASKAWAY_URL: host.url, ASKAWAY_TOKEN: host.token, NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.on('error', () => undefined);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const questions: unknown[] = [];
  const permissions: unknown[] = [];
  const posts: string[] = [];
  let requests = 0;
  /** Instances whose calls OpenCode answers; the flood's go unanswered. */
  const answered = new Set<number>([1]);
  const write = async (text: string | Buffer) => {
    if (!child.stdin.write(text)) await new Promise((resolve) => child.stdin.once('drain', resolve));
  };
  createInterface({ input: child.stdout }).on('line', (line) => {
    requests += 1;
    const request = JSON.parse(line) as BridgeRequest;
    if (!answered.has(request.instance)) return;
    const reply = (status: number, data: unknown) =>
      void write(`${JSON.stringify({ type: 'response', id: request.id, status, data })}\n`);
    if (request.method === 'POST') {
      posts.push(request.url);
      return reply(200, true);
    }
    if (request.url === '/global/health') return reply(200, { healthy: true, version: '1.18.33' });
    if (request.url === '/question') return reply(200, questions);
    if (request.url === '/permission') return reply(200, permissions);
    if (request.url === '/session/status') return reply(200, { [SESSION]: { type: 'busy' } });
    return reply(200, { id: SESSION, title: 'Drill', agent: 'build' });
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return {
    child,
    pid: child.pid ?? 0,
    stderr: () => stderr,
    posts,
    requests: () => requests,
    write,
    /** OpenCode's event; its list keeps `listed` (what it lists again), by default the event's properties. */
    event(type: string, properties: Record<string, unknown>, listed?: unknown) {
      if (type === 'question.asked') questions.push(listed ?? properties);
      if (type === 'permission.asked') permissions.push(listed ?? properties);
      return write(`${JSON.stringify({ type: 'event', instance: 1, event: { type, properties } })}\n`);
    },
    hello: (instance: number) =>
      `${JSON.stringify({ type: 'hello', protocol: BRIDGE_PROTOCOL, instance, directory: `/home/dev/project-${instance}` })}\n`,
    exited,
  };
}

export async function drillOpenCode(): Promise<DrillOutcome> {
  const name =
    'what an OpenCode plugin sends its bridge: endless lines, deep messages, directory floods, fat prompts (R12.18, R12.19)';
  const problems: string[] = [];
  const host = await startHost();
  let plugin: ReturnType<typeof startPlugin> | undefined;
  let probe: HealthzProbe | undefined;
  let detail = '';
  try {
    const device = await pairBenchDevice(host, 'Drill phone');
    const { socket } = await connectRemote(host.url, device.credential);
    const cards = new Set<string>();
    socket.on('events', (batch: EventBatch) => {
      for (const event of batch.events)
        if (event.type === 'interaction.requested') cards.add(event.interaction.requestId);
    });
    plugin = startPlugin(host);
    const bridge = plugin;
    await bridge.write(bridge.hello(1));
    await until('the bridge listed what waits', () => bridge.stderr().includes('OpenCode lists'));
    const hostBefore = procUsage(host.pid);
    const bridgeBefore = procUsage(bridge.pid);
    probe = probeHealthz(host.url);

    // 1. Lines without end.
    const chunk = Buffer.alloc(2 ** 20, 'x');
    for (let line = 0; line < 6; line += 1) {
      for (let index = 0; index < 64; index += 1) await bridge.write(chunk);
      await bridge.write('\n');
    }
    // 2. Messages nested a million deep.
    const deep = `{"type":"event","instance":1,"event":{"type":"question.asked","properties":${'['.repeat(1e6)}${']'.repeat(1e6)}}}\n`;
    for (let index = 0; index < 200; index += 1) await bridge.write(deep);
    // 3. Directory instances whose calls nobody answers.
    let flood = '';
    for (let instance = 2; instance <= 20_001; instance += 1) flood += bridge.hello(instance);
    await bridge.write(flood);
    // The flood pushed the drill's own directory out (the oldest goes first): once the flood's calls have timed
    // out, OpenCode says hello for it again, as after a bridge restart.
    await until('the bridge read the flood', () => bridge.stderr().includes('the oldest are forgotten'));
    await new Promise((resolve) => setTimeout(resolve, PLUGIN_CALL_TIMEOUT_MS + 1_000));
    await bridge.write(bridge.hello(1));
    await until('the bridge listed again', () => bridge.stderr().split('OpenCode lists').length > 2);
    // 4. Prompts carrying what no card shows.
    const fat = 'x'.repeat(4 * 2 ** 20);
    for (let index = 0; index < 3 * BRIDGE_PROMPTS_MAX; index += 1) {
      const request = { id: `per_fat${index}`, sessionID: SESSION, permission: 'bash', patterns: [`echo ${index}`] };
      await bridge.event(
        'permission.asked',
        { ...request, metadata: { command: `echo ${index}`, output: fat }, always: [] },
        { ...request, metadata: { command: `echo ${index}` }, always: [] },
      );
    }
    await until('the fat prompts reached the phone', () => cards.size >= BRIDGE_PROMPTS_MAX, 120_000);
    const bridgePeak = procPeakBytes(bridge.pid);

    // Answered in OpenCode's terminal, the fat prompts leave the phone; then a plain question still goes both ways.
    for (const requestId of cards) {
      const requestID = requestId.replace(/^opencode-/, '');
      await bridge.write(
        `${JSON.stringify({ type: 'event', instance: 1, event: { type: 'permission.replied', properties: { sessionID: SESSION, requestID, reply: 'once' } } })}\n`,
      );
    }
    await until(
      'the fat prompts left the phone',
      () => bridge.stderr().split('withdrawn from the phone').length > cards.size,
    );
    const afterCount = bridge.posts.length;
    await bridge.event('question.asked', {
      id: 'que_after',
      sessionID: SESSION,
      questions: [{ question: 'Still there?', header: 'Check', options: [{ label: 'Yes' }, { label: 'No' }] }],
    });
    await until('the plain question reached the phone', () => cards.has('opencode-que_after'), 60_000);
    socket.emit(
      'respond',
      {
        requestId: 'opencode-que_after',
        clientResponseId: 'drill-after',
        response: { action: 'accept', content: { answers: { 'Still there?': 'Yes' } } },
      },
      () => undefined,
    );
    await until('its answer reached OpenCode', () =>
      bridge.posts.slice(afterCount).some((url) => url.includes('que_after')),
    );
    socket.disconnect();

    const hostAfter = procUsage(host.pid);
    const bridgeAfter = procUsage(bridge.pid);
    const worstHealthz = await probe.stop();
    probe = undefined;
    const log = bridge.stderr().split('\n');
    const said = (text: string) => log.filter((line) => line.includes(text)).length;
    const lineSaid = {
      long: said('bytes), dropped'),
      deep: said('nests deeper'),
      calls: said('further ones fail at once'),
      directories: said('the oldest are forgotten'),
      prompts: said('further ones stay in OpenCode'),
    };
    const hostAlive = (await fetch(`${host.url}/healthz`).catch(() => undefined))?.ok === true;
    const bridgeAlive = bridge.child.exitCode === null && bridge.child.signalCode === null;
    if (hostAfter.rssBytes - hostBefore.rssBytes > RSS_GROWTH_MAX)
      problems.push(`the host's RSS grew ${mib(hostAfter.rssBytes - hostBefore.rssBytes)} MiB`);
    if (bridgePeak - bridgeBefore.rssBytes > RSS_GROWTH_MAX)
      problems.push(`the bridge's peak RSS grew ${mib(bridgePeak - bridgeBefore.rssBytes)} MiB`);
    if (worstHealthz >= HEALTHZ_MAX_MS) problems.push(`/healthz took ${Math.round(worstHealthz)} ms`);
    if (!hostAlive) problems.push('the host is down');
    if (!bridgeAlive) problems.push('the bridge exited');
    for (const [what, count] of Object.entries(lineSaid))
      if (count !== 1) problems.push(`${count} log lines about ${what}`);
    detail =
      `host RSS ${mib(hostBefore.rssBytes)} → ${mib(hostAfter.rssBytes)} MiB; bridge RSS ${mib(bridgeBefore.rssBytes)} → ` +
      `${mib(bridgeAfter.rssBytes)} MiB (peak ${mib(bridgePeak)}), CPU ${((bridgeAfter.cpuMicros - bridgeBefore.cpuMicros) / 1e6).toFixed(1)} s; ` +
      `${bridge.requests()} calls made to the plugin; ${cards.size} cards on the phone; log lines: ${JSON.stringify(lineSaid)}; ` +
      `/healthz max ${Math.round(worstHealthz)} ms; host ${hostAlive ? 'up' : 'DOWN'}, bridge ${bridgeAlive ? 'up' : 'EXITED'}`;
  } catch (error) {
    problems.push(errorMessage(error));
    if (plugin) detail = `bridge log: ${plugin.stderr().slice(-1_000)}`;
  } finally {
    await probe?.stop().catch(() => undefined);
    plugin?.child.kill('SIGKILL');
    if (plugin) await plugin.exited;
    await host.stop();
  }
  return drillOutcome(name, detail, problems);
}

if (isMain(import.meta.url))
  await runAlone('drills/hostile-opencode', async () => ({ figures: [], drills: [await drillOpenCode()] }));
