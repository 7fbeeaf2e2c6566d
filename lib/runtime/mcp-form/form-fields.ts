// An MCP elicitation's `requestedSchema` (the flat JSON Schema subset MCP allows) as Askaway's form fields (R18.4).
import { isRecord, type FormField } from '../../contracts';
import { schemaSubsetProblem, STRING_FORMATS } from './schema-subset';

type StringFormat = (typeof STRING_FORMATS)[number];

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
const count = (value: unknown): number | undefined => {
  const n = num(value);
  return n !== undefined && Number.isInteger(n) && n >= 0 ? n : undefined;
};

/** Drops the keys whose value is undefined, so a strict schema sees only what the server sent. */
function defined<T extends Record<string, unknown>>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}

/** `enum` (+ legacy `enumNames`) or titled `oneOf`/`anyOf` options: `{value, label}` each. */
function optionsOf(schema: Record<string, unknown>): { value: string; label?: string }[] | null {
  if (Array.isArray(schema.enum) && schema.enum.every((value) => typeof value === 'string')) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, index) => defined({ value, label: str(names[index]) }));
  }
  const titled = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null;
  if (!titled) return null;
  const options: { value: string; label?: string }[] = [];
  for (const option of titled) {
    if (!isRecord(option) || typeof option.const !== 'string') return null;
    options.push(defined({ value: option.const, label: str(option.title) }));
  }
  return options;
}

function fieldOf(name: string, schema: Record<string, unknown>, required: boolean): FormField | string {
  const common = defined({ name, title: str(schema.title), description: str(schema.description), required });
  const type = schema.type;
  if (type === 'array') {
    const items = isRecord(schema.items) ? schema.items : {};
    const options = optionsOf(items);
    if (!options) return `"${name}" is a list whose items are not a list of choices`;
    const fallback = Array.isArray(schema.default) ? schema.default.filter((value) => typeof value === 'string') : [];
    return defined({
      ...common,
      type: 'enum' as const,
      multiple: true,
      options,
      minItems: count(schema.minItems),
      maxItems: count(schema.maxItems),
      default: fallback.length > 0 ? fallback : undefined,
    });
  }
  if (type === 'string') {
    const options = optionsOf(schema);
    if (options)
      return defined({ ...common, type: 'enum' as const, multiple: false, options, default: str(schema.default) });
    const format = STRING_FORMATS.find((candidate): candidate is StringFormat => candidate === schema.format);
    return defined({
      ...common,
      type: 'string' as const,
      format,
      minLength: count(schema.minLength),
      maxLength: count(schema.maxLength),
      default: str(schema.default),
    });
  }
  if (type === 'number' || type === 'integer')
    return defined({
      ...common,
      type: type === 'number' ? ('number' as const) : ('integer' as const),
      minimum: num(schema.minimum),
      maximum: num(schema.maximum),
      default: num(schema.default),
    });
  if (type === 'boolean')
    return defined({
      ...common,
      type: 'boolean' as const,
      default: typeof schema.default === 'boolean' ? schema.default : undefined,
    });
  return `"${name}" has a type the phone cannot ask for (${JSON.stringify(type ?? null)})`;
}

/**
 * The fields of `requestedSchema`, in its order, or why the phone cannot show it (the prompt then
 * stays in the terminal). `{type: "object", properties: {}}` is a form with no fields.
 */
export function formFieldsOf(requestedSchema: unknown): { fields: FormField[] } | { problem: string } {
  // Past this check every keyword is one MCP allows, with the value it should have.
  const problem = schemaSubsetProblem(requestedSchema);
  if (problem !== null) return { problem };
  const schema = isRecord(requestedSchema) ? requestedSchema : {};
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === 'string') : [],
  );
  const fields: FormField[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const field = isRecord(property) ? fieldOf(name, property, required.has(name)) : `"${name}" has no schema`;
    if (typeof field === 'string') return { problem: field };
    fields.push(field);
  }
  return { fields };
}
