import { randomUUID } from 'node:crypto';
import { type FormValues } from '../../contracts';

/**
 * MCP forms whose `requestedSchema` carries a catastrophic regular expression where a check of each property's
 * own `pattern` does not look, each with the answer that sets it off (R12.12). A backtracking engine takes
 * longer than the age of the universe on any of them; the hub must never compile one.
 */
export interface HostilePatternForm {
  name: string;
  requestedSchema: Record<string, unknown>;
  /** What the person answers on the phone, if the phone shows the form. */
  values: FormValues;
}

/** Exponential under `^(\w+\s?)*$`: words, then a comma and a `!` the pattern cannot take. */
export const HOSTILE_TEXT = 'Please ship the hotfix to staging tonight, thanks!';
/** Exponential under `^(a+)+$`. */
export const HOSTILE_OPTION = `${'a'.repeat(40)}!`;
const WORDS = '^(\\w+\\s?)*$';
const AS = '^(a+)+$';

const text = { type: 'string', title: 'Note' };
const withNote = (extra: Record<string, unknown>, note: Record<string, unknown> = text) => ({
  type: 'object',
  properties: { note },
  required: ['note'],
  ...extra,
});
const rule = { properties: { note: { pattern: WORDS } } };
const note = { note: HOSTILE_TEXT };

export const HOSTILE_PATTERN_FORMS: HostilePatternForm[] = [
  { name: 'allOf', requestedSchema: withNote({ allOf: [rule] }), values: note },
  { name: 'anyOf', requestedSchema: withNote({ anyOf: [rule] }), values: note },
  { name: 'oneOf', requestedSchema: withNote({ oneOf: [rule] }), values: note },
  {
    name: 'not',
    requestedSchema: withNote({ not: { properties: { note: { not: { pattern: WORDS } } } } }),
    values: note,
  },
  { name: 'if', requestedSchema: withNote({ if: rule, then: { required: ['note'] } }), values: note },
  { name: 'dependencies', requestedSchema: withNote({ dependencies: { note: rule } }), values: note },
  {
    name: 'patternProperties',
    requestedSchema: withNote({ patternProperties: { '^note$': { pattern: WORDS } } }),
    values: note,
  },
  {
    name: 'propertyNames',
    requestedSchema: {
      type: 'object',
      properties: { [HOSTILE_TEXT]: { type: 'boolean' } },
      propertyNames: { pattern: WORDS },
    },
    values: { [HOSTILE_TEXT]: true },
  },
  {
    name: '$ref',
    requestedSchema: withNote({ $defs: { note: { pattern: WORDS } } }, { ...text, $ref: '#/$defs/note' }),
    values: note,
  },
  { name: 'pattern', requestedSchema: withNote({}, { ...text, pattern: WORDS }), values: note },
  {
    name: 'items.pattern',
    requestedSchema: {
      type: 'object',
      properties: { picks: { type: 'array', items: { type: 'string', enum: [HOSTILE_OPTION, 'b'], pattern: AS } } },
    },
    values: { picks: [HOSTILE_OPTION] },
  },
  {
    name: 'items.anyOf[].pattern',
    requestedSchema: {
      type: 'object',
      properties: {
        picks: { type: 'array', items: { anyOf: [{ const: HOSTILE_OPTION, title: 'All of them', pattern: AS }] } },
      },
    },
    values: { picks: [HOSTILE_OPTION] },
  },
  {
    name: 'oneOf[].pattern',
    requestedSchema: {
      type: 'object',
      properties: { pick: { type: 'string', oneOf: [{ const: HOSTILE_OPTION, title: 'All', pattern: AS }] } },
    },
    values: { pick: HOSTILE_OPTION },
  },
];

/** A Claude Code Elicitation hook payload for `requestedSchema`, in a session of its own. */
export function elicitationPayload(requestedSchema: unknown) {
  return {
    session_id: `patterns-${randomUUID()}`,
    cwd: '/work/project',
    hook_event_name: 'Elicitation',
    mcp_server_name: 'hostile',
    message: 'A few details before I deploy',
    mode: 'form',
    requested_schema: requestedSchema,
  };
}

/** Codex's `mcpServer/elicitation/request` params for `requestedSchema` in `threadId`. */
export function codexElicitationParams(threadId: string, requestedSchema: unknown) {
  return {
    threadId,
    turnId: 'turn-patterns',
    serverName: 'hostile',
    mode: 'form',
    _meta: null,
    message: 'A few details before I deploy',
    requestedSchema,
  };
}
