// Catastrophic patterns drill (R12.12), against a real host process: every schema family of
// lib/host/test-support/hostile-patterns (a regular expression that backtracks for ever, under allOf, not, if,
// patternProperties, propertyNames, $ref, items, titled options) sent as an MCP form through Claude Code's HTTP
// hook (from a joined machine and with the agent token), through Codex's `mcpServer/elicitation/request` (a fake
// Codex daemon the host's own bridge joins) and as a tool call's input on /mcp; where the phone shows a form, it
// is answered with the value that sets the pattern off. Then a form of email, uri, date and date-time fields
// answered with 10,000-character values. /healthz is polled throughout and must answer within 1 s; a host that
// leaves it unanswered for 10 s is frozen: the drill says after which input, and starts a fresh host.
import { errorMessage, type FormValues, type InteractionRecord } from '../../lib/contracts';
import { readAdminToken } from '../../lib/host/test-support/devices';
import {
  codexElicitationParams,
  elicitationPayload,
  HOSTILE_PATTERN_FORMS,
  type HostilePatternForm,
} from '../../lib/host/test-support/hostile-patterns';
import { mintJoinCode, redeemJoinCode } from '../../lib/host/test-support/machines';
import { startFakeCodexDaemon, type FakeCodexDaemon } from '../../lib/runtime/test-support/fake-codex-daemon';
import { connectScriptedRemote, type ScriptedRemote } from '../../lib/runtime/test-support/scripted-remote';
import { type DrillOutcome } from '../support/figures';
import { BENCH_TOKEN, hostCommand, spawnServer, tempDir, type ServerProcess } from '../support/host-process';
import { isMain, runAlone } from '../support/main-guard';
import { pairBenchDevice } from '../support/remote-client';

const THREAD = '01a23100-0000-7000-8000-00000000beef';
const HEALTHZ_BUDGET_MS = 1_000;
/** How long an unanswered /healthz is measured before the host counts as frozen. */
const FROZEN_MS = 10_000;
/** How long one input may take to come back (a card, the hook's reply, the bridge's log line). */
const STEP_MS = 5_000;

interface Rig {
  server: ServerProcess;
  phone: ScriptedRemote;
  machine: string;
  codexLines: () => number;
}

async function startRig(daemon: FakeCodexDaemon): Promise<Rig> {
  const dataDir = tempDir('askaway-patterns-');
  const server = await spawnServer(
    [...hostCommand(), 'start', '--port', '0', '--no-demo', '--codex-home', daemon.codexHome, '--data-dir', dataDir],
    { ASKAWAY_TOKEN: BENCH_TOKEN, NO_COLOR: '1' },
  );
  const phone = await connectScriptedRemote(
    server.url,
    (await pairBenchDevice({ ...server, dataDir }, 'drill')).credential,
  );
  const { code } = await mintJoinCode(server.url, readAdminToken(dataDir));
  const machine = (await redeemJoinCode(server.url, code, 'drill-box')).credential;
  const codexLines = () => server.output().split("left to Codex's terminal").length - 1;
  await until(() => daemon.received.some((message) => message.method === 'thread/resume'), 15_000);
  return { server, phone, machine, codexLines };
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** Milliseconds until /healthz answers, or FROZEN_MS when it does not within that. */
async function healthzMs(url: string): Promise<number> {
  const start = performance.now();
  try {
    await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(FROZEN_MS) });
    return Math.round(performance.now() - start);
  } catch {
    return FROZEN_MS;
  }
}

