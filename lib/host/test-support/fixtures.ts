import { randomUUID } from 'node:crypto';
import { type InteractionRequest } from '../../contracts';

/** A valid AskUserQuestion announce with two questions ("Which database?", "Which extras?"). */
export function questionRequest(overrides: Partial<InteractionRequest> = {}): InteractionRequest {
  return {
    requestId: `req-${randomUUID()}`,
    protocolRequestId: `proto-${randomUUID()}`,
    sessionId: 'session-root',
    toolName: 'AskUserQuestion',
    createdAt: new Date().toISOString(),
    kind: 'question',
    input: {
      questions: [
        {
          question: 'Which database?',
          header: 'Database',
          options: [
            { label: 'Postgres (Recommended)', description: 'Relational, battle tested' },
            { label: 'SQLite', description: 'One file, no server' },
          ],
          multiSelect: false,
        },
        {
          question: 'Which extras?',
          header: 'Extras',
          options: [
            { label: 'Metrics', description: 'Prometheus endpoint' },
            { label: 'Tracing', description: 'OpenTelemetry spans' },
          ],
          multiSelect: true,
        },
      ],
    },
    ...overrides,
  } as InteractionRequest;
}

export function permissionRequest(overrides: Partial<InteractionRequest> = {}): InteractionRequest {
  return {
    requestId: `req-${randomUUID()}`,
    protocolRequestId: `proto-${randomUUID()}`,
    sessionId: 'session-root',
    toolName: 'Bash',
    createdAt: new Date().toISOString(),
    kind: 'permission',
    input: { command: 'npm test' },
    ...overrides,
  } as InteractionRequest;
}

/** The question of `secretQuestionRequest` whose answer is secret (R18.5). */
export const SECRET_TOKEN_QUESTION = 'Paste the deploy token';

/** What Codex's bridge announces for a `request_user_input` whose first question the model marked `isSecret`. */
export function secretQuestionRequest(): InteractionRequest {
  return {
    requestId: `req-${randomUUID()}`,
    protocolRequestId: `proto-${randomUUID()}`,
    sessionId: 'thread-1',
    toolName: 'request_user_input',
    createdAt: new Date().toISOString(),
    kind: 'question',
    agent: { kind: 'codex', name: 'Codex', version: '0.171.0' },
    inputRules: 'agent',
    input: {
      questions: [
        { question: SECRET_TOKEN_QUESTION, header: 'Token', kind: 'text', secret: true },
        { question: 'Which region?', header: 'Region', allowOther: false, options: [{ label: 'eu' }, { label: 'us' }] },
      ],
    },
  } as InteractionRequest;
}
