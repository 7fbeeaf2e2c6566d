import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Host } from '../../host';
import { closeAllHosts, startTestHost, tempDir } from '../../host/test-support/test-host';
import { runCli, type CliRun } from '../test-support/run-cli';
import { connectScriptedRemote, type ScriptedRemote } from '../test-support/scripted-remote';
import { type InteractionResponse } from '../../contracts';

let host: Host;
let phone: ScriptedRemote;

beforeAll(async () => {
  host = await startTestHost();
  phone = await connectScriptedRemote(host.url, host.token);
});

afterAll(async () => {
  phone.close();
  await closeAllHosts();
});

const DEPLOY = ['ask', 'Deploy now?', '--header', 'Deploy', '--option', 'Yes=Ship it', '--option', 'No=Wait'];
const env = () => ({ ASKAWAY_URL: host.url, ASKAWAY_TOKEN: host.token, ASKAWAY_DATA_DIR: tempDir() });

/** Runs `askaway ask`, answers the question it shows on the phone, returns the process result. */
async function askAndAnswer(args: string[], question: string, response: InteractionResponse): Promise<CliRun> {
  const run = runCli(args, { env: env() });
  const record = await phone.next(
    (candidate) => candidate.kind === 'question' && candidate.input.questions[0]?.question === question,
    20_000,
  );
  expect(record.origin?.label).toBe('askaway ask');
  await phone.respond(record.requestId, response);
  return run;
}

describe('askaway ask (R11.3)', () => {
  it('[R11.3] exit 0 and prints the answer', async () => {
    const run = await askAndAnswer(DEPLOY, 'Deploy now?', {
      action: 'accept',
      content: { answers: { 'Deploy now?': 'Yes' } },
    });
    expect(run).toMatchObject({ code: 0, stdout: 'Yes\n' });
  });

  it('[R11.3][R2.9] --multi --json prints the answered input, labels joined with ", "', async () => {
    const args = [
      'ask',
      'Which checks?',
      '--header',
      'Checks',
      '--option',
      'Lint',
      '--option',
      'Tests=Unit tests',
      '--multi',
      '--json',
    ];
    const answers = { 'Which checks?': 'Lint, Tests' };
    const annotations = { 'Which checks?': { notes: 'skip e2e' } };
    const run = await askAndAnswer(args, 'Which checks?', { action: 'accept', content: { answers, annotations } });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      questions: [
        {
          question: 'Which checks?',
          header: 'Checks',
          multiSelect: true,
          options: [
            { label: 'Lint', description: 'Lint' },
            { label: 'Tests', description: 'Unit tests' },
          ],
        },
      ],
      answers,
      annotations,
    });
  });

  it('[R11.3][R5.3] exit 3 when the user skips', async () => {
    const run = await askAndAnswer(DEPLOY, 'Deploy now?', { action: 'accept', content: { answers: {} } });
    expect(run).toMatchObject({ code: 3, stdout: '' });
  });

  it('[R11.3][R3.7] exit 4 when the user declines, with the reason on stderr', async () => {
    const run = await askAndAnswer(DEPLOY, 'Deploy now?', { action: 'decline', message: 'Friday afternoon' });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('AskUserQuestion was declined: Friday afternoon');
  });

  it('[R11.3][R2.4][R2.2] exit 2 on bad arguments, naming the rule', async () => {
    const none = await runCli(['ask', '--option', 'A', '--option', 'B'], { env: env() });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('give exactly one question');
    const other = await runCli(['ask', 'Pick', '--option', 'A', '--option', 'Other'], { env: env() });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('Do not include an Other option');
    const header = await runCli(['ask', 'Pick', '--header', 'Thirteen chrs', '--option', 'A', '--option', 'B'], {
      env: env(),
    });
    expect(header.code).toBe(2);
    expect(header.stderr).toContain('Header must be at most 12 characters');
    const single = await runCli(['ask', 'Pick', '--option', 'A'], { env: env() });
    expect(single.code).toBe(2);
  });

  it('[R11.3] exit 5 when no host is running, saying how to start it', async () => {
    const gone = await startTestHost();
    const url = gone.url;
    await gone.close();
    const run = await runCli(DEPLOY, { env: { ASKAWAY_URL: url, ASKAWAY_TOKEN: 'x', ASKAWAY_DATA_DIR: tempDir() } });
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('askaway start');
  });

  it('[R11.3] exit 6 on --timeout, and the question is withdrawn from the phone', async () => {
    const run = runCli(['ask', 'Rotate keys?', '--option', 'Yes', '--option', 'No', '--timeout', '1s'], { env: env() });
    const record = await phone.next(
      (candidate) => candidate.kind === 'question' && candidate.input.questions[0]?.question === 'Rotate keys?',
      20_000,
    );
    expect((await run).code).toBe(6);
    await vi.waitFor(() => expect(phone.pending().map((item) => item.requestId)).not.toContain(record.requestId));
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
