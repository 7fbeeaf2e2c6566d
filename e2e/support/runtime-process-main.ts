// A machine's runtime as its own process (RuntimeProcess in ./machines.ts): asks one question with
// the machine's credential, re-announces it every second, and prints what happens as JSON lines.
import { ScriptedRuntime } from './scripted-runtime';
import { type ProcessQuestion } from './machines';

const url = process.env.E2E_HOST_URL ?? '';
const credential = process.env.E2E_CREDENTIAL ?? '';
const question = JSON.parse(process.env.E2E_QUESTION ?? '{}') as ProcessQuestion;

const runtime = new ScriptedRuntime(url, credential, (notice) =>
  process.stdout.write(`${JSON.stringify({ resolved: notice })}\n`),
);
await runtime.ask(question.input, {
  requestId: question.requestId,
  sessionId: question.sessionId,
  ...(question.context ? { context: question.context } : {}),
});
process.stdout.write(`${JSON.stringify({ announced: question.requestId })}\n`);
