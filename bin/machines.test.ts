import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  JoinCodeResponseSchema,
  JoinedHubFileSchema,
  type HostEvent,
  type RespondAck,
  type Snapshot,
} from '../lib/contracts';
import { closeAllClients, connectRemote } from '../lib/host/test-support/clients';
import { pairOverHttp } from '../lib/host/test-support/devices';
import { killAllCli, startCliHost } from '../lib/host/test-support/spawn-cli';
import { tempDir } from '../lib/host/test-support/test-host';
import { makeTestCertificates } from '../lib/host/test-support/tls-cert';
import { runCli, spawnCli, type SpawnedCli } from '../lib/runtime/test-support/run-cli';

// One hub and several "machines": real `askaway` processes, each machine with its own data dir and
// name (ASKAWAY_MACHINE_NAME) and no ASKAWAY_URL or ASKAWAY_TOKEN: what `askaway join` stored is all
// they have (R17.1).

const TOKEN = 'machines-cli-token';
const SLOW = { timeout: 15_000, interval: 50 };
/**
 * Three machines' `askaway invite`, `join`, `ask` and hook processes and a hub: past the unit suite's 20 s while
 * `npm test` builds the app beside it on two cores (each node process then takes a second or two to start).
 */
const REAL_PROCESSES_MS = 60_000;
const QUESTION = 'Ship it today?';
const children = new Set<SpawnedCli['child']>();

afterEach(() => {
  closeAllClients();
  killAllCli();
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});

interface Machine {
  name: string;
  dataDir: string;
  env: Record<string, string>;
}

async function startHub(args: string[] = [], env: Record<string, string> = {}) {
  const dataDir = tempDir('askaway-hub-');
  const hub = await startCliHost(['--port', '0', '--data-dir', dataDir, '--name', 'hub-box', ...args], {
    ASKAWAY_TOKEN: TOKEN,
    ...env,
  });
  return { ...hub, dataDir };
}

/** `askaway invite --json` on the hub. */
async function invite(hubDataDir: string, env: Record<string, string> = {}) {
  const run = await runCli(['invite', '--json', '--data-dir', hubDataDir], { env });
  expect(run).toMatchObject({ code: 0, stderr: '' });
  return JoinCodeResponseSchema.parse(JSON.parse(run.stdout));
}

function machine(name: string, extraEnv: Record<string, string> = {}): Machine {
  const dataDir = tempDir(`askaway-${name}-`);
  return { name, dataDir, env: { ASKAWAY_DATA_DIR: dataDir, ASKAWAY_MACHINE_NAME: name, ...extraEnv } };
}

/** `askaway join <url> <code>` on the machine. */
function join(target: Machine, hubUrl: string, code: string) {
  return runCli(['join', hubUrl, code], { env: target.env });
}

function hookPayload(toolUseId: string) {
  return {
    session_id: 'session-same',
    cwd: '/home/dev/app',
    hook_event_name: 'PreToolUse',
    tool_name: 'AskUserQuestion',
    tool_use_id: toolUseId,
    tool_input: {
      questions: [
        {
          question: QUESTION,
          header: 'Ship',
          options: [
            { label: 'Yes', description: 'Deploy now' },
            { label: 'No', description: 'Wait for Monday' },
            { label: 'Later', description: 'After the release' },
          ],
          multiSelect: false,
        },
      ],
    },
  };
}

/** `askaway hook claude-code` on the machine, with the hook JSON on stdin: a real runtime process. */
function spawnHook(target: Machine, toolUseId: string): SpawnedCli {
  const cli = spawnCli(['hook', 'claude-code'], target.env);
  children.add(cli.child);
  cli.child.stdin.end(JSON.stringify(hookPayload(toolUseId)));
  return cli;
}

/** The answer a finished hook handed Claude Code, or its decision when it handed over. */
function hookAnswer(stdout: string): string | undefined {
  const reply = JSON.parse(stdout) as {
    hookSpecificOutput?: { permissionDecision?: string; updatedInput?: { answers?: Record<string, string> } };
  };
  return reply.hookSpecificOutput?.updatedInput?.answers?.[QUESTION] ?? reply.hookSpecificOutput?.permissionDecision;
}

