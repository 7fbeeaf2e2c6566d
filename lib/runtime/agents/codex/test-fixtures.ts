// Server requests exactly as Codex 0.171.0 sent them to a second client (recorded against the real binary).

export const THREAD_ID = '01a2309c-7821-7a31-9c2e-4d8f2b1e0a11';
export const TURN_ID = '01a2309c-9e8d-7c0e-8a51-2f3b7c9d1e22';

/** `item/tool/requestUserInput` in Plan mode: three questions, the last one marked secret by the model. */
export const requestUserInputParams = {
  threadId: THREAD_ID,
  turnId: TURN_ID,
  itemId: 'call_LABQ1_t0_1',
  questions: [
    {
      id: 'color',
      header: 'Color',
      question: 'Which color?',
      isOther: true,
      isSecret: false,
      options: [
        { label: 'Red (Recommended)', description: 'Warm.' },
        { label: 'Blue', description: 'Cool.' },
      ],
    },
    {
      id: 'size',
      header: 'Size',
      question: 'Which size?',
      isOther: true,
      isSecret: false,
      options: [
        { label: 'Small', description: 'Fits.' },
        { label: 'Large', description: 'Roomy.' },
      ],
    },
    {
      id: 'token',
      header: 'Token',
      question: 'Paste a token?',
      isOther: true,
      isSecret: true,
      options: [
        { label: 'No token', description: 'Skip it.' },
        { label: 'Later', description: 'Ask again.' },
      ],
    },
  ],
  isBlocking: true,
  autoResolutionMs: null,
};

/** `item/commandExecution/requestApproval` for an escalated command (on-request, read-only sandbox). */
export const commandApprovalParams = {
  kind: 'command',
  threadId: THREAD_ID,
  turnId: TURN_ID,
  itemId: 'call_LABE1_t0_0',
  startedAtMs: 1796112164763,
  environmentId: 'local',
  reason: 'Allow writing outside-e1.txt outside the workspace?',
  command: "/bin/bash -lc 'touch /work/outside-e1.txt'",
  cwd: '/work/project',
  commandActions: [{ type: 'unknown', command: 'touch /work/outside-e1.txt' }],
  proposedExecpolicyAmendment: ['touch'],
  availableDecisions: ['accept', { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['touch'] } }, 'cancel'],
};

/** `item/fileChange/requestApproval`: no diff in it; the diff came just before in `item/started`. */
export const fileChangeApprovalParams = {
  threadId: THREAD_ID,
  turnId: TURN_ID,
  itemId: 'call_LABP1_t0_0',
  startedAtMs: 1796112235764,
  reason: null,
  grantRoot: null,
};

export const fileChangeItemStarted = {
  threadId: THREAD_ID,
  turnId: TURN_ID,
  startedAtMs: 1796112235700,
  item: {
    type: 'fileChange',
    id: 'call_LABP1_t0_0',
    changes: [{ path: '/work/project/patch1.txt', kind: { type: 'add' }, diff: 'hello from patch 1\n' }],
    status: 'inProgress',
  },
};

/** `item/permissions/requestApproval` (feature request_permissions_tool). */
export const permissionsApprovalParams = {
  threadId: THREAD_ID,
  turnId: TURN_ID,
  itemId: 'call_LABR1_t0_0',
  environmentId: 'local',
  startedAtMs: 1796112672084,
  cwd: '/work/project',
  reason: 'Need to write /work/cache',
  permissions: {
    network: null,
    fileSystem: {
      read: null,
      write: ['/work/cache'],
      entries: [{ path: { type: 'path', path: '/work/cache' }, access: 'write' }],
    },
  },
};

/** Codex's own approval of an MCP tool call, sent as an elicitation. */
export const mcpToolApprovalParams = {
  threadId: THREAD_ID,
  turnId: TURN_ID,
  serverName: 'labelicit',
  environmentId: null,
  mode: 'form',
  _meta: {
    codex_approval_kind: 'mcp_tool_call',
    persist: ['session', 'always'],
    tool_name: 'ask_form',
    tool_description: 'Ask the user for a color through an elicitation form.',
    tool_params: {},
    tool_params_display: [],
  },
  message: 'Allow the labelicit MCP server to run tool "ask_form"?',
  requestedSchema: { type: 'object', properties: {} },
};

/** The MCP server's own form. */
export const elicitationFormParams = {
  threadId: THREAD_ID,
  turnId: TURN_ID,
  serverName: 'labelicit',
  environmentId: null,
  mode: 'form',
  _meta: null,
  message: 'Pick a color for the widget',
  requestedSchema: {
    type: 'object',
    properties: {
      color: { type: 'string', title: 'Color', description: 'The widget color', enum: ['red', 'blue'] },
      note: { type: 'string', title: 'Note', description: 'Anything else?' },
    },
    required: ['color'],
  },
};

export const elicitationUrlParams = {
  threadId: THREAD_ID,
  turnId: TURN_ID,
  serverName: 'labelicit',
  environmentId: null,
  mode: 'url',
  _meta: null,
  message: 'Open this page to authorize',
  url: 'https://example.invalid/authorize',
  elicitationId: 'lab-url-1',
};
