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

// The real `claude` in SDK print mode (the only print mode that offers AskUserQuestion), Askaway's
// PreToolUse hook installed with `askaway hook install --write`, a socket.io client as the phone.
// Every assertion is on what Claude Code itself did: the tool_result text it sent the model, whether it
// had to ask its SDK host (the hook did not settle the call), and its exit.

test('[R11.2] an answered single-select question reaches the model in Claude Code own words', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-single';
  const ws = await workspace([{ marker, turns: [askUserQuestion('toolu_single', { questions: [dbQuestion] })] }]);
  const session = runSdk(claude, ws, `${marker}: set up the service`);
  const record = await onPhone(remote, session);
  expect(record).toMatchObject({ kind: 'question', toolName: 'AskUserQuestion', toolUseId: 'toolu_single' });
  expect(record.origin).toMatchObject({ kind: 'root', label: 'Claude Code' });
  expect(record.context?.cwd).toBe(ws.project.dir);
  await remote.respond(record.requestId, { action: 'accept', content: { answers: { [DB_QUESTION]: 'Postgres' } } });

  const result = await finish(session, ws, 'toolu_single');
  expect(result).toMatchObject({ isError: false, content: claudeCodeSays.answered(`"${DB_QUESTION}"="Postgres"`) });
  expect(ws.model.textsAfter('toolu_single')).toEqual([]);
  expect(session.canUseTool).toEqual([]);
});

test('[R11.2] a multi-select answer with a comma in a label reads as a clean answer (Claude Code quoting)', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-multi';
  const question = choice('Which stores should we support?', 'Stores', ['Postgres', 'SQLite, embedded', 'Redis'], true);
  const ws = await workspace([{ marker, turns: [askUserQuestion('toolu_multi', { questions: [question] })] }]);
  const session = runSdk(claude, ws, `${marker}: set up the service`);
  const record = await onPhone(remote, session);
  // Claude Code quotes a label holding ", " or '"' when it joins a multi-select answer itself.
  const joined = 'Postgres, "SQLite, embedded"';
  await remote.respond(record.requestId, { action: 'accept', content: { answers: { [question.question]: joined } } });

  const result = await finish(session, ws, 'toolu_multi');
  expect(result.content).toBe(claudeCodeSays.answered(`"${question.question}"="${joined}"`));
});

test('[R11.2] answered in part: Claude Code lists the answer, the hook adds which question was skipped', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-partial';
  const input = { questions: [dbQuestion, cacheQuestion] };
  const ws = await workspace([{ marker, turns: [askUserQuestion('toolu_partial', input)] }]);
  const session = runSdk(claude, ws, `${marker}: set up the service`);
  const record = await onPhone(remote, session);
  await remote.respond(record.requestId, { action: 'accept', content: { answers: { [DB_QUESTION]: 'SQLite' } } });

  const result = await finish(session, ws, 'toolu_partial');
  expect(result).toMatchObject({ isError: false, content: claudeCodeSays.answered(`"${DB_QUESTION}"="SQLite"`) });
  expect(result.content).not.toContain(CACHE_QUESTION);
  // Claude Code's text does not say a question was skipped; the hook's additionalContext does.
  expect(ws.model.textsAfter('toolu_partial')).toEqual([
    `PreToolUse:AskUserQuestion hook additional context: The user skipped 1 of your 2 questions: "${CACHE_QUESTION}". Use your best judgment for those; skipping is not a rejection, and do not invent user preferences.`,
  ]);
});

test('[R5.3] skipping every question reads as "did not answer", never as a rejection', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-skip';
  const ws = await workspace([
    { marker, turns: [askUserQuestion('toolu_skip', { questions: [dbQuestion, cacheQuestion] })] },
  ]);
  const session = runSdk(claude, ws, `${marker}: set up the service`);
  const record = await onPhone(remote, session);
  await remote.respond(record.requestId, { action: 'accept', content: { answers: {} } });

  const result = await finish(session, ws, 'toolu_skip');
  expect(result).toMatchObject({ isError: false, content: claudeCodeSays.skipped });
  expect(result.content).not.toMatch(/reject|declin|doesn't want/i);
  expect(ws.model.textsAfter('toolu_skip')).toEqual([
    'PreToolUse:AskUserQuestion hook additional context: The user did not answer any of your questions. Continue using your best judgment; do not treat this as a rejection or invent a user preference.',
  ]);
});

test('[R3.7] a decline with a reason reaches the model as an error carrying the reason', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-decline';
  const ws = await workspace([{ marker, turns: [askUserQuestion('toolu_decline', { questions: [dbQuestion] })] }]);
  const session = runSdk(claude, ws, `${marker}: set up the service`);
  const record = await onPhone(remote, session);
  await remote.respond(record.requestId, { action: 'decline', message: 'not now, ask after the release' });

  const result = await finish(session, ws, 'toolu_decline');
  expect(result.content).toBe(
    'PreToolUse:AskUserQuestion hook error: AskUserQuestion was declined: not now, ask after the release',
  );
  expect(result.isError).toBe(true);
  expect(session.canUseTool).toEqual([]);
});

test('[R11.2] a question Claude Code accepts but our MCP contract refuses (long header, empty description, an option labelled Other) reaches the phone', async ({
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
  const session = runSdk(claude, ws, `${marker}: set up the service`);
  const record = await onPhone(remote, session);
  await remote.respond(record.requestId, { action: 'accept', content: { answers: { [DB_QUESTION]: 'Other' } } });

  const result = await finish(session, ws, 'toolu_lenient');
  expect(result.content).toBe(claudeCodeSays.answered(`"${DB_QUESTION}"="Other"`));
  expect(session.canUseTool).toEqual([]);
});

test('[R11.2] the hook timeout hands the question back to the prompt and withdraws it from the phone', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-timeout';
  const ws = await workspace([{ marker, turns: [askUserQuestion('toolu_timeout', { questions: [dbQuestion] })] }], {
    hookTimeout: '2s',
  });
  // In print mode the SDK host is the terminal: after the hook gives up, Claude Code asks it, and it answers.
  const session = runSdk(claude, ws, `${marker}: set up the service`, {
    reply: (request) => ({
      behavior: 'allow',
      updatedInput: { ...request.input, answers: { [DB_QUESTION]: 'SQLite' } },
    }),
  });
  const record = await onPhone(remote, session);
  await expect.poll(() => remote.pending().some((pending) => pending.requestId === record.requestId)).toBe(false);

  const result = await finish(session, ws, 'toolu_timeout');
  expect(session.canUseTool.map((request) => request.toolName)).toEqual(['AskUserQuestion']);
  expect(result.content).toBe(claudeCodeSays.answered(`"${DB_QUESTION}"="SQLite"`));
});

test('[R11.2] the HTTP hook (hook install --http, loopback host) answers the same way', async ({
  claude,
  remote,
  workspace,
}) => {
  const marker = 'E2E-http';
  const ws = await workspace([{ marker, turns: [askUserQuestion('toolu_http', { questions: [dbQuestion] })] }], {
    http: true,
  });
  expect(JSON.stringify(await ws.project.settings())).toContain('"type":"http"');
  const session = runSdk(claude, ws, `${marker}: set up the service`);
  const record = await onPhone(remote, session);
  await remote.respond(record.requestId, { action: 'accept', content: { answers: { [DB_QUESTION]: 'SQLite' } } });

  const result = await finish(session, ws, 'toolu_http');
  expect(result.content).toBe(claudeCodeSays.answered(`"${DB_QUESTION}"="SQLite"`));
  expect(session.canUseTool).toEqual([]);
});
