// Zod-free: the form card checks what it sends with the same rules the host applies (R18.4).
import { type FormField, type FormValues } from './form';

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
      if (field.minLength !== undefined && value.length < field.minLength)
        return `must be at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && value.length > field.maxLength)
        return `must be at most ${field.maxLength} characters`;
      if (field.format === 'email' && !/^[^\s@]+@[^\s@]+$/.test(value)) return 'must be an email address';
      if (field.format === 'uri' && !/^[a-z][a-z0-9+.-]*:/i.test(value)) return 'must be a URL';
      if (field.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'must be a date (YYYY-MM-DD)';
      if (field.format === 'date-time' && Number.isNaN(Date.parse(value))) return 'must be a date and time';
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
