import { SKIPPED_QUESTION_NOTE } from '../../lib/runtime/agents/claude-code/to-answer';
import { expect, test } from './support/fixtures';
import {
  askUserQuestion,
  cacheQuestion,
  CACHE_QUESTION,
  choice,
  claudeCodeSays,
  DB_QUESTION,
  dbQuestion,
  finish,
  onPhone,
  runSdk,
} from './support/scenarios';
import { forAgentWork } from '../support/agent-wait';

// The real `claude` in SDK print mode (the only print mode that offers AskUserQuestion), Askaway's hooks
// installed with `askaway hook install --write`, a socket.io client as the phone. The test is the SDK host:
// Claude Code asks it (`can_use_tool`) as the PermissionRequest hook starts, as its terminal dialog would,
// and it keeps quiet unless a test answers there first (R11.8). Every assertion is on what Claude Code
// itself did: the tool_result text it sent the model, what it asked and cancelled, and its exit.

const BESIDE_THE_HOST = { answerAfterMs: 'never' } as const;

test('[R11.8][R11.10] answered on the phone while Claude Code asks its host too: the host’s prompt is cancelled, the model reads the answer', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-single';
  const ws = await workspace([{ marker, turns: [askUserQuestion('toolu_single', { questions: [dbQuestion] })] }]);
  const session = runSdk(claude, ws, `${marker}: set up the service`, BESIDE_THE_HOST);
  const record = await onPhone(remote, session);
  expect(record).toMatchObject({ kind: 'question', toolName: 'AskUserQuestion', agent: { kind: 'claude-code' } });
  expect(record.origin).toMatchObject({ kind: 'root', label: 'Claude Code' });
  expect(record.context).toMatchObject({ cwd: ws.project.dir, openInTerminal: true });
  // Both at once: the SDK host (the terminal of print mode) has the question too.
  await expect.poll(() => session.canUseTool.map((request) => request.toolName)).toEqual(['AskUserQuestion']);
  await remote.respond(record.requestId, { action: 'accept', content: { answers: { [DB_QUESTION]: 'Postgres' } } });

  const result = await finish(session, ws, 'toolu_single');
  expect(result).toMatchObject({ isError: false, content: claudeCodeSays.answered(`"${DB_QUESTION}"="Postgres"`) });
  expect(session.canUseTool[0]).toMatchObject({ cancelled: true, answered: false });
});

test('[R11.8] a multi-select answer with a comma in a label reads as a clean answer (Claude Code quoting)', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-multi';
  const question = choice('Which stores should we support?', 'Stores', ['Postgres', 'SQLite, embedded', 'Redis'], true);
  const ws = await workspace([{ marker, turns: [askUserQuestion('toolu_multi', { questions: [question] })] }]);
  const session = runSdk(claude, ws, `${marker}: set up the service`, BESIDE_THE_HOST);
  const record = await onPhone(remote, session);
  // Claude Code quotes a label holding ", " or '"' when it joins a multi-select answer itself.
  const joined = 'Postgres, "SQLite, embedded"';
  await remote.respond(record.requestId, { action: 'accept', content: { answers: { [question.question]: joined } } });

  const result = await finish(session, ws, 'toolu_multi');
  expect(result.content).toBe(claudeCodeSays.answered(`"${question.question}"="${joined}"`));
});

test('[R11.8][R4.5] typed text and a note reach the model as the user’s words', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-other';
  const ws = await workspace([{ marker, turns: [askUserQuestion('toolu_other', { questions: [dbQuestion] })] }]);
  const session = runSdk(claude, ws, `${marker}: set up the service`, BESIDE_THE_HOST);
  const record = await onPhone(remote, session);
  await remote.respond(record.requestId, {
    action: 'accept',
    content: {
      answers: { [DB_QUESTION]: 'MariaDB, we already run it' },
      annotations: { [DB_QUESTION]: { notes: 'version 11' } },
    },
  });

  const result = await finish(session, ws, 'toolu_other');
  expect(result).toMatchObject({
    isError: false,
    content: claudeCodeSays.userAnswered(`"${DB_QUESTION}"="MariaDB, we already run it" notes: version 11`),
  });
});

