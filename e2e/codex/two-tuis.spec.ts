import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test, CLI } from './support/fixtures';
import { ask, callId, cardFor, colorQuestion, modelRead, sizeQuestion } from './support/scenarios';

const exec = promisify(execFile);

// Two TUIs on one Codex home share one daemon (and one request-id counter): one bridge joins both
// threads, and each answer reaches the thread that asked.

test('[R18.10][R18.14] two TUIs on one Codex home: both threads joined, each question answered in its own thread; askaway status counts them', async ({
  session,
  remote,
  host,
}) => {
  const left = 'E2E-left';
  const right = 'E2E-right';
  const codex = await session({
    conversations: [
      { marker: left, turns: [ask([colorQuestion]), [{ type: 'text', text: `finished ${left}` }]] },
      { marker: right, turns: [ask([sizeQuestion]), [{ type: 'text', text: `finished ${right}` }]] },
    ],
  });
  const bridge = await codex.bridge();
  const first = await codex.tui();
  await first.ready({ plan: true });
  const second = await codex.tui();
  await second.ready({ plan: true });
  await first.submit(`${left}: pick a color`);
  await second.submit(`${right}: pick a size`);

  const leftCard = await cardFor(remote, (record) => record.toolUseId === callId(left, 0, 1));
  const rightCard = await cardFor(remote, (record) => record.toolUseId === callId(right, 0, 1));
  expect(leftCard.sessionId).not.toBe(rightCard.sessionId);
  // One daemon: both keys name the same daemon process.
  expect(leftCard.requestId.split('-')[1]).toBe(rightCard.requestId.split('-')[1]);

  const status = await exec(process.execPath, [CLI, 'status', '--json'], {
    env: { ...process.env, ASKAWAY_URL: host.url, ASKAWAY_TOKEN: host.token, ASKAWAY_DATA_DIR: bridge.dataDir },
  });
  expect(JSON.parse(status.stdout)).toMatchObject({
    reachable: true,
    codex: [{ codexHome: codex.home.codexHome, state: 'attached', threads: 2, pending: 2, owner: 'askaway codex' }],
  });

  await remote.respond(rightCard.requestId, {
    action: 'accept',
    content: { answers: { [sizeQuestion.question]: 'Large' } },
  });
  await remote.respond(leftCard.requestId, {
    action: 'accept',
    content: { answers: { [colorQuestion.question]: 'Blue' } },
  });
  expect(JSON.parse((await modelRead(codex.model, callId(left, 0, 1))).text)).toEqual({
    answers: { color: { answers: ['Blue'] } },
  });
  expect(JSON.parse((await modelRead(codex.model, callId(right, 0, 1))).text)).toEqual({
    answers: { size: { answers: ['Large'] } },
  });
  await first.waitFor(new RegExp(`finished ${left}`));
  await second.waitFor(new RegExp(`finished ${right}`));
});
