import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import {
  AnnounceAckSchema,
  AnnounceBatchAckSchema,
  AnnounceBatchSchema,
  HostEventSchema,
  InteractionRequestSchema,
  InteractionResolutionSchema,
  PreferencesPatchSchema,
  ResolutionAckCommandSchema,
  ResolvedNoticeSchema,
  RespondCommandSchema,
  SimpleAckSchema,
  WithdrawCommandSchema,
} from '../contracts';
import { safeParseHot } from './hot-parse';

afterEach(() => {
  vi.useRealTimers();
});

const at = '2030-01-02T03:04:05.000Z';
const resolution = {
  requestId: 'req-1',
  response: {
    action: 'accept',
    content: { answers: { 'Which database?': 'SQLite' }, annotations: { 'Which database?': { notes: 'small' } } },
  },
  resolvedBy: 'user',
  resolvedAt: at,
  clientResponseId: 'answer-1',
  device: { id: 'phone', label: 'Phone' },
};
const question = {
  kind: 'question',
  requestId: 'req-1',
  protocolRequestId: 'proto-1',
  sessionId: 'session-1',
  toolName: 'AskUserQuestion',
  toolUseId: 'tool-1',
  createdAt: at,
  origin: { kind: 'subagent', label: 'reviewer', path: ['reviewer'], depth: 1, agentId: 'agent-1' },
  context: { agentMessage: 'Two choices are yours.', cwd: '/home/dev/service', projectName: 'service' },
  input: {
    questions: [
      {
        question: 'Which database?',
        header: 'Database',
        options: [
          { label: 'Postgres (Recommended)', description: 'Relational', preview: '<b>pg</b>' },
          { label: 'SQLite', description: 'One file', preview: 'plain text < 5 ms' },
        ],
      },
      {
        question: 'Which extras?',
        header: 'Extras',
        multiSelect: true,
        options: [
          { label: 'Metrics', description: 'Prometheus' },
          { label: 'Tracing', description: 'OpenTelemetry' },
        ],
      },
    ],
  },
};

const { protocolRequestId: _protocolRequestId, ...record } = question;
const requested = {
  seq: 7,
  at,
  type: 'interaction.requested',
  interaction: { ...record, requestId: 'local:req-1', machine: { id: 'local', name: 'This computer' } },
};

/**
 * Every schema a host or runtime parses on its message path, with valid messages of it (a team hub's replica parses
 * every event another appended).
 */
const CASES: [string, z.core.$ZodType, unknown[]][] = [
  [
    'InteractionRequest',
    InteractionRequestSchema,
    [
      question,
      { ...question, kind: 'plan-approval', toolName: 'ExitPlanMode', input: { plan: '# Plan', extra: 1 } },
      { ...question, kind: 'permission', toolName: 'Bash', input: { command: 'ls', flags: ['-l'] } },
    ],
  ],
  ['AnnounceBatch', AnnounceBatchSchema, [{ entries: [{ requestId: 'a', protocolRequestId: 'b' }] }]],
  [
    'RespondCommand',
    RespondCommandSchema,
    [
      { requestId: 'r', clientResponseId: 'c', response: resolution.response },
      { requestId: 'r', clientResponseId: 'c', response: { action: 'decline', message: 'no' } },
    ],
  ],
  ['WithdrawCommand', WithdrawCommandSchema, [{ requestId: 'r', reason: 'aborted' }, { requestId: 'r' }]],
  ['ResolutionAckCommand', ResolutionAckCommandSchema, [{ requestId: 'r' }]],
  ['PreferencesPatch', PreferencesPatchSchema, [{ askUserQuestionAutoResolutionEnabled: true }, {}]],
  ['InteractionResolution', InteractionResolutionSchema, [resolution]],
  ['ResolvedNotice', ResolvedNoticeSchema, [{ requestId: 'req-1', protocolRequestId: 'proto-1', resolution }]],
  [
    'AnnounceAck',
    AnnounceAckSchema,
    [
      { ok: true, status: 'pending', autoResolution: { status: 'disabled' } },
      {
        ok: true,
        status: 'pending',
        autoResolution: { status: 'scheduled', timeoutMs: 60_000, scheduledAt: at, deadlineAt: at },
      },
      { ok: true, status: 'resolved', resolution },
      { ok: true, status: 'withdrawn' },
      { ok: false, error: { code: 'rate-limited', message: 'slow down' } },
    ],
  ],
  [
    'AnnounceBatchAck',
    AnnounceBatchAckSchema,
    [{ ok: true, resolved: [{ requestId: 'req-1', resolution }], withdrawn: ['w'], unknown: [] }],
  ],
  ['SimpleAck', SimpleAckSchema, [{ ok: true }, { ok: false, error: { code: 'internal', message: 'x' } }]],
  [
    'HostEvent',
    HostEventSchema,
    [
      requested,
      { seq: 8, at, type: 'interaction.resolved', resolution: { ...resolution, requestId: 'local:req-1' } },
      { seq: 9, at, type: 'interaction.delivered', requestId: 'local:req-1' },
    ],
  ],
];