/** Polls /healthz one after another while the drill runs; the slowest answer and how many missed the budget. */
function watchHealthz(url: () => string) {
  let running = true;
  let polls = 0;
  let slowest = 0;
  let late = 0;
  const loop = (async () => {
    while (running) {
      const ms = await healthzMs(url());
      polls += 1;
      slowest = Math.max(slowest, ms);
      if (ms > HEALTHZ_BUDGET_MS) late += 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { polls, slowest, late };
    },
  };
}

/** The card for `sessionId`, if the phone gets one within STEP_MS, answered with `values` (what froze the hub). */
async function answerIfShown(phone: ScriptedRemote, match: (record: InteractionRecord) => boolean, values: FormValues) {
  const card = await phone.next(match, STEP_MS).catch(() => undefined);
  if (card) await phone.respond(card.requestId, { action: 'accept', content: { values } }).catch(() => undefined);
  return card !== undefined;
}

async function throughHook(rig: Rig, credential: string, form: HostilePatternForm): Promise<boolean> {
  const payload = elicitationPayload(form.requestedSchema);
  const reply = fetch(`${rig.server.url}/hooks/claude-code?formWait=120s`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${credential}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(payload),
    signal: AbortSignal.timeout(STEP_MS * 2),
  }).then(
    (res) => res.text(),
    () => 'no reply',
  );
  const shown = await Promise.race([
    reply.then(() => false),
    answerIfShown(rig.phone, (record) => record.sessionId === payload.session_id, form.values),
  ]);
  await reply;
  return shown;
}

/** Whether the phone got Codex's form (answered, as the hub froze on before); the bridge must leave it to Codex. */
async function throughCodex(rig: Rig, daemon: FakeCodexDaemon, id: number, form: HostilePatternForm) {
  const before = rig.codexLines();
  const card = () => rig.phone.pending().find((record) => record.sessionId === THREAD);
  daemon.ask(THREAD, id, 'mcpServer/elicitation/request', codexElicitationParams(THREAD, form.requestedSchema));
  await until(() => rig.codexLines() > before || card() !== undefined, STEP_MS);
  const shown = card();
  if (shown) await rig.phone.respond(shown.requestId, { action: 'accept', content: { values: form.values } });
  // Settled either way, so a fresh host's bridge is not handed it again.
  daemon.resolveElsewhere(THREAD, id);
  return shown !== undefined || rig.codexLines() === before;
}

/** AskUserQuestion on /mcp with the schema where its questions go: refused as input, nothing compiled. */
async function throughMcp(rig: Rig, form: HostilePatternForm): Promise<void> {
  const headers = {
    Authorization: `Bearer ${rig.machine}`,
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
  };
  const post = (body: unknown, session?: string) =>
    fetch(`${rig.server.url}/mcp`, {
      method: 'POST',
      headers: session ? { ...headers, 'mcp-session-id': session } : headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(STEP_MS),
    });
  const init = await post({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: { elicitation: form.requestedSchema },
      clientInfo: { name: 'drill', version: '1' },
    },
  });
  const session = init.headers.get('mcp-session-id') ?? undefined;
  await init.text();
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
  const call = await post(
    {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name: 'AskUserQuestion',
        arguments: { questions: form.requestedSchema, requested_schema: form.requestedSchema },
      },
    },
    session,
  );
  await call.text();
}

/** 10,000-character answers to fields with formats: each check on the hub (the card's and AJV's) must stay linear. */
const FORMAT_SCHEMA = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email' },
    uri: { type: 'string', format: 'uri' },
    date: { type: 'string', format: 'date' },
    when: { type: 'string', format: 'date-time' },
  },
};
const long = (prefix: string, unit: string, tail = '') =>
  (prefix + unit.repeat(Math.ceil(10_000 / unit.length))).slice(0, 10_000 - tail.length) + tail;
/** Refused by the card's own rules (the host checks them first)… */
const FORMAT_REFUSED: FormValues[] = [
  { email: long('a@', 'a.a-', '!'), uri: long('a://', 'a.a-'), date: long('', '1'), when: long('2027-03-01T', '0') },
  {
    email: long('', 'a.', '@a'),
    uri: long('a:', '//a', ' '),
    date: '2027-03-01',
    when: long('2027-03-01T00:00:00.', '1', 'x'),
  },
  {
    email: long('a@', 'a-', '.com'),
    uri: long('https://', '%aa', '%'),
    date: '2027-03-01',
    when: '2027-03-01T10:00:00Z',
  },
];
/** …and taken by them, so the hook checks them again with AJV's formats before they go. */
const FORMAT_TAKEN: FormValues = {
  email: long('a@', 'a-a.', 'com'),
  uri: long('https://', 'a.a-', '/'),
  date: '2027-03-01',
  when: long('2027-03-01T10:00:00.', '1', 'Z'),
};

