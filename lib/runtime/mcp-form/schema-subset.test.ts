import { describe, expect, it } from 'vitest';
import { formContentProblem } from './form-content';
import { formFieldsOf } from './form-fields';
import { formInputOf } from './form-input';
import { FORM_OPTIONS_MAX, schemaSubsetProblem } from './schema-subset';

// A requestedSchema outside MCP's flat subset stays in the agent's terminal, and never reaches AJV on the hub
// (R12.12). Each family below is a way to put a rule (often a `pattern`, a regular expression from outside) where
// a deny-list of property keywords did not look. The patterns here are harmless; the catastrophic ones run
// against a real host process (lib/host/host-hostile-patterns.test.ts).

const note = { type: 'string' };
const form = (extra: Record<string, unknown>, properties: Record<string, unknown> = { note }) => ({
  type: 'object',
  properties,
  ...extra,
});
const field = (schema: Record<string, unknown>) => form({}, { note: schema });
const choices = { type: 'string', enum: ['a', 'b'] };
const list = (items: Record<string, unknown>) => field({ type: 'array', items });

const FAMILIES: [family: string, schema: Record<string, unknown>, problem: string][] = [
  // Composition and conditionals beside the properties, at the top or in a property.
  ['allOf', form({ allOf: [{ properties: { note: { pattern: '^a' } } }] }), 'allOf'],
  ['anyOf', form({ anyOf: [{ properties: { note: { pattern: '^a' } } }] }), 'anyOf'],
  ['oneOf', form({ oneOf: [{ properties: { note: { pattern: '^a' } } }] }), 'oneOf'],
  ['not', form({ not: { properties: { note: { pattern: '^b' } } } }), 'not'],
  ['if/then', form({ if: { required: ['note'] }, then: { properties: { note: { pattern: '^a' } } } }), 'if'],
  ['property allOf', field({ type: 'string', allOf: [{ pattern: '^a' }] }), 'allOf'],
  ['property not', field({ type: 'string', not: { pattern: '^b' } }), 'not'],
  ['property anyOf of rules', field({ type: 'string', anyOf: [{ pattern: '^a' }] }), 'not a list of choices'],
  ['property oneOf of rules', field({ type: 'string', oneOf: [{ const: 'a', pattern: '^a' }] }), 'oneOf: pattern'],
  // References.
  ['$ref', form({ $defs: { n: { pattern: '^a' } } }, { note: { $ref: '#/$defs/n' } }), '$defs'],
  ['property $ref', field({ type: 'string', $ref: '#/properties/other' }), '$ref'],
  ['definitions', form({ definitions: { n: { pattern: '^a' } } }), 'definitions'],
  ['$id', form({ $id: 'https://example.com/form' }), '$id'],
  // Pattern-keyed and schema-valued properties.
  ['patternProperties', form({ patternProperties: { '^(a+)+$': { type: 'string' } } }), 'patternProperties'],
  ['propertyNames', form({ propertyNames: { pattern: '^a' } }), 'propertyNames'],
  ['additionalProperties schema', form({ additionalProperties: { pattern: '^a' } }), 'additionalProperties'],
  ['dependentSchemas', form({ dependentSchemas: { note: { required: ['x'] } } }), 'dependentSchemas'],
  ['unevaluatedProperties', form({ unevaluatedProperties: false }), 'unevaluatedProperties'],
  // Nested objects.
  ['nested object', field({ type: 'object', properties: { inner: note } }), 'type the phone cannot ask for'],
  ['properties in a string', field({ type: 'string', properties: { inner: note } }), 'properties'],
  ['type list', field({ type: ['string', 'null'] }), 'type the phone cannot ask for'],
  ['type from the prototype', field({ type: 'constructor' }), 'type the phone cannot ask for ("constructor")'],
  // A property's own rules beyond MCP's.
  ['pattern', field({ type: 'string', pattern: '^a' }), 'pattern'],
  ['const', field({ type: 'string', const: 'a' }), 'const'],
  ['format', field({ type: 'string', format: 'regex' }), 'format the phone cannot check ("regex")'],
  ['multipleOf', field({ type: 'integer', multipleOf: 5 }), 'multipleOf'],
  ['unknown keyword', field({ type: 'boolean', 'x-validate': '^a' }), 'x-validate'],
  // A list's items.
  ['items pattern', list({ type: 'string', enum: ['a', 'b'], pattern: '^(a+)+$' }), 'items have a rule'],
  ['items allOf', list({ enum: ['a'], allOf: [{ pattern: '^a' }] }), 'allOf'],
  ['items nested list', list({ type: 'array', items: choices }), 'not a list of choices'],
  ['items free text', list({ type: 'string' }), 'not a list of choices'],
  ['items option pattern', list({ anyOf: [{ const: 'a', title: 'A', pattern: '^a' }] }), 'anyOf: pattern'],
  ['contains', field({ type: 'array', items: choices, contains: { pattern: '^a' } }), 'contains'],
  ['prefixItems', field({ type: 'array', items: choices, prefixItems: [{ pattern: '^a' }] }), 'prefixItems'],
  ['uniqueItems', field({ type: 'array', items: choices, uniqueItems: true }), 'uniqueItems'],
  // Values a validator would read differently from the phone.
  ['minLength as text', field({ type: 'string', minLength: '2' }), 'minLength: "2"'],
  ['maxItems fraction', field({ type: 'array', items: choices, maxItems: 1.5 }), 'maxItems: 1.5'],
  ['minimum as text', field({ type: 'number', minimum: '1' }), 'minimum: "1"'],
  ['enum of numbers', field({ type: 'string', enum: [1, 2] }), 'choices that are not text'],
  ['enum and oneOf', field({ ...choices, oneOf: [{ const: 'a' }] }), 'choices twice'],
  ['required as text', form({ required: 'note' }), 'required list'],
  ['properties as a list', form({ properties: [note] }), 'no list of fields'],
];

