// Whether an MCP server's `requestedSchema` stays inside the flat subset MCP allows (R12.12, R18.4).
import { FORM_FIELDS_MAX, isRecord, jsonShapeProblem } from '../../contracts';

/** Options one choice field may carry (FormFieldSchema). */
export const FORM_OPTIONS_MAX = 100;

export const STRING_FORMATS = ['email', 'uri', 'date', 'date-time'] as const;

/**
 * Every keyword MCP's PrimitiveSchemaDefinition allows, and nothing else: an unknown keyword is refused rather
 * than passed over, since the MCP server checks its whole schema and anything we do not know may be costly to
 * check (a `pattern` runs a regular expression from outside; R12.12). `default` is not checked, only shown.
 */
const TOP_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  '$schema',
  'title',
  'description',
  'additionalProperties',
]);
const COMMON_KEYWORDS = ['type', 'title', 'description', 'default'];
/** A Map, so that a `type` of "constructor" or "__proto__" finds nothing. */
const FIELD_KEYWORDS = new Map<unknown, ReadonlySet<string>>([
  ['string', new Set([...COMMON_KEYWORDS, 'minLength', 'maxLength', 'format', 'enum', 'enumNames', 'oneOf', 'anyOf'])],
  ['number', new Set([...COMMON_KEYWORDS, 'minimum', 'maximum'])],
  ['integer', new Set([...COMMON_KEYWORDS, 'minimum', 'maximum'])],
  ['boolean', new Set(COMMON_KEYWORDS)],
  ['array', new Set([...COMMON_KEYWORDS, 'minItems', 'maxItems', 'items'])],
]);
const ITEM_KEYWORDS = new Set(['type', 'title', 'description', 'enum', 'enumNames', 'oneOf', 'anyOf']);
const OPTION_KEYWORDS = new Set(['const', 'title', 'description']);

const isCount = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value >= 0;
const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);

/** What each validating keyword's value must be for the phone to check the same rule the server does. */
const VALUE_RULES: Record<string, (value: unknown) => boolean> = {
  minLength: isCount,
  maxLength: isCount,
  minItems: isCount,
  maxItems: isCount,
  minimum: isNumber,
  maximum: isNumber,
  format: (value) => STRING_FORMATS.some((format) => format === value),
  enumNames: isStrings,
  title: isString,
  description: isString,
  $schema: isString,
};

/** Outside names and values in a message, cut short: the message goes to a log line. */
const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text);
/** What of an outside value a log line may show: a few values deep, so JSON.stringify never walks far (R12.18). */
const SHOWN_SHAPE = { maxDepth: 3, maxNodes: 50 };
const shown = (value: unknown) => {
  if (jsonShapeProblem(value, SHOWN_SHAPE) !== undefined) return Array.isArray(value) ? '[…]' : '{…}';
  try {
    return clip(JSON.stringify(value) ?? String(value));
  } catch {
    // A value that is not JSON's (a BigInt, a cycle) from a caller that did not parse it.
    return typeof value;
  }
};

const unknownKeyword = (schema: Record<string, unknown>, allowed: ReadonlySet<string>) => {
  const keyword = Object.keys(schema).find((key) => !allowed.has(key));
  return keyword === undefined ? undefined : clip(keyword);
};

function valueProblem(where: string, schema: Record<string, unknown>): string | null {
  for (const [keyword, rule] of Object.entries(VALUE_RULES)) {
    if (schema[keyword] === undefined || rule(schema[keyword])) continue;
    if (keyword === 'format') return `${where} has a format the phone cannot check (${shown(schema.format)})`;
    return `${where} has a rule the phone cannot check (${keyword}: ${shown(schema[keyword])})`;
  }
  return null;
}

