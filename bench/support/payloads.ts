import { type AskUserQuestionInput, type InteractionRequest, type InteractionResponse } from '../../lib/contracts';
import { type PermissionRequest } from '../../lib/core/tool-types';

/** A typical two-question AskUserQuestion input, about 1 KB of JSON with its context. */
export const QUESTION_INPUT: AskUserQuestionInput = {
  questions: [
    {
      question: 'Which database should the service use?',
      header: 'Database',
      multiSelect: false,
      options: [
        {
          label: 'Postgres (Recommended)',
          description: 'Relational, battle tested, already used by the billing service',
        },
        { label: 'SQLite', description: 'One file, no server; fine for a single instance' },
        { label: 'DynamoDB', description: 'Managed key-value store; needs access patterns up front' },
      ],
    },
    {
      question: 'Which extras should ship in the first release?',
      header: 'Extras',
      multiSelect: true,
      options: [
        { label: 'Metrics', description: 'Prometheus endpoint at /metrics' },
        { label: 'Tracing', description: 'OpenTelemetry spans for every request' },
        { label: 'Audit log', description: 'Append-only record of admin actions' },
      ],
    },
  ],
};

/** What a question's row shows as its title, on the app and on the plain page alike. */
export const QUESTION_TITLE = QUESTION_INPUT.questions[0]?.question ?? '';

export const AGENT_MESSAGE =
  'I have read the service skeleton and the deployment notes. Two decisions are yours: the storage engine, which ' +
  'changes the migration tooling I set up next, and which operational extras to include now rather than later.';

/** What the remote answers: accept with one answer per question. */
export const ANSWER: InteractionResponse = {
  action: 'accept',
  content: {
    answers: {
      [QUESTION_INPUT.questions[0]?.question ?? '']: 'SQLite',
      [QUESTION_INPUT.questions[1]?.question ?? '']: 'Metrics, Tracing',
    },
  },
};

export function permissionRequest(requestId: string, sessionId: string): PermissionRequest {
  return {
    requestId,
    sessionId,
    toolName: 'AskUserQuestion',
    toolUseId: `tool-${requestId}`,
    input: QUESTION_INPUT,
    context: { agentMessage: AGENT_MESSAGE, cwd: '/home/dev/projects/service', projectName: 'service' },
    origin: { kind: 'root', label: 'main', path: [], depth: 0, sessionId },
  };
}

/** The wire announce the broker would build for the same request. */
export function interactionRequest(
  requestId: string,
  sessionId: string,
  protocolRequestId = `${requestId}-p0`,
): InteractionRequest {
  return {
    kind: 'question',
    input: QUESTION_INPUT,
    requestId,
    protocolRequestId,
    sessionId,
    origin: { kind: 'root', label: 'main', path: [], depth: 0, sessionId },
    toolName: 'AskUserQuestion',
    toolUseId: `tool-${requestId}`,
    context: { agentMessage: AGENT_MESSAGE, cwd: '/home/dev/projects/service', projectName: 'service' },
    createdAt: new Date().toISOString(),
  };
}
