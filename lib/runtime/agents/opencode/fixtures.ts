// OpenCode 1.18.33's own shapes, as the binary sent them (question.asked, permission.asked, GET /session/:id).
import {
  OpenCodePermissionRequestSchema,
  OpenCodeQuestionRequestSchema,
  type OpenCodePermissionRequest,
  type OpenCodeQuestionRequest,
  type OpenCodeSession,
} from './opencode-shapes';

export const SESSION = 'ses_dcf620998ffee4bnn0QDSRMbb2';
export const CHILD_SESSION = 'ses_dcf608eb6ffehDHDEHcULkq4Wz';

export function questionAsked(overrides: Partial<OpenCodeQuestionRequest> = {}): OpenCodeQuestionRequest {
  return OpenCodeQuestionRequestSchema.parse({
    id: 'que_2309dfd01001aQEsFqqjXdJZik',
    sessionID: SESSION,
    questions: [
      {
        question: 'Which database?',
        header: 'Database',
        options: [
          { label: 'Postgres', description: 'Server DB' },
          { label: 'SQLite', description: 'File DB' },
        ],
      },
    ],
    tool: { messageID: 'msg_2309df99e001wF3HvueeN0lVXf', callID: 'call_single' },
    ...overrides,
  });
}

export function permissionAsked(overrides: Record<string, unknown> = {}): OpenCodePermissionRequest {
  return OpenCodePermissionRequestSchema.parse({
    id: 'per_2309eec49001KT6V00Q1w6x8xd',
    sessionID: SESSION,
    permission: 'bash',
    patterns: ['echo hi-once'],
    metadata: { command: 'echo hi-once' },
    always: ['echo *'],
    tool: { messageID: 'msg_2309ee90f001MvE187lhECApLh', callID: 'call_once' },
    ...overrides,
  });
}

export const EDIT_DIFF =
  'Index: /home/ada/shop/notes.txt\n===================================================================\n--- /home/ada/shop/notes.txt\n+++ /home/ada/shop/notes.txt\n@@ -1,1 +1,1 @@\n-alpha\n+beta\n';
export const NEW_FILE_DIFF =
  'Index: /home/ada/shop/new.txt\n===================================================================\n--- /home/ada/shop/new.txt\n+++ /home/ada/shop/new.txt\n@@ -0,0 +1,1 @@\n+fresh\n';

export const topSession: OpenCodeSession = { id: SESSION, title: 'Set up the shop', agent: 'build' };
export const childSession: OpenCodeSession = {
  id: CHILD_SESSION,
  title: 'run sub (@general subagent)',
  parentID: SESSION,
  agent: 'general',
};
