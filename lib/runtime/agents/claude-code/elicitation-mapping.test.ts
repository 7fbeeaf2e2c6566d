import { describe, expect, it } from 'vitest';
import { FormInputSchema } from '../../../contracts';
import { type RuntimeClientProvider } from '../../runtime-client-provider';
import { elicitationCalls } from './fixtures';
import { handleClaudeCodeHook } from './handle-hook';
import { ElicitationPayloadSchema, type ElicitationPayload } from './hook-payload';
import { toElicitationOutput } from './to-answer';
import { toElicitationInput } from './to-interaction';

// The Elicitation hook's payload as a form card, and the phone's response as the hook's output (R11.11, R18.4),
// on the payloads Claude Code 2.1.332 sent for the e2e suite's MCP server.

const form = ElicitationPayloadSchema.parse(elicitationCalls.form);
const url = ElicitationPayloadSchema.parse(elicitationCalls.url);
const withSchema = (requestedSchema: unknown): ElicitationPayload => ({ ...form, requested_schema: requestedSchema });

const VALID = {
  name: 'payments',
  email: 'ops@example.com',
  launch: '2027-03-01',
  replicas: 3,
  ratio: 0.25,
  public: true,
  region: 'us',
  tier: 'pro',
  features: ['logs', 'traces'],
};

