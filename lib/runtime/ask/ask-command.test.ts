import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type InteractionResponse } from '../../contracts';
import { type Host } from '../../host';
import { closeAllHosts, startTestHost, tempDir } from '../../host/test-support/test-host';
import { pairDevice } from '../../host/test-support/devices';
import { HOST_CHECK_TIMEOUT_MS } from '../runtime-client-provider';
import { connectScriptedRemote, type ScriptedRemote } from '../test-support/scripted-remote';
import { askCommandMain } from './ask-command';

// `askaway ask` in-process against a real host and a scripted phone; ask-cli.test.ts runs the real process.

let host: Host;
let phone: ScriptedRemote;

beforeAll(async () => {
  host = await startTestHost();
  phone = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  phone.close();
  await closeAllHosts();
});

const DEPLOY = ['Deploy now?', '--header', 'Deploy', '--option', 'Yes=Ship it', '--option', 'No=Wait'];
const hostEnv = () => ({ ASKAWAY_URL: host.url, ASKAWAY_TOKEN: host.token, ASKAWAY_DATA_DIR: tempDir() });

interface AskRun {
  code: number;
  stdout: string;
  stderr: string;
}

async function ask(argv: string[], env: Record<string, string> = hostEnv()): Promise<AskRun> {
  let stdout = '';
  let stderr = '';
  const code = await askCommandMain(argv, {
    env,
    cwd: process.cwd(),
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

const asking = (question: string) =>
  phone.next((candidate) => candidate.kind === 'question' && candidate.input.questions[0]?.question === question);

/** Runs `askaway ask`, answers the question it shows on the phone, returns the outcome. */
async function askAndAnswer(argv: string[], question: string, response: InteractionResponse): Promise<AskRun> {
  const run = ask(argv);
  const record = await asking(question);
  expect(record.origin?.label).toBe('askaway ask');
  expect(record.context?.cwd).toBe(process.cwd());
  await phone.respond(record.requestId, response);
  return run;
}

describe('askaway ask, in-process (R11.3)', () => {
  it('[R11.3][R2.9] --multi --json prints the answered input, labels joined with ", "', async () => {
    const argv = ['Which checks?', '--header', 'Checks', '--option', 'Lint', '--option', 'Tests=Unit tests'];
    const answers = { 'Which checks?': 'Lint, Tests' };
    const annotations = { 'Which checks?': { notes: 'skip e2e' } };
    const run = await askAndAnswer([...argv, '--multi', '--json'], 'Which checks?', {
      action: 'accept',
      content: { answers, annotations },
    });
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
    expect(run.stderr).toContain('Skipped: no answer was given.');
  });

  it('[R11.3][R3.7] exit 4 when the user declines, with the reason on stderr', async () => {
    const run = await askAndAnswer(DEPLOY, 'Deploy now?', { action: 'decline', message: 'Friday afternoon' });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('AskUserQuestion was declined: Friday afternoon');
  });

  it('[R11.3][R2.4][R2.2] exit 2 on bad arguments, naming the rule', async () => {
    const none = await ask(['--option', 'A', '--option', 'B']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('give exactly one question');
    const other = await ask(['Pick', '--option', 'A', '--option', 'Other']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('Do not include an Other option');
    const header = await ask(['Pick', '--header', 'Thirteen chrs', '--option', 'A', '--option', 'B']);
    expect(header.code).toBe(2);
    expect(header.stderr).toContain('Header must be at most 12 characters');
    const single = await ask(['Pick', '--option', 'A']);
    expect(single.code).toBe(2);
    expect(phone.pending()).toEqual([]);
  });

  it('[R11.3] exit 5 when no host is running, saying how to start it', async () => {
    const gone = await startTestHost();
    const url = gone.url;
    await gone.close();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const run = ask(DEPLOY, { ASKAWAY_URL: url, ASKAWAY_TOKEN: 'x', ASKAWAY_DATA_DIR: tempDir() });
    // The host check gives up after HOST_CHECK_TIMEOUT_MS; its timer is set before the first await.
    vi.advanceTimersByTime(HOST_CHECK_TIMEOUT_MS);
    const result = await run;
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`not reachable at ${url}`);
    expect(result.stderr).toContain('askaway start');
  });

  it('[R11.3] exit 6 on --timeout, and the question is withdrawn from the phone', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const run = ask(['Rotate keys?', '--option', 'Yes', '--option', 'No', '--timeout', '5s']);
    const record = await asking('Rotate keys?');
    vi.advanceTimersByTime(5_000);
    const result = await run;
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('No answer within 5 s; the question was withdrawn.');
    await vi.waitFor(() => expect(phone.pending().map((item) => item.requestId)).not.toContain(record.requestId));
  });

  it('--help explains every flag and exit code', async () => {
    const run = await ask(['--help']);
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
  });
});
