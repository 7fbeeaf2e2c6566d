// Zod-free: the form card checks what it sends with the same rules the host applies (R18.4).
import { type FormField, type FormValues } from './form';

// The formats as the MCP server checks them (the official SDK validates answers with ajv-formats' full
// formats): a value the phone lets through must not fail there.
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
/** A scheme, then no character RFC 3986 leaves out unencoded. */
const URI = /^[a-z][a-z0-9+.-]*:[^\s"<>\\^`{|}]*$/i;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** An RFC 3339 full-date: YYYY-MM-DD of a day the calendar has. */
function isDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : (DAYS[month - 1] ?? 0);
  return day >= 1 && day <= days;
}

/** An RFC 3339 date-time: a full date, T, hh:mm:ss with optional fraction, and a zone (Z or ±hh:mm). */
function isDateTime(value: string): boolean {
  const match = /^(.{10})[t ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:z|[+-](\d{2})(?::?(\d{2}))?)$/i.exec(value);
  if (!match || !isDate(match[1] ?? '')) return false;
  const [hour, minute, second] = [Number(match[2]), Number(match[3]), Number(match[4])];
  return hour <= 23 && minute <= 59 && second <= 59 && Number(match[5] ?? 0) <= 23 && Number(match[6] ?? 0) <= 59;
}

/** Why `values` do not fill in `fields` as the form asks, or null: types, bounds, options and required fields. */
export function formValuesProblem(fields: readonly FormField[], values: FormValues): string | null {
  const byName = new Map(fields.map((field) => [field.name, field]));
  for (const name of Object.keys(values)) if (!byName.has(name)) return `The form has no field "${name}"`;
  for (const field of fields) {
    const value = Object.hasOwn(values, field.name) ? values[field.name] : undefined;
    const label = field.title ?? field.name;
    if (value === undefined) {
      if (field.required) return `"${label}" is required`;
      continue;
    }
    const problem = valueProblem(field, value);
    if (problem !== null) return `"${label}" ${problem}`;
  }
  return null;
}

function valueProblem(field: FormField, value: FormValues[string]): string | null {
  switch (field.type) {
    case 'string': {
      if (typeof value !== 'string') return 'must be text';
      // Characters as JSON Schema counts them: code points, so an emoji is one.
      const length = Array.from(value).length;
      if (field.minLength !== undefined && length < field.minLength)
        return `must be at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && length > field.maxLength)
        return `must be at most ${field.maxLength} characters`;
      if (field.format === 'email' && !EMAIL.test(value)) return 'must be an email address';
      if (field.format === 'uri' && !URI.test(value)) return 'must be a URL';
      if (field.format === 'date' && !isDate(value)) return 'must be a date (YYYY-MM-DD)';
      if (field.format === 'date-time' && !isDateTime(value)) return 'must be a date and time';
      return null;
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.type === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
      if (field.minimum !== undefined && value < field.minimum) return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `must be at most ${field.maximum}`;
      return null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be yes or no';
    case 'enum': {
      const allowed = new Set(field.options.map((option) => option.value));
      if (!field.multiple) return typeof value === 'string' && allowed.has(value) ? null : 'must be one of its options';
      if (!Array.isArray(value) || !value.every((item) => allowed.has(item))) return 'must be some of its options';
      if (field.minItems !== undefined && value.length < field.minItems) return `needs at least ${field.minItems}`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `takes at most ${field.maxItems}`;
      return null;
    }
  }
}