/** `enum`, `oneOf` or `anyOf` as choices: strings, or `{const, title}` options; at most FORM_OPTIONS_MAX. */
function optionsProblem(where: string, schema: Record<string, unknown>): string | null {
  const lists = (['enum', 'oneOf', 'anyOf'] as const).filter((keyword) => schema[keyword] !== undefined);
  if (lists.length > 1) return `${where} has its choices twice (${lists.join(', ')})`;
  const keyword = lists[0];
  if (keyword === undefined) return null;
  const list = schema[keyword];
  if (!Array.isArray(list) || list.length === 0) return `${where} has no choices in ${keyword}`;
  if (list.length > FORM_OPTIONS_MAX) return `${where} has ${list.length} choices, more than ${FORM_OPTIONS_MAX}`;
  if (keyword === 'enum') return isStrings(list) ? null : `${where} has choices that are not text`;
  for (const option of list) {
    if (!isRecord(option) || !isString(option.const)) return `${where}'s ${keyword} is not a list of choices`;
    const unknown = unknownKeyword(option, OPTION_KEYWORDS);
    if (unknown !== undefined) return `${where} has a rule the phone cannot check (${keyword}: ${unknown})`;
    const problem = valueProblem(`${where}'s choice`, option);
    if (problem !== null) return problem;
  }
  return null;
}

function itemsProblem(where: string, items: unknown): string | null {
  const notChoices = `${where} is a list whose items are not a list of choices`;
  if (!isRecord(items) || (items.type !== undefined && items.type !== 'string')) return notChoices;
  const unknown = unknownKeyword(items, ITEM_KEYWORDS);
  if (unknown !== undefined) return `${where}'s items have a rule the phone cannot check (${unknown})`;
  if (items.enum === undefined && items.oneOf === undefined && items.anyOf === undefined) return notChoices;
  return valueProblem(`${where}'s items`, items) ?? optionsProblem(`${where}'s items`, items);
}

function fieldProblem(name: string, schema: unknown): string | null {
  const where = `"${clip(name)}"`;
  if (!isRecord(schema)) return `${where} has no schema`;
  const keywords = FIELD_KEYWORDS.get(schema.type);
  if (keywords === undefined) return `${where} has a type the phone cannot ask for (${shown(schema.type ?? null)})`;
  const unknown = unknownKeyword(schema, keywords);
  if (unknown !== undefined) return `${where} has a rule the phone cannot check (${unknown})`;
  const problem = valueProblem(where, schema);
  if (problem !== null) return problem;
  if (schema.type === 'array') return itemsProblem(where, schema.items);
  return schema.type === 'string' ? optionsProblem(where, schema) : null;
}

/**
 * Why `requestedSchema` is not the flat object of primitive properties MCP allows, or null (R12.12, R18.4):
 * an allow-list of keywords at the top, per property type and in `items`, with the value each must have. Only a
 * schema that passes reaches the phone or a JSON Schema validator, so no composition (`allOf`, `not`, …), `$ref`,
 * nested object, pattern-keyed property or `pattern` from outside is ever compiled on the hub.
 */
export function schemaSubsetProblem(requestedSchema: unknown): string | null {
  if (!isRecord(requestedSchema) || requestedSchema.type !== 'object') return 'the form is not an object schema';
  const unknown = unknownKeyword(requestedSchema, TOP_KEYWORDS);
  if (unknown !== undefined) return `the form has a rule the phone cannot check (${unknown})`;
  const { properties = {}, required = [], additionalProperties } = requestedSchema;
  if (!isRecord(properties)) return 'the form has no list of fields (properties)';
  if (!isStrings(required)) return 'the form’s required list is not a list of field names';
  if (additionalProperties !== undefined && typeof additionalProperties !== 'boolean')
    return 'the form has a rule the phone cannot check (additionalProperties with a schema)';
  const problem = valueProblem('the form', requestedSchema);
  if (problem !== null) return problem;
  const names = Object.keys(properties);
  if (names.length > FORM_FIELDS_MAX) return `the form has ${names.length} fields, more than ${FORM_FIELDS_MAX}`;
  const missing = required.find((name) => !Object.hasOwn(properties, name));
  if (missing !== undefined) return `the form requires "${clip(missing)}", which it does not ask for`;
  for (const name of names) {
    const field = fieldProblem(name, properties[name]);
    if (field !== null) return field;
  }
  return null;
}
