// A real host and phone, the OpenCode bridge in-process, and OpenCode's side of the plugin faked by its routes:
// what the bridge's tests start with. `closeBridgeRigs` (in afterEach) closes what they opened.
import { expect, vi } from 'vitest';
import { type Host } from '../../../../host/create-host';
import { pairDevice } from '../../../../host/test-support/devices';
import { startTestHost, TEST_TOKEN } from '../../../../host/test-support/test-host';
import { runtimeClientProvider } from '../../../runtime-client-provider';
import { connectScriptedRemote, type ScriptedRemote } from '../../../test-support/scripted-remote';
import { createOpenCodeBridge, type OpenCodeBridge } from '../bridge';
import { BRIDGE_PROTOCOL } from '../bridge-protocol';
import { SESSION, topSession } from '../fixtures';
import { FakeOpenCode } from './fake-opencode';

const opened: { bridge: OpenCodeBridge; remote: ScriptedRemote }[] = [];

/** Closes every phone and bridge a rig opened since the last call. */
export async function closeBridgeRigs(): Promise<void> {
  for (const { bridge, remote } of opened.splice(0)) {
    remote.close();
    await bridge.close();
  }
}

/**
 * The rig, once OpenCode listed what waits for the directory /home/ada/shop. `prepare` changes the fake before
 * the bridge asks it anything; `turnEndGraceMs` and `turnSettleMs` are the bridge's (its own defaults unless given).
 */
export async function openCodeBridgeRig(
  options: {
    host?: Host;
    prepare?: (opencode: FakeOpenCode) => void;
    turnEndGraceMs?: number;
    turnSettleMs?: number;
  } = {},
) {
  const host = options.host ?? (await startTestHost());
  const remote = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
  const opencode = new FakeOpenCode();
  opencode.sessions.set(SESSION, topSession);
  options.prepare?.(opencode);
  const logs: string[] = [];
  const bridge: OpenCodeBridge = createOpenCodeBridge({
    runtime: runtimeClientProvider({ url: host.url, token: TEST_TOKEN }),
    // The plugin answers each call as OpenCode's client does, a moment later.
    send: (request) =>
      void Promise.resolve().then(() =>
        bridge.receive({ type: 'response', id: request.id, ...opencode.answer(request) }),
      ),
    log: (line) => logs.push(line),
    ...(options.turnEndGraceMs === undefined ? {} : { turnEndGraceMs: options.turnEndGraceMs }),
    ...(options.turnSettleMs === undefined ? {} : { turnSettleMs: options.turnSettleMs }),
  });
  opened.push({ bridge, remote });
  // OpenCode lists what it asks until it is answered, whatever the event stream says.
  const event = (type: string, properties: unknown) => {
    // A copy: OpenCode's list is its own, and must not keep the test's values alive.
    const request = structuredClone(properties) as { id: string; sessionID: string };
    if (type === 'question.asked') opencode.questions.push(request);
    if (type === 'permission.asked') opencode.permissions.push(request);
    if (type.endsWith('.asked')) opencode.status[request.sessionID] = { type: 'busy' };
    bridge.receive({ type: 'event', instance: 1, event: { type, properties } });
  };
  bridge.receive({ type: 'hello', protocol: BRIDGE_PROTOCOL, instance: 1, directory: '/home/ada/shop' });
  await vi.waitFor(() => expect(logs.some((line) => line.includes('OpenCode lists'))).toBe(true));
  return { host, remote, opencode, bridge, logs, event };
}