test('[R11.8][R4.4] answered in part: the skipped question is named, with a note that a skip is not a rejection', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-partial';
  const ws = await workspace([
    { marker, turns: [askUserQuestion('toolu_partial', { questions: [dbQuestion, cacheQuestion] })] },
  ]);
  const session = runSdk(claude, ws, `${marker}: set up the service`, BESIDE_THE_HOST);
  const record = await onPhone(remote, session);
  await remote.respond(record.requestId, { action: 'accept', content: { answers: { [DB_QUESTION]: 'SQLite' } } });

  const result = await finish(session, ws, 'toolu_partial');
  expect(result).toMatchObject({
    isError: false,
    content: claudeCodeSays.userAnswered(
      `"${DB_QUESTION}"="SQLite", "${CACHE_QUESTION}"=(no option selected) notes: ${SKIPPED_QUESTION_NOTE}`,
    ),
  });
});

test('[R11.8][R4.3] skipping every question: the model reads each as skipped, never as a rejection', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-skip';
  const ws = await workspace([
    { marker, turns: [askUserQuestion('toolu_skip', { questions: [dbQuestion, cacheQuestion] })] },
  ]);
  const session = runSdk(claude, ws, `${marker}: set up the service`, BESIDE_THE_HOST);
  const record = await onPhone(remote, session);
  await remote.respond(record.requestId, { action: 'accept', content: { answers: {} } });

  const result = await finish(session, ws, 'toolu_skip');
  expect(result).toMatchObject({
    isError: false,
    content: claudeCodeSays.userAnswered(
      `"${DB_QUESTION}"=(no option selected) notes: ${SKIPPED_QUESTION_NOTE}, ` +
        `"${CACHE_QUESTION}"=(no option selected) notes: ${SKIPPED_QUESTION_NOTE}`,
    ),
  });
});

test('[R11.8][R3.7] a decline with a reason: the model reads exactly the reason, as an error', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-decline';
  const ws = await workspace([{ marker, turns: [askUserQuestion('toolu_decline', { questions: [dbQuestion] })] }]);
  const session = runSdk(claude, ws, `${marker}: set up the service`, BESIDE_THE_HOST);
  const record = await onPhone(remote, session);
  await remote.respond(record.requestId, { action: 'decline', message: 'not now, ask after the release' });

  const result = await finish(session, ws, 'toolu_decline');
  expect(result).toMatchObject({
    isError: true,
    content: 'AskUserQuestion was declined: not now, ask after the release',
  });
});

test('[R11.9][R18.6] the SDK host answers first: the card leaves at once with its answer, and a late phone answer is refused', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-host-first';
  const ws = await workspace([{ marker, turns: [askUserQuestion('toolu_host_first', { questions: [dbQuestion] })] }]);
  const session = runSdk(claude, ws, `${marker}: set up the service`, BESIDE_THE_HOST);
  const record = await onPhone(remote, session);
  await expect.poll(() => session.canUseTool.length).toBe(1);
  const [request] = session.canUseTool;
  if (!request) throw new Error('unreachable');
  const answeredAt = Date.now();
  session.answer(request, {
    behavior: 'allow',
    updatedInput: { ...request.input, answers: { [DB_QUESTION]: 'SQLite' } },
  });

  await expect
    .poll(() => remote.withdrawn(record.requestId), { timeout: 5_000 })
    .toEqual({
      reason: 'Answered in the terminal',
      terminalAnswer: { response: { action: 'accept', content: { answers: { [DB_QUESTION]: 'SQLite' } } } },
    });
  // Within a second of the answer (the transcript line lands 0.1–0.75 s later, polled and watched).
  expect(Date.now() - answeredAt).toBeLessThan(2_000);
  const late = await remote.respond(record.requestId, {
    action: 'accept',
    content: { answers: { [DB_QUESTION]: 'Postgres' } },
  });
  expect(late).toMatchObject({ ok: false, error: { code: 'withdrawn' } });

  const result = await finish(session, ws, 'toolu_host_first');
  expect(result.content).toBe(claudeCodeSays.answered(`"${DB_QUESTION}"="SQLite"`));
});

