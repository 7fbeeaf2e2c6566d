import { describe, expect, it } from 'vitest';
import { formValuesProblem, type FormField } from '../../contracts';
import { formContentProblem } from './form-content';
import { formFieldsOf } from './form-fields';

// The card's (and the host's) rules against the check the MCP SDK's server makes on the answer: what the phone
// lets through must pass there, or the person's answer is lost on the way (R18.4, R11.11).

const CASES: [schema: Record<string, unknown>, value: string, valid: boolean][] = [
  [{ format: 'email' }, 'ops@example.com', true],
  [{ format: 'email' }, 'first.last+tag@sub.example.org', true],
  [{ format: 'email' }, 'ops@localhost', false],
  [{ format: 'email' }, 'a b@example.com', false],
  [{ format: 'email' }, 'ops@', false],
  [{ format: 'date' }, '2027-03-01', true],
  [{ format: 'date' }, '2024-02-29', true],
  [{ format: 'date' }, '2023-02-29', false],
  [{ format: 'date' }, '2027-02-30', false],
  [{ format: 'date' }, '2027-3-1', false],
  [{ format: 'date-time' }, '2027-03-01T10:30:00Z', true],
  [{ format: 'date-time' }, '2027-03-01T10:30:00.123+02:00', true],
  [{ format: 'date-time' }, '2027-03-01 10:30:00z', true],
  // What a phone's date-and-time picker gives, before the card adds seconds and the zone.
  [{ format: 'date-time' }, '2027-03-01T10:30', false],
  [{ format: 'date-time' }, '2027-03-01T25:00:00Z', false],
  [{ format: 'date-time' }, '2027-02-30T10:00:00Z', false],
  [{ format: 'uri' }, 'https://example.com/a?b=c#d', true],
  [{ format: 'uri' }, 'mailto:ops@example.com', true],
  [{ format: 'uri' }, 'example.com', false],
  [{ format: 'uri' }, 'https://exa mple.com', false],
  [{ minLength: 2 }, '😀😀', true],
  [{ minLength: 2 }, '😀', false],
  [{ maxLength: 2 }, '😀😀', true],
];

describe('[R18.4][R11.11] the phone’s rules and the MCP server’s check agree', () => {
  it.each(CASES)('[R18.4] %j: %j is valid: %s, on the phone and at the server', (rules, value, valid) => {
    const requestedSchema = { type: 'object', properties: { x: { type: 'string', ...rules } }, required: ['x'] };
    const form = formFieldsOf(requestedSchema);
    if ('problem' in form) throw new Error(form.problem);
    const fields: FormField[] = form.fields;
    expect(formValuesProblem(fields, { x: value }) === null, 'the phone').toBe(valid);
    expect(formContentProblem(requestedSchema, { x: value }) === null, 'the server').toBe(valid);
  });
});
