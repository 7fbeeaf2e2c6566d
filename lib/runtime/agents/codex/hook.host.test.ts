import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pairDevice } from '../../../host/test-support/devices';
import { closeAllHosts, startTestHost } from '../../../host/test-support/test-host';
import { runtimeClientProvider } from '../../runtime-client-provider';
import { connectScriptedRemote, type ScriptedRemote } from '../../test-support/scripted-remote';
import { writeBridgeStatus } from './bridge-status';
import { daemonPidFile } from './codex-home';
import { CODEX_HOOK_NO_ANSWER_REASON, handleCodexHook, patchChanges, type CodexHookOptions } from './hook';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await closeAllHosts();
});

/** What Codex 0.171 sent a PermissionRequest hook for an escalated command. */
const bashPayload = {
  session_id: '01a230e9-6110-7553-83df-9a08906dc152',
  turn_id: '01a230e9-6b0a-7213-86ca-fa0154525941',
  transcript_path: '/x/rollout.jsonl',
  cwd: '/work/project',
  hook_event_name: 'PermissionRequest',
  model: 'gpt-5.5',
  permission_mode: 'default',
  tool_name: 'Bash',
  tool_input: { command: 'touch /work/hook-1.txt', description: 'Hook test 1: write outside the workspace?' },
};

async function setup(): Promise<{ remote: ScriptedRemote; options: CodexHookOptions; expire: () => void }> {
  const host = await startTestHost();
  const remote = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
  cleanups.push(() => remote.close());
  const runtime = runtimeClientProvider({ url: host.url, token: host.token });
  cleanups.push(() => runtime.close());
  const root = mkdtempSync(path.join(os.tmpdir(), 'askaway-codex-hook-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  let expire: () => void = () => undefined;
  return {
    remote,
    expire: () => expire(),
    options: {
      runtime,
      env: { CODEX_HOME: path.join(root, 'codex-home'), HOME: root },
      parentPid: process.pid,
      dataDir: path.join(root, 'askaway'),
      deadline: (_ms, onExpire) => {
        expire = onExpire;
        return () => undefined;
      },
    },
  };
}

describe('[R18.15] the Codex PermissionRequest hook', () => {
  it('[R18.15] a command approval on the phone: allowed, or denied with the reason Codex shows the model', async () => {
    const { remote, options } = await setup();
    const allowed = handleCodexHook(bashPayload, options);
    const card = await remote.next((record) => record.sessionId === bashPayload.session_id);
    expect(card).toMatchObject({
      kind: 'approval',
      agent: { kind: 'codex', name: 'Codex' },
      toolName: 'Bash',
      input: {
        subject: 'command',
        command: 'touch /work/hook-1.txt',
        reason: 'Hook test 1: write outside the workspace?',
        cwd: '/work/project',
      },
    });
    await remote.respond(card.requestId, { action: 'accept', content: { choice: 'allow' } });
    expect(await allowed).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    });

    const denied = handleCodexHook(bashPayload, options);
    const second = await remote.next((record) => record.requestId !== card.requestId);
    await remote.respond(second.requestId, { action: 'decline', message: 'not outside the repo' });
    expect(await denied).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'not outside the repo' },
      },
    });
  });

  it('[R18.15] no answer in time: the card leaves with the reason and Codex gets no decision (its own prompt follows)', async () => {
    const { remote, options, expire } = await setup();
    const pending = handleCodexHook(bashPayload, options);
    const card = await remote.next((record) => record.sessionId === bashPayload.session_id);
    expire();
    expect(await pending).toBeNull();
    await vi.waitFor(() => expect(remote.withdrawn(card.requestId)).toEqual({ reason: CODEX_HOOK_NO_ANSWER_REASON }));
  });

  it('[R18.15] under a daemon a bridge serves, the hook steps aside at once: the bridge carries the prompt', async () => {
    const { remote, options } = await setup();
    const home = options.env.CODEX_HOME ?? '';
    mkdirSync(path.dirname(daemonPidFile(home)), { recursive: true });
    writeFileSync(daemonPidFile(home), JSON.stringify({ pid: options.parentPid, processStartTime: '1' }));
    writeBridgeStatus(options.dataDir, {
      codexHome: home,
      bridgeId: 'b',
      pid: process.pid,
      owner: 'askaway start',
      state: 'attached',
      threads: 1,
      pending: 0,
      updatedAt: new Date().toISOString(),
    });
    expect(await handleCodexHook(bashPayload, options)).toBeNull();
    // A --no-daemon TUI is the hook's parent instead: the phone is asked.
    const asked = handleCodexHook(bashPayload, { ...options, parentPid: options.parentPid + 1 });
    const card = await remote.next((record) => record.sessionId === bashPayload.session_id);
    await remote.respond(card.requestId, { action: 'cancel' });
    expect(await asked).toBeNull();
  });

  it('[R18.15] other events and bad payloads get no opinion', async () => {
    const { options } = await setup();
    expect(await handleCodexHook({ ...bashPayload, hook_event_name: 'PreToolUse' }, options)).toBeNull();
    expect(await handleCodexHook({ nonsense: true }, options)).toBeNull();
  });

  it('[R18.15] a patch becomes its files, each with its own part of the patch', () => {
    expect(
      patchChanges(
        '*** Begin Patch\n*** Add File: a.txt\n+hello\n*** Update File: b.txt\n*** Move to: c.txt\n@@\n-x\n+y\n*** Delete File: d.txt\n*** End Patch\n',
      ),
    ).toEqual([
      { path: 'a.txt', kind: 'add', diff: '+hello' },
      { path: 'b.txt', kind: 'move', movePath: 'c.txt', diff: '@@\n-x\n+y' },
      { path: 'd.txt', kind: 'delete' },
    ]);
  });
});