async function snapshotOf(phone: Awaited<ReturnType<typeof connectRemote>>): Promise<Snapshot> {
  const reply = (await phone.socket.emitWithAck('snapshot:get')) as { ok: boolean; snapshot?: Snapshot };
  if (!reply.snapshot) throw new Error('no snapshot');
  return reply.snapshot;
}

function respond(phone: Awaited<ReturnType<typeof connectRemote>>, requestId: string, label: string) {
  return phone.socket.emitWithAck('respond', {
    requestId,
    clientResponseId: `answer-${label}-${requestId}`,
    response: { action: 'accept', content: { answers: { [QUESTION]: label } } },
  }) as Promise<RespondAck>;
}

const requested = (events: readonly HostEvent[]) =>
  events.flatMap((event) => (event.type === 'interaction.requested' ? [event.interaction] : []));

function hubFile(target: Machine) {
  return JoinedHubFileSchema.parse(JSON.parse(fs.readFileSync(path.join(target.dataDir, 'hub.json'), 'utf8')));
}

describe('machines joined to one hub (real processes)', () => {
  it(
    '[R17.1][R17.3][R17.4][R17.2] three machines join with codes; identical ids stay apart; each answer reaches its asker; revoke drops one at once',
    async () => {
      const hub = await startHub();
      const machines = [machine('laptop'), machine('desktop'), machine('devbox')];
      const codes: string[] = [];
      for (const target of machines) {
        const { code, command, hubUrl } = await invite(hub.dataDir);
        expect(command).toBe(`askaway join ${hub.url} ${code}`);
        expect(hubUrl).toBe(hub.url);
        const joined = await join(target, hub.url, code);
        expect(joined).toMatchObject({ code: 0, stderr: '' });
        expect(joined.stdout).toContain(`Joined hub-box at ${hub.url} as "${target.name}".`);
        expect(fs.statSync(path.join(target.dataDir, 'hub.json')).mode & 0o777).toBe(0o600);
        codes.push(code);
      }
      // A code works once.
      const late = machine('late');
      const reused = await join(late, hub.url, codes[0] ?? '');
      expect(reused.code).toBe(1);
      expect(reused.stderr).toMatch(/refused: This join code was already used or has expired.+askaway invite/);
      expect(fs.existsSync(path.join(late.dataDir, 'hub.json'))).toBe(false);

      const [laptop, desktop, devbox] = machines as [Machine, Machine, Machine];
      const status = await runCli(['status', '--json'], { env: laptop.env });
      expect(status.code).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({
        url: hub.url,
        source: 'joined',
        reachable: true,
        hubName: 'hub-box',
        machine: { name: 'laptop' },
      });

      const phone = await connectRemote(hub.url, (await pairOverHttp(hub.url, hub.dataDir)).credential);
      const hooks = machines.map((target) => spawnHook(target, 'toolu_same'));
      await vi.waitFor(() => expect(requested(phone.events)).toHaveLength(3), SLOW);
      const pending = (await snapshotOf(phone)).pending;
      expect(pending.map((view) => [view.machine.name, view.sessionId, view.toolUseId]).sort()).toEqual([
        ['desktop', 'session-same', 'toolu_same'],
        ['devbox', 'session-same', 'toolu_same'],
        ['laptop', 'session-same', 'toolu_same'],
      ]);
      expect(new Set(pending.map((view) => view.requestId)).size).toBe(3);
      const keyOf = (name: string) => pending.find((view) => view.machine.name === name)?.requestId ?? '';
      await vi.waitFor(async () => {
        const listed = await runCli(['machines', '--json', '--data-dir', hub.dataDir]);
        const agents = (JSON.parse(listed.stdout) as { machines: { name: string; connectedAgents: number }[] })
          .machines;
        expect(agents.map((entry) => [entry.name, entry.connectedAgents])).toEqual([
          ['hub-box', 0],
          ['laptop', 1],
          ['desktop', 1],
          ['devbox', 1],
        ]);
      }, SLOW);

      // The same request id on three machines: each answer goes to the one agent that asked.
      expect(await respond(phone, keyOf('desktop'), 'No')).toMatchObject({ ok: true, status: 'accepted' });
      expect(await respond(phone, keyOf('laptop'), 'Yes')).toMatchObject({ ok: true, status: 'accepted' });
      const [laptopHook, desktopHook, devboxHook] = hooks as [SpawnedCli, SpawnedCli, SpawnedCli];
      expect(await laptopHook.exited).toBe(0);
      expect(await desktopHook.exited).toBe(0);
      expect(hookAnswer(laptopHook.stdout())).toBe('Yes');
      expect(hookAnswer(desktopHook.stdout())).toBe('No');

      // Revoking devbox drops its waiting hook at once: it hands the question back to the terminal, naming the hub.
      const table = await runCli(['machines', '--data-dir', hub.dataDir]);
      expect(table.stdout).toMatch(/^NAME\s+ID\s+JOINED\s+LAST SEEN\s+AGENTS\n/);
      expect(table.stdout).toMatch(/\ndevbox\s+[0-9a-f]{16}\s+\S+ \S+\s+connected now\s+1\n/);
      const revoked = await runCli(['machines', 'revoke', 'devbox', '--data-dir', hub.dataDir]);
      expect(revoked).toMatchObject({ code: 0, stderr: '' });
      expect(await devboxHook.exited).toBe(0);
      expect(hookAnswer(devboxHook.stdout())).toBe('ask');
      expect(devboxHook.stderr()).toMatch(/This machine \("devbox"\) was removed from hub-box\. Join again/);
      await vi.waitFor(
        () =>
          expect(phone.events).toContainEqual(
            expect.objectContaining({
              type: 'interaction.withdrawn',
              requestId: keyOf('devbox'),
              reason: 'devbox was removed from hub-box',
            }),
          ),
        SLOW,
      );
      const refused = await runCli(['ask', 'Deploy?', '--option', 'Yes', '--option', 'No'], { env: devbox.env });
      expect(refused.code).toBe(5);
      expect(refused.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^askaway ask: The Askaway hub at .+ refused this machine: .+removed from hub-box/),
      ]);

      // Nothing the hub printed holds a credential, a join code or the token (R17.7).
      const secrets = [TOKEN, ...codes, ...machines.map((target) => hubFile(target).credential)];
      for (const secret of secrets) expect(hub.stdout() + hub.stderr()).not.toContain(secret);
      for (const target of [laptop, desktop]) expect(hubFile(target).machine.name).toBe(target.name);
    },
    REAL_PROCESSES_MS,
  );

  it('[R17.6] a machine runtime SIGKILLed while its question waits: still answerable, delivered when it comes back', async () => {
    const hub = await startHub();
    const laptop = machine('laptop');
    expect((await join(laptop, hub.url, (await invite(hub.dataDir)).code)).code).toBe(0);
    const phone = await connectRemote(hub.url, (await pairOverHttp(hub.url, hub.dataDir)).credential);

    const first = spawnHook(laptop, 'toolu_kill');
    await vi.waitFor(() => expect(requested(phone.events)).toHaveLength(1), SLOW);
    const [asked] = requested(phone.events);
    const key = asked?.requestId ?? '';
    expect(asked?.machine.name).toBe('laptop');
    first.child.kill('SIGKILL');
    await first.exited;
    // The phone learns the machine has no agent connected: its question waits for it to come back.
    await vi.waitFor(
      () =>
        expect(phone.machineLists.at(-1)?.find((entry) => entry.name === 'laptop')).toMatchObject({
          connectedAgents: 0,
        }),
      SLOW,
    );
    expect((await snapshotOf(phone)).pending.map((view) => view.requestId)).toEqual([key]);
    expect(await respond(phone, key, 'Later')).toMatchObject({ ok: true, status: 'accepted' });

    const again = spawnHook(laptop, 'toolu_kill');
    expect(await again.exited).toBe(0);
    expect(hookAnswer(again.stdout())).toBe('Later');
    await vi.waitFor(
      () =>
        expect(phone.events).toContainEqual(expect.objectContaining({ type: 'interaction.delivered', requestId: key })),
      SLOW,
    );
  });

  it('[R17.1] a code past its time is refused', async () => {
    const hub = await startHub(['--pair-ttl', '1s']);
    const { code, expiresAt } = await invite(hub.dataDir);
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(Date.parse(expiresAt) + 50), SLOW);
    const late = await join(machine('late'), hub.url, code);
    expect(late.code).toBe(1);
    expect(late.stderr).toMatch(/already used or has expired: a code works once, for 1 second/);
  });

  it('[R17.6] with the hub gone, `ask` exits 5 and the hook hands over to the terminal, each with one line naming the hub', async () => {
    const hub = await startHub();
    const laptop = machine('laptop');
    expect((await join(laptop, hub.url, (await invite(hub.dataDir)).code)).code).toBe(0);
    hub.child.kill('SIGTERM');
    await hub.exited;

    const ask = await runCli(['ask', 'Deploy?', '--option', 'Yes', '--option', 'No'], { env: laptop.env });
    expect(ask.code).toBe(5);
    expect(ask.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^askaway ask: Askaway hub hub-box is not reachable at ${hub.url} \\(.+\\): is it running`),
      ),
    ]);
    const hook = spawnHook(laptop, 'toolu_gone');
    expect(await hook.exited).toBe(0);
    expect(hookAnswer(hook.stdout())).toBe('ask');
    expect(hook.stderr()).toMatch(
      /^askaway hook: Askaway hub hub-box is not reachable at .+\(the terminal asks instead\)\n$/,
    );
    const status = await runCli(['status'], { env: laptop.env });
    expect(status.code).toBe(1);
    expect(status.stdout).toMatch(
      /Host:\s+http:\/\/127\.0\.0\.1:\d+ \(joined with askaway join: .+hub\.json\)\nReachable:\s+no — connect ECONNREFUSED/,
    );
  });

  it('[R17.7] a hub with its own certificate: joining and asking work with NODE_EXTRA_CA_CERTS, and say why without it', async () => {
    const certs = makeTestCertificates(tempDir('askaway-certs-'));
    const hub = await startHub(['--tls-cert', certs.certFile, '--tls-key', certs.keyFile]);
    expect(hub.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const { code } = await invite(hub.dataDir);

    const untrusting = machine('laptop');
    const refused = await join(untrusting, hub.url, code);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/its TLS certificate is not trusted here \(.+\): .+NODE_EXTRA_CA_CERTS/);

    const trusting = machine('laptop', { NODE_EXTRA_CA_CERTS: certs.caFile });
    expect(await join(trusting, hub.url, code)).toMatchObject({ code: 0 });
    const phone = await connectRemote(hub.url, (await pairOverHttp(hub.url, hub.dataDir)).credential);
    const ask = spawnCli(['ask', QUESTION, '--option', 'Yes', '--option', 'No'], trusting.env);
    children.add(ask.child);
    await vi.waitFor(() => expect(requested(phone.events)).toHaveLength(1), SLOW);
    const [asked] = requested(phone.events);
    expect(asked?.machine.name).toBe('laptop');
    expect(await respond(phone, asked?.requestId ?? '', 'Yes')).toMatchObject({ ok: true });
    expect(await ask.exited).toBe(0);
    expect(ask.stdout()).toBe('Yes\n');

    // The same machine without the CA: the runtime says why in one line.
    const withoutCa = { ...trusting.env };
    delete withoutCa.NODE_EXTRA_CA_CERTS;
    const blind = await runCli(['ask', 'Again?', '--option', 'Yes', '--option', 'No'], { env: withoutCa });
    expect(blind.code).toBe(5);
    expect(blind.stderr).toMatch(
      /^askaway ask: Askaway hub hub-box is not reachable at https.+TLS certificate is not trusted here/,
    );
    // Five real processes and their TLS handshakes on a 2-core machine beside the build: 20 s was too close.
  }, 60_000);
});
