import { describe, expect, it } from 'vitest';
import { FormFieldSchema } from '../../contracts';
import { formFieldsOf } from './form-fields';

describe('[R18.12] MCP form fields from requestedSchema', () => {
  it('[R18.12] covers every field type MCP allows, with titles, defaults, bounds and required', () => {
    const result = formFieldsOf({
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email', minLength: 3, maxLength: 80, default: 'a@b.c' },
        count: { type: 'integer', minimum: 1, maximum: 9, default: 2 },
        ratio: { type: 'number', minimum: 0, maximum: 1 },
        ok: { type: 'boolean', title: 'OK?', default: true },
        size: {
          type: 'string',
          oneOf: [
            { const: 's', title: 'Small' },
            { const: 'l', title: 'Large' },
          ],
          default: 's',
        },
        legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['Apple', 'Banana'] },
        tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, minItems: 1, maxItems: 2, default: ['x'] },
        titled: { type: 'array', items: { anyOf: [{ const: 'p', title: 'P' }] } },
      },
      required: ['email', 'tags'],
    });
    if ('problem' in result) throw new Error(result.problem);
    for (const field of result.fields) FormFieldSchema.parse(field);
    expect(result.fields).toEqual([
      { name: 'email', required: true, type: 'string', format: 'email', minLength: 3, maxLength: 80, default: 'a@b.c' },
      { name: 'count', required: false, type: 'integer', minimum: 1, maximum: 9, default: 2 },
      { name: 'ratio', required: false, type: 'number', minimum: 0, maximum: 1 },
      { name: 'ok', title: 'OK?', required: false, type: 'boolean', default: true },
      {
        name: 'size',
        required: false,
        type: 'enum',
        multiple: false,
        options: [
          { value: 's', label: 'Small' },
          { value: 'l', label: 'Large' },
        ],
        default: 's',
      },
      {
        name: 'legacy',
        required: false,
        type: 'enum',
        multiple: false,
        options: [
          { value: 'a', label: 'Apple' },
          { value: 'b', label: 'Banana' },
        ],
      },
      {
        name: 'tags',
        required: true,
        type: 'enum',
        multiple: true,
        options: [{ value: 'x' }, { value: 'y' }],
        minItems: 1,
        maxItems: 2,
        default: ['x'],
      },
      { name: 'titled', required: false, type: 'enum', multiple: true, options: [{ value: 'p', label: 'P' }] },
    ]);
  });

  it('[R18.12] a schema the phone cannot show says why', () => {
    expect(formFieldsOf({ type: 'array' })).toEqual({ problem: 'the form is not an object schema' });
    expect(formFieldsOf({ type: 'object', properties: { nested: { type: 'object' } } })).toEqual({
      problem: '"nested" has a type the phone cannot ask for ("object")',
    });
    expect(formFieldsOf({ type: 'object', properties: {} })).toEqual({ fields: [] });
  });

  it('[R18.4] a rule beyond MCP’s subset keeps the form in the terminal: the server checks its whole schema', () => {
    const one = (schema: Record<string, unknown>) => formFieldsOf({ type: 'object', properties: { x: schema } });
    expect(one({ type: 'string', pattern: '^a' })).toEqual({
      problem: '"x" has a rule the phone cannot check (pattern)',
    });
    expect(one({ type: 'number', exclusiveMinimum: 0 })).toEqual({
      problem: '"x" has a rule the phone cannot check (exclusiveMinimum)',
    });
    expect(one({ type: 'integer', multipleOf: 5 })).toEqual({
      problem: '"x" has a rule the phone cannot check (multipleOf)',
    });
    expect(one({ type: 'string', format: 'ipv4' })).toEqual({
      problem: '"x" has a format the phone cannot check ("ipv4")',
    });
    expect(formFieldsOf({ type: 'object', properties: { x: { type: 'string' } }, required: ['x', 'y'] })).toEqual({
      problem: 'the form requires "y", which it does not ask for',
    });
  });
});