test('[R11.8] settings written by an older Askaway (PreToolUse) still get the question answered on the phone', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-pretool';
  const ws = await workspace([{ marker, turns: [askUserQuestion('toolu_pretool', { questions: [dbQuestion] })] }], {
    preToolUse: true,
  });
  expect(JSON.stringify(await ws.project.settings())).toContain('"PreToolUse"');
  const session = runSdk(claude, ws, `${marker}: set up the service`);
  const record = await onPhone(remote, session);
  expect(record.toolUseId).toBe('toolu_pretool');
  await remote.respond(record.requestId, { action: 'accept', content: { answers: { [DB_QUESTION]: 'Postgres' } } });

  const result = await finish(session, ws, 'toolu_pretool');
  expect(result.content).toBe(claudeCodeSays.answered(`"${DB_QUESTION}"="Postgres"`));
  // The PreToolUse hook settled the call before Claude Code asked anyone.
  expect(session.canUseTool).toEqual([]);
});

test('[R11.5] a question Claude Code accepts but our MCP contract refuses (long header, empty description, an option labelled Other) reaches the phone', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-lenient';
  const question = {
    question: DB_QUESTION,
    header: 'Database engine choice',
    multiSelect: false,
    options: [
      { label: 'Postgres', description: '' },
      { label: 'SQLite', description: 'A file' },
      { label: 'Other', description: 'Whatever the team already runs' },
    ],
  };
  const ws = await workspace([{ marker, turns: [askUserQuestion('toolu_lenient', { questions: [question] })] }]);
  const session = runSdk(claude, ws, `${marker}: set up the service`, BESIDE_THE_HOST);
  const record = await onPhone(remote, session);
  await remote.respond(record.requestId, { action: 'accept', content: { answers: { [DB_QUESTION]: 'Other' } } });

  const result = await finish(session, ws, 'toolu_lenient');
  expect(result.content).toBe(claudeCodeSays.answered(`"${DB_QUESTION}"="Other"`));
});

test('[R11.8] the phone’s time running out withdraws the card; the question stays with the host, which answers later', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-timeout';
  const ws = await workspace([{ marker, turns: [askUserQuestion('toolu_timeout', { questions: [dbQuestion] })] }], {
    hookTimeout: '2s',
  });
  const session = runSdk(claude, ws, `${marker}: set up the service`, BESIDE_THE_HOST);
  const record = await onPhone(remote, session);
  await expect
    .poll(() => remote.withdrawn(record.requestId), { timeout: forAgentWork() })
    .toEqual({ reason: 'No answer in time: the question is still open in the terminal' });
  const [request] = session.canUseTool;
  if (!request) throw new Error('Claude Code did not ask its SDK host');
  expect(request.cancelled).toBe(false);
  session.answer(request, {
    behavior: 'allow',
    updatedInput: { ...request.input, answers: { [DB_QUESTION]: 'SQLite' } },
  });

  const result = await finish(session, ws, 'toolu_timeout');
  expect(result.content).toBe(claudeCodeSays.answered(`"${DB_QUESTION}"="SQLite"`));
});

test('[R11.8] the HTTP hook (hook install --http, loopback host) answers the same way', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-http';
  const ws = await workspace([{ marker, turns: [askUserQuestion('toolu_http', { questions: [dbQuestion] })] }], {
    http: true,
  });
  expect(JSON.stringify(await ws.project.settings())).toContain('"type":"http"');
  const session = runSdk(claude, ws, `${marker}: set up the service`, BESIDE_THE_HOST);
  const record = await onPhone(remote, session);
  await remote.respond(record.requestId, { action: 'accept', content: { answers: { [DB_QUESTION]: 'SQLite' } } });

  const result = await finish(session, ws, 'toolu_http');
  expect(result.content).toBe(claudeCodeSays.answered(`"${DB_QUESTION}"="SQLite"`));
  expect(session.canUseTool[0]).toMatchObject({ cancelled: true });
});
