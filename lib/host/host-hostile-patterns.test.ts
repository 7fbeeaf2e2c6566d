import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectScriptedRemote, type ScriptedRemote } from '../runtime/test-support/scripted-remote';
import { pairOverHttp, readAdminToken } from './test-support/devices';
import { elicitationPayload, HOSTILE_PATTERN_FORMS } from './test-support/hostile-patterns';
import { mintJoinCode, redeemJoinCode } from './test-support/machines';
import { killAllCli, startCliHost } from './test-support/spawn-cli';
import { tempDir } from './test-support/test-host';

// An MCP server's schema with a catastrophic regular expression where a property's own `pattern` is not
// (allOf, items, …), through Claude Code's HTTP hook on a real host process (R12.12): before, the phone showed
// the form, and the answer froze the hub in AJV for good. Each form must now stay in the terminal, and the host
// answer /healthz. In a child process, so that a regression freezes it and not the test runner.

const TOKEN = 'hostile-patterns-token';
/** How long /healthz may take here: far above an idle host's milliseconds, far below a frozen one's forever. */
const HEALTHZ_WAIT_MS = 2_000;

let host: Awaited<ReturnType<typeof startCliHost>>;
let phone: ScriptedRemote;
let machineCredential: string;

beforeAll(async () => {
  const dataDir = path.join(tempDir(), 'data');
  host = await startCliHost(['--port', '0', '--data-dir', dataDir], { ASKAWAY_TOKEN: TOKEN });
  phone = await connectScriptedRemote(host.url, (await pairOverHttp(host.url, dataDir)).credential);
  const { code } = await mintJoinCode(host.url, readAdminToken(dataDir));
  machineCredential = (await redeemJoinCode(host.url, code, 'build-box')).credential;
});

afterAll(() => {
  phone.close();
  killAllCli();
});

async function healthz(): Promise<boolean> {
  try {
    return (await fetch(`${host.url}/healthz`, { signal: AbortSignal.timeout(HEALTHZ_WAIT_MS) })).ok;
  } catch {
    return false;
  }
}

/**
 * POSTs the form to the hook as Claude Code does, with two minutes for the phone. If the phone shows it, answers
 * it as a person would (what froze the hub). Resolves with what the hook answered and whether there was a card.
 */
async function askThroughHook(credential: string, form: (typeof HOSTILE_PATTERN_FORMS)[number]) {
  const payload = elicitationPayload(form.requestedSchema);
  const reply = fetch(`${host.url}/hooks/claude-code?formWait=120s`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${credential}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(payload),
    signal: AbortSignal.timeout(10_000),
  }).then(
    async (res) => ({ status: res.status, body: (await res.json()) as unknown }),
    (error: unknown) => ({ status: 0, body: String(error) }),
  );
  const card = phone.next((record) => record.sessionId === payload.session_id, 10_000).catch(() => undefined);
  const first = await Promise.race([reply.then(() => undefined), card]);
  if (first) await phone.respond(first.requestId, { action: 'accept', content: { values: form.values } });
  return { shown: first !== undefined, alive: await healthz(), reply: await reply };
}

describe('[R12.12] a catastrophic pattern from an MCP server’s schema, through the Claude Code hook', () => {
  it.each(HOSTILE_PATTERN_FORMS.map((form) => [form.name, form] as const))(
    '[R12.12] %s, from a joined machine: the form stays in the terminal and the hub keeps answering',
    async (_name, form) => {
      const outcome = await askThroughHook(machineCredential, form);
      expect(outcome).toEqual({ shown: false, alive: true, reply: { status: 200, body: {} } });
    },
    30_000,
  );

  it('[R12.12] the same with the agent token; the host’s log says why the phone does not show it', async () => {
    const form = HOSTILE_PATTERN_FORMS[0];
    if (!form) throw new Error('no forms');
    expect(await askThroughHook(TOKEN, form)).toEqual({ shown: false, alive: true, reply: { status: 200, body: {} } });
    expect(host.stdout() + host.stderr()).toContain(
      'the phone cannot show this form of hostile: the form has a rule the phone cannot check (allOf)',
    );
  }, 30_000);
});
