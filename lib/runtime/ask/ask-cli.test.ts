import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Host } from '../../host';
import { closeAllHosts, startTestHost, tempDir } from '../../host/test-support/test-host';
import { runCli } from '../test-support/run-cli';
import { connectScriptedRemote, type ScriptedRemote } from '../test-support/scripted-remote';
import { pairDevice } from '../../host/test-support/devices';

// The real `askaway ask` process: flags in, stdout/stderr and exit code out. Every outcome is covered
// in-process by ask-command.test.ts; these check that the process carries them.

let host: Host;
let phone: ScriptedRemote;

beforeAll(async () => {
  host = await startTestHost();
  phone = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
});

afterAll(async () => {
  phone.close();
  await closeAllHosts();
});

const env = () => ({ ASKAWAY_URL: host.url, ASKAWAY_TOKEN: host.token, ASKAWAY_DATA_DIR: tempDir() });

describe('askaway ask (R11.3), as a process', () => {
  it('[R11.3] exit 0 and prints the answer', async () => {
    const run = runCli(['ask', 'Deploy now?', '--header', 'Deploy', '--option', 'Yes=Ship it', '--option', 'No=Wait'], {
      env: env(),
    });
    const record = await phone.next(
      (candidate) => candidate.kind === 'question' && candidate.input.questions[0]?.question === 'Deploy now?',
      20_000,
    );
    expect(record.origin?.label).toBe('askaway ask');
    await phone.respond(record.requestId, { action: 'accept', content: { answers: { 'Deploy now?': 'Yes' } } });
    expect(await run).toMatchObject({ code: 0, stdout: 'Yes\n' });
  });

  it('[R11.3][R2.4] exit 2 on bad arguments, naming the rule on stderr', async () => {
    const run = await runCli(['ask', 'Pick', '--option', 'A', '--option', 'Other'], { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Do not include an Other option');
  });

  it('--help explains every flag and exit code', async () => {
    const run = await runCli(['ask', '--help']);
    expect(run.code).toBe(0);
    for (const text of [
      '--header',
      '--option',
      '--multi',
      '--json',
      '--timeout',
      '5 host unreachable',
      '6 timed out',
    ]) {
      expect(run.stdout).toContain(text);
    }
    const mcp = await runCli(['mcp', '--help']);
    expect(mcp).toMatchObject({ code: 0, stdout: expect.stringContaining('askaway mcp') });
  });
});