describe('[R12.12] a requestedSchema outside MCP’s subset', () => {
  it.each(FAMILIES)('[R12.12] %s: stays in the terminal, saying why', (_family, schema, problem) => {
    expect(schemaSubsetProblem(schema)).toContain(problem);
    const result = formFieldsOf(schema);
    expect('problem' in result && result.problem).toContain(problem);
    expect(formInputOf({ serverName: 'srv', message: 'Fill in', mode: 'form', requestedSchema: schema })).toEqual({
      unsupported: schemaSubsetProblem(schema),
    });
  });

  it.each(FAMILIES)('[R12.12] %s: refused before AJV, whatever the answer', (_family, schema) => {
    // Values AJV would take for most of these schemas: the refusal is the subset check's, not AJV's verdict.
    expect(formContentProblem(schema, { note: 'a' })).toMatch(/^the form's schema is not one the phone can check/);
    expect(formContentProblem(schema, {})).toMatch(/^the form's schema is not one the phone can check/);
  });

  it('[R12.12] more choices than a card carries, or more fields, is refused before anything is compiled', () => {
    const many = Array.from({ length: FORM_OPTIONS_MAX + 1 }, (_, index) => `o${index}`);
    expect(schemaSubsetProblem(field({ type: 'string', enum: many }))).toBe(
      `"note" has ${FORM_OPTIONS_MAX + 1} choices, more than ${FORM_OPTIONS_MAX}`,
    );
    expect(schemaSubsetProblem(list({ anyOf: many.map((value) => ({ const: value })) }))).toContain('101 choices');
    const fields = Object.fromEntries(Array.from({ length: 31 }, (_, index) => [`f${index}`, note]));
    expect(schemaSubsetProblem(form({}, fields))).toBe('the form has 31 fields, more than 30');
  });

  it('[R12.12][R18.4] everything MCP’s PrimitiveSchemaDefinition allows is inside the subset', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      title: 'Deploy',
      description: 'Where and how',
      additionalProperties: false,
      properties: {
        text: { type: 'string', title: 'T', description: 'D', minLength: 1, maxLength: 9, default: 'x' },
        email: { type: 'string', format: 'email' },
        uri: { type: 'string', format: 'uri' },
        date: { type: 'string', format: 'date' },
        when: { type: 'string', format: 'date-time' },
        count: { type: 'integer', minimum: 1, maximum: 9, default: 2 },
        ratio: { type: 'number', minimum: 0.5, maximum: 1.5 },
        ok: { type: 'boolean', default: true },
        plain: { type: 'string', enum: ['a', 'b'], default: 'a' },
        legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['A', 'B'] },
        titled: { type: 'string', oneOf: [{ const: 'a', title: 'A' }] },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1, maxItems: 2, default: ['a'] },
        picks: { type: 'array', items: { anyOf: [{ const: 'a', title: 'A' }] } },
      },
      required: ['text', 'tags'],
    };
    expect(schemaSubsetProblem(schema)).toBeNull();
    expect(formFieldsOf(schema)).toHaveProperty('fields');
    expect(
      formContentProblem(schema, {
        text: 'x',
        email: 'ops@example.com',
        uri: 'https://example.com',
        date: '2027-03-01',
        when: '2027-03-01T10:30:00Z',
        tags: ['a'],
      }),
    ).toBeNull();
    expect(formContentProblem(schema, { text: 'x', tags: ['c'] })).toContain('must be equal to one of the allowed');
  });
});