describe('[R11.11] an MCP form from the Elicitation hook, as the card shows it', () => {
  it('[R11.11][R18.4] carries the server, its message and every field with its type, title, bounds, default, options and need', () => {
    const input = toElicitationInput(form);
    if ('unsupported' in input) throw new Error(input.unsupported);
    expect(FormInputSchema.parse(input)).toEqual(input);
    expect(input).toEqual({
      serverName: 'elicit',
      message: 'Tell us about the service',
      mode: 'form',
      fields: [
        {
          name: 'name',
          title: 'Service name',
          description: 'A short name',
          required: true,
          type: 'string',
          minLength: 2,
          maxLength: 30,
          default: 'api',
        },
        { name: 'email', title: 'Owner email', required: false, type: 'string', format: 'email' },
        { name: 'launch', title: 'Launch day', required: false, type: 'string', format: 'date' },
        { name: 'replicas', title: 'Replicas', required: false, type: 'integer', minimum: 1, maximum: 10, default: 2 },
        { name: 'ratio', title: 'Canary ratio', required: false, type: 'number', minimum: 0, maximum: 1 },
        { name: 'public', title: 'Public endpoint', required: false, type: 'boolean', default: false },
        {
          name: 'region',
          title: 'Region',
          required: true,
          type: 'enum',
          multiple: false,
          options: [
            { value: 'eu', label: 'Europe' },
            { value: 'us', label: 'United States' },
          ],
          default: 'eu',
        },
        {
          name: 'tier',
          title: 'Tier',
          required: false,
          type: 'enum',
          multiple: false,
          options: [
            { value: 'free', label: 'Free tier' },
            { value: 'pro', label: 'Pro tier' },
          ],
        },
        {
          name: 'features',
          title: 'Features',
          required: true,
          type: 'enum',
          multiple: true,
          options: [{ value: 'logs' }, { value: 'metrics' }, { value: 'traces' }],
          minItems: 1,
          maxItems: 2,
          default: ['logs'],
        },
      ],
    });
  });

  it('[R11.11] a page to open is a link; anything the phone cannot show stays in the terminal, saying why', () => {
    expect(toElicitationInput(url)).toEqual({
      serverName: 'elicit',
      message: 'Sign in to the deploy service',
      mode: 'url',
      fields: [],
      url: 'https://deploy.example/authorize?state=e2e',
    });
    expect(toElicitationInput({ ...url, url: 'javascript:alert(1)' })).toEqual({
      unsupported: 'the page to open is not an http(s) URL',
    });
    expect(toElicitationInput({ ...url, url: `https://deploy.example/${'a'.repeat(4_000)}` })).toMatchObject({
      unsupported: expect.stringContaining('longer than 4000') as unknown,
    });
    expect(toElicitationInput({ ...form, mode: 'telepathy' })).toEqual({
      unsupported: 'an elicitation in mode "telepathy"',
    });
    expect(toElicitationInput(withSchema(undefined))).toEqual({ unsupported: 'the form is not an object schema' });
    expect(
      toElicitationInput(withSchema({ type: 'object', properties: { where: { type: 'object', properties: {} } } })),
    ).toEqual({ unsupported: '"where" has a type the phone cannot ask for ("object")' });
    // The server checks its whole schema: a rule the phone does not check would fail there.
    expect(
      toElicitationInput(withSchema({ type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]+$' } } })),
    ).toEqual({ unsupported: '"code" has a rule the phone cannot check (pattern)' });
    expect(
      toElicitationInput(withSchema({ type: 'object', properties: { id: { type: 'string', format: 'uuid' } } })),
    ).toEqual({ unsupported: '"id" has a format the phone cannot check ("uuid")' });
    expect(toElicitationInput(withSchema({ type: 'object', properties: {}, required: ['token'] }))).toEqual({
      unsupported: 'the form requires "token", which it does not ask for',
    });
  });
});

describe('[R11.11] the phone’s response as the Elicitation hook’s output', () => {
  it('[R11.11] accept sends the values as content; decline and cancel go as they are; a page to open takes none', () => {
    expect(toElicitationOutput(form, { action: 'accept', content: { values: VALID } })).toEqual({
      hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept', content: VALID },
    });
    const required = { name: 'ab', region: 'eu', features: ['metrics'] };
    expect(toElicitationOutput(form, { action: 'accept', content: { values: required } })).toEqual({
      hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept', content: required },
    });
    expect(toElicitationOutput(form, { action: 'decline', message: 'not this one' })).toEqual({
      hookSpecificOutput: { hookEventName: 'Elicitation', action: 'decline' },
    });
    expect(toElicitationOutput(form, { action: 'cancel' })).toEqual({
      hookSpecificOutput: { hookEventName: 'Elicitation', action: 'cancel' },
    });
    expect(toElicitationOutput(url, { action: 'accept' })).toEqual({
      hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept' },
    });
  });

  it('[R11.11] values that miss the server’s schema never go: the same check the MCP SDK’s server makes', () => {
    const problem = (values: Record<string, unknown>) => {
      const output = toElicitationOutput(form, { action: 'accept', content: { values } as never });
      return 'problem' in output ? output.problem : null;
    };
    expect(problem({ ...VALID, features: undefined })).toContain("must have required property 'features'");
    expect(problem({ ...VALID, name: 'x' })).toContain('data/name must NOT have fewer than 2 characters');
    expect(problem({ ...VALID, replicas: 2.5 })).toContain('data/replicas must be integer');
    expect(problem({ ...VALID, replicas: 11 })).toContain('data/replicas must be <= 10');
    expect(problem({ ...VALID, region: 'mars' })).toContain('data/region must be equal to one of the allowed values');
    expect(problem({ ...VALID, features: ['logs', 'metrics', 'traces'] })).toContain(
      'data/features must NOT have more than 2 items',
    );
    // Looser rules than the server's formats (a phone's check, another host's) are caught here.
    expect(problem({ ...VALID, email: 'ops@localhost' })).toContain('data/email must match format "email"');
    expect(problem({ ...VALID, launch: '2027-02-30' })).toContain('data/launch must match format "date"');
    expect(problem(VALID)).toBeNull();
    // A schema outside MCP's subset is not guessed at, and never compiled (R12.12).
    const broken = toElicitationOutput(withSchema({ type: 'object', properties: { a: { $ref: '#/nowhere' } } }), {
      action: 'accept',
      content: { values: {} },
    });
    expect(broken).toMatchObject({
      problem: expect.stringContaining("the form's schema is not one the phone can check") as unknown,
    });
  });
});

describe('[R11.11] hostile or unknown Elicitation payloads', () => {
  const untouchable: RuntimeClientProvider = {
    get: () => {
      throw new Error('a payload the phone cannot take reached the runtime');
    },
    close: async () => undefined,
  };
  const run = async (payload: unknown) => {
    const lines: string[] = [];
    const reply = await handleClaudeCodeHook(payload, { runtime: untouchable, log: (line) => lines.push(line) });
    return { reply, log: lines.join('\n') };
  };

  it.each([
    ['no server name', { ...elicitationCalls.form, mcp_server_name: undefined }, 'mcp_server_name'],
    ['a message that is not text', { ...elicitationCalls.form, message: { text: 'hi' } }, 'message'],
    ['a session id of a megabyte', { ...elicitationCalls.form, session_id: 'x'.repeat(1_000_000) }, 'session_id'],
    [
      'a schema that is a string',
      { ...elicitationCalls.form, requested_schema: 'type: object' },
      'not an object schema',
    ],
    ['an unknown mode', { ...elicitationCalls.form, mode: 'telepathy' }, 'mode "telepathy"'],
    ['a URL without its page', { ...elicitationCalls.url, url: undefined }, 'not an http(s) URL'],
    [
      'a form nested a thousand deep',
      { ...elicitationCalls.form, requested_schema: nested(1_000) },
      'has a type the phone cannot ask for',
    ],
  ])('[R11.11] %s: no decision (Claude Code shows its own form) and a line on stderr', async (_name, payload, said) => {
    const { reply, log } = await run(payload);
    expect(reply).toEqual({});
    expect(log).toContain(said);
    expect(log).toContain('Claude Code asks instead');
  });
});

function nested(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < depth; level += 1) schema = { type: 'object', properties: { inner: schema } };
  return schema;
}
