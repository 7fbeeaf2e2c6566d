import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeAllClients, connectRemote, connectRuntime } from './test-support/clients';
import { pairOverHttp } from './test-support/devices';
import { questionRequest } from './test-support/fixtures';
import { killAllCli, startCliHost } from './test-support/spawn-cli';
import { tempDir } from './test-support/test-host';

const TOKEN = 'terminal-safety-token';

afterEach(() => {
  closeAllClients();
  killAllCli();
});

/** Every byte a terminal would act on rather than print (C0 and C1 controls, DEL; newlines end lines). */
const DRIVES_TERMINAL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('[R12.8] the host log never drives the terminal', () => {
  it('[R12.8] escapes in question text, answers, declines and names from outside reach the log escaped', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const host = await startCliHost(['--port', '0', '--data-dir', dataDir], { ASKAWAY_TOKEN: TOKEN });
    const runtime = await connectRuntime(host.url, TOKEN);
    const phone = await connectRemote(host.url, (await pairOverHttp(host.url, dataDir)).credential);
    const forged = 'no\u001b[1A\u001b[2K\u001b[32m✓ approved by phone';
    const base = questionRequest();
    if (base.kind !== 'question') throw new Error('a question fixture');
    const [first, second] = base.input.questions;
    if (!first || !second) throw new Error('two questions');
    const asked = {
      ...base,
      input: {
        questions: [
          { ...first, question: 'Which \u001b]0;pwned\u0007database\u001b[2J?', header: 'DB\u0008\u0008\u0000' },
          second,
        ],
      },
    };
    expect(await runtime.socket.emitWithAck('announce', asked)).toMatchObject({ ok: true });
    expect(
      await phone.socket.emitWithAck('respond', {
        requestId: asked.requestId,
        clientResponseId: 'decline',
        response: { action: 'decline', message: forged },
      }),
    ).toMatchObject({ ok: true, status: 'accepted' });
    await vi.waitFor(() => expect(host.stdout()).toMatch(/declined by/), { timeout: 10_000 });

    // The log lines (after the banner, whose QR code is colored on purpose), each with its time in front.
    const lines = host
      .stdout()
      .split('\n')
      .filter((line) => /^\d\d:\d\d:\d\d /.test(line));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.filter((line) => DRIVES_TERMINAL.test(line))).toEqual([]);
    // What the outside text held is still there to read, as escapes.
    expect(host.stdout()).toContain('no\\u001b[1A\\u001b[2K\\u001b[32m✓ approved by phone');
    expect(host.stdout()).toContain('Which \\u001b]0;pwned\\u0007database\\u001b[2J?');
  });
});