/** The slowest refusal of a 10,000-character answer, and how long the hook took to pass on one it took (ms). */
async function formats(rig: Rig): Promise<{ refusedMs: number; takenMs: number }> {
  const payload = elicitationPayload(FORMAT_SCHEMA);
  const reply = fetch(`${rig.server.url}/hooks/claude-code?formWait=120s`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${rig.machine}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(payload),
    signal: AbortSignal.timeout(STEP_MS * 4),
  });
  const card = await rig.phone.next((record) => record.sessionId === payload.session_id, STEP_MS);
  let refusedMs = 0;
  for (const values of FORMAT_REFUSED) {
    const start = performance.now();
    const ack = await rig.phone.respond(card.requestId, { action: 'accept', content: { values } });
    if (ack.ok) throw new Error('the host took an answer the card refuses');
    refusedMs = Math.max(refusedMs, performance.now() - start);
  }
  const start = performance.now();
  await rig.phone.respond(card.requestId, { action: 'accept', content: { values: FORMAT_TAKEN } });
  const body = (await (await reply).json()) as { hookSpecificOutput?: { action?: string } };
  if (body.hookSpecificOutput?.action !== 'accept')
    throw new Error(`the hook did not pass the answer on: ${JSON.stringify(body)}`);
  return { refusedMs: Math.round(refusedMs), takenMs: Math.round(performance.now() - start) };
}

export async function drillHostilePatterns(): Promise<DrillOutcome> {
  const daemon = await startFakeCodexDaemon();
  daemon.addThread({ id: THREAD, cwd: '/work/project', name: 'Patterns' });
  let rig = await startRig(daemon);
  const watch = watchHealthz(() => rig.server.url);
  const shown: string[] = [];
  const frozen: string[] = [];
  let sent = 0;
  let formatsMs: Awaited<ReturnType<typeof formats>> | undefined;
  let formatsProblem = '';
  /** After each input: a host that leaves /healthz unanswered for FROZEN_MS is replaced, and the input named. */
  const check = async (what: string, wasShown: boolean) => {
    sent += 1;
    if (wasShown) shown.push(what);
    if ((await healthzMs(rig.server.url)) < FROZEN_MS) return;
    frozen.push(what);
    rig.phone.close();
    await rig.server.kill('SIGKILL');
    rig = await startRig(daemon);
  };
  let health: Awaited<ReturnType<ReturnType<typeof watchHealthz>['stop']>>;
  try {
    for (const [index, form] of HOSTILE_PATTERN_FORMS.entries()) {
      await check(`${form.name} (hook, machine)`, await throughHook(rig, rig.machine, form));
      await check(`${form.name} (hook, agent token)`, await throughHook(rig, BENCH_TOKEN, form));
      await check(`${form.name} (Codex)`, await throughCodex(rig, daemon, index, form));
      await throughMcp(rig, form).catch(() => undefined);
      await check(`${form.name} (/mcp)`, false);
    }
    formatsMs = await formats(rig).catch((error: unknown) => {
      formatsProblem = errorMessage(error);
      return undefined;
    });
    await check('10,000-character format answers', false);
  } finally {
    health = await watch.stop();
    rig.phone.close();
    await rig.server.stop();
    await daemon.remove();
  }
  const list = (names: string[]) => (names.length > 0 ? ` (${names.join(', ')})` : '');
  return {
    name: 'catastrophic patterns',
    ok: shown.length === 0 && frozen.length === 0 && health.late === 0 && formatsMs !== undefined,
    detail:
      `${HOSTILE_PATTERN_FORMS.length} schema families, ${sent} inputs (hook from a machine and with the agent ` +
      `token, Codex, /mcp): ${shown.length} shown on the phone${list(shown)}; ${frozen.length} froze the host ` +
      `(/healthz unanswered for ${FROZEN_MS / 1000} s)${list(frozen)}; /healthz over ${health.polls} polls: ` +
      `slowest ${health.slowest} ms, ${health.late} over ${HEALTHZ_BUDGET_MS} ms; 10,000-character format answers: ` +
      (formatsMs
        ? `slowest refusal ${formatsMs.refusedMs} ms, one taken checked and passed on in ${formatsMs.takenMs} ms`
        : `failed (${formatsProblem})`),
  };
}

if (isMain(import.meta.url))
  await runAlone('drills/hostile-patterns', async () => ({ figures: [], drills: [await drillHostilePatterns()] }));
