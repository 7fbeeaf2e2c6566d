import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { BRIDGE_FRAME_MAX_BYTES, BRIDGE_REQUESTS_IN_FLIGHT_MAX } from '../../../contracts';
import { spawnCli, type SpawnedCli } from '../../test-support/run-cli';
import { BRIDGE_PROTOCOL, type BridgeRequest } from './bridge-protocol';
import { OPENCODE_INSTANCES_KEPT } from './bridge';

// What a plugin (or whatever writes to `askaway opencode bridge`'s stdin) can send, against the real bridge
// process: a line without end, a message nested past the limits, a flood of directories whose calls nobody
// answers (R12.18, R12.19). The bridge holds none of it, says each once, and goes on reading.

const bridges: SpawnedCli[] = [];
/** A process starting on a busy machine (the CLI bundle loads in well under this). */
const WAIT_MS = 15_000;

afterEach(async () => {
  for (const bridge of bridges.splice(0)) {
    if (bridge.child.exitCode === null && bridge.child.signalCode === null) bridge.child.kill('SIGKILL');
    await bridge.exited;
  }
});

/** The bridge as the plugin starts it; no host is reached until a prompt comes. */
function startBridge(): SpawnedCli {
  const bridge = spawnCli(['opencode', 'bridge'], { ASKAWAY_URL: 'http://127.0.0.1:9', ASKAWAY_TOKEN: 'unused' });
  bridge.child.stdin.on('error', () => undefined);
  bridges.push(bridge);
  return bridge;
}

const requests = (bridge: SpawnedCli): BridgeRequest[] =>
  bridge
    .stdout()
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as BridgeRequest);

const hello = (instance: number) =>
  `${JSON.stringify({ type: 'hello', protocol: BRIDGE_PROTOCOL, instance, directory: `/home/ada/project-${instance}` })}\n`;

/** Writes `text`, waiting for the pipe to drain, as a plugin that writes as fast as it can. */
async function write(bridge: SpawnedCli, text: string | Buffer): Promise<void> {
  if (!bridge.child.stdin.write(text)) await new Promise((resolve) => bridge.child.stdin.once('drain', resolve));
}

/** The bridge answered `instance`'s hello: it asked OpenCode (through the plugin) for its version. */
async function answeredHello(bridge: SpawnedCli, instance: number): Promise<void> {
  await expect
    .poll(() => requests(bridge).some((request) => request.instance === instance && request.url === '/global/health'), {
      timeout: WAIT_MS,
    })
    .toBe(true);
}

/** The most memory the process has held (VmHWM), in MiB. */
function peakMiB(pid: number | undefined): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? NaN) / 1024;
}

const linesWith = (bridge: SpawnedCli, text: string) =>
  bridge
    .stderr()
    .split('\n')
    .filter((line) => line.includes(text));

describe('what the plugin sends the OpenCode bridge (R12.18, R12.19)', () => {
  it('[R12.19] a line longer than BRIDGE_FRAME_MAX_BYTES is dropped as it streams in, said once, and the next line is read', async () => {
    const bridge = startBridge();
    await write(bridge, hello(1));
    await answeredHello(bridge, 1);
    const before = peakMiB(bridge.child.pid);
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    const miB = (BRIDGE_FRAME_MAX_BYTES * 8) / (1024 * 1024);
    for (let index = 0; index < miB; index += 1) await write(bridge, chunk);
    await write(bridge, '\n');
    await write(bridge, hello(2));
    await answeredHello(bridge, 2);
    expect(linesWith(bridge, `longer than ${BRIDGE_FRAME_MAX_BYTES} bytes`)).toHaveLength(1);
    // readline held the whole line (128 MiB, and more to join it); now at most BRIDGE_FRAME_MAX_BYTES of it is
    // held before it is dropped, with the pipe's chunks the collector has not taken yet.
    expect(peakMiB(bridge.child.pid) - before).toBeLessThan(miB / 2);
    expect(bridge.child.exitCode).toBeNull();
  });

  it('[R12.18] messages nested past BRIDGE_MESSAGE_SHAPE_LIMITS are refused before anything walks them, in one log line', async () => {
    const bridge = startBridge();
    const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    for (const depth of [40, 10_000, 1_000_000])
      await write(
        bridge,
        `{"type":"event","instance":1,"event":{"type":"question.asked","properties":${deep(depth)}}}\n`,
      );
    await write(bridge, hello(1));
    await answeredHello(bridge, 1);
    expect(linesWith(bridge, 'nests deeper than 32 levels')).toHaveLength(1);
    expect(bridge.child.exitCode).toBeNull();
  });

  it('[R12.19] a flood of directories whose calls nobody answers: at most BRIDGE_REQUESTS_IN_FLIGHT_MAX calls wait, the oldest directories go, each said once', async () => {
    const bridge = startBridge();
    const count = BRIDGE_REQUESTS_IN_FLIGHT_MAX * 3;
    let flood = '';
    for (let instance = 1; instance <= count; instance += 1) flood += hello(instance);
    await write(bridge, flood);
    await expect.poll(() => linesWith(bridge, 'further ones fail at once').length, { timeout: WAIT_MS }).toBe(1);
    await expect.poll(() => linesWith(bridge, 'the oldest are forgotten').length, { timeout: WAIT_MS }).toBe(1);
    // The last hello was read: the bridge tried to ask for its version, and it is among the directories kept.
    await write(bridge, hello(count + 1));
    await expect
      .poll(() => bridge.stderr(), { timeout: WAIT_MS })
      .toMatch(/could not list OpenCode's pending prompts \(0, 0\)/);
    expect(requests(bridge).length).toBeLessThanOrEqual(BRIDGE_REQUESTS_IN_FLIGHT_MAX);
    expect(linesWith(bridge, 'could not list')).toHaveLength(1);
    expect(OPENCODE_INSTANCES_KEPT).toBeLessThan(count);
    expect(bridge.child.exitCode).toBeNull();
  });
});