/** xorshift32: the same mutations on every run. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T };
}

const ODD_VALUES: unknown[] = [
  null,
  undefined,
  0,
  -1,
  1.5,
  true,
  '',
  ' ',
  'x'.repeat(300),
  'other',
  '<script>alert(1)</script>',
  '2030-01-02',
  [],
  {},
  { nested: 1 },
  ['a', 'a'],
];

/** A copy of `message` with one slot somewhere inside it replaced, removed or added. */
function mutate(rng: ReturnType<typeof random>, message: unknown): unknown {
  const copy: unknown = structuredClone(message);
  let node = copy;
  while (typeof node === 'object' && node !== null && rng.next() < 0.7) {
    const children = Object.values(node).filter((child) => typeof child === 'object' && child !== null);
    if (children.length === 0) break;
    node = rng.pick(children);
  }
  if (typeof node !== 'object' || node === null) return rng.pick(ODD_VALUES);
  const target = node as Record<string, unknown>;
  const key = rng.next() < 0.85 ? rng.pick(Object.keys(target).concat('extra')) : 'constructor';
  if (rng.next() < 0.25) delete target[key];
  else target[key] = rng.pick(ODD_VALUES);
  return copy;
}

function outcome(result: z.core.util.SafeParseResult<unknown>) {
  return result.success
    ? { success: true, data: result.data }
    : {
        success: false,
        issues: result.error.issues.map((issue) => ({ code: issue.code, path: issue.path, message: issue.message })),
      };
}

describe('hot parsing', () => {
  it('[R10.4] a compiled schema answers as the interpreted one: the same data, the same issues', () => {
    const rng = random(0x5eed);
    let rejected = 0;
    for (const [name, schema, valid] of CASES) {
      const compiled = z.compile(schema);
      const messages = [...valid, ...Array.from({ length: 150 }, () => mutate(rng, rng.pick(valid)))];
      for (const message of messages) {
        const expected = outcome(z.safeParse(schema, structuredClone(message)));
        if (!expected.success) rejected += 1;
        expect({ name, message, ...outcome(z.safeParse(compiled, structuredClone(message))) }).toEqual({
          name,
          message,
          ...expected,
        });
      }
      for (const message of valid) expect(z.safeParse(schema, message).success).toBe(true);
    }
    // The mutations reach the error path, not only the fast one.
    expect(rejected).toBeGreaterThan(500);
  });

  it('[R13.1] compiles a schema only once it is used a second time, and then off the call', () => {
    vi.useFakeTimers();
    const message = { requestId: 'r', reason: 'aborted' };
    const schema = z.strictObject({ requestId: z.string(), reason: z.optional(z.string()) });
    expect(safeParseHot(schema, message)).toEqual(z.safeParse(schema, message));
    expect(vi.getTimerCount()).toBe(0);
    expect(safeParseHot(schema, message)).toEqual(z.safeParse(schema, message));
    expect(vi.getTimerCount()).toBe(1);
    vi.runAllTimers();
    expect(safeParseHot(schema, message)).toEqual(z.safeParse(schema, message));
    expect(safeParseHot(schema, { requestId: 1 })).toEqual(z.safeParse(schema, { requestId: 1 }));
    expect(vi.getTimerCount()).toBe(0);
  });
});
