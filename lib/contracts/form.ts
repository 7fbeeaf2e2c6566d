import * as z from 'zod/mini';
import { nonBlank } from './ask-user-question';

/** Fields one form may have (R18.4); an MCP server asking for more gets the rest refused by its agent's bridge. */
export const FORM_FIELDS_MAX = 30;
const label = (max: number) => z.optional(z.string().check(z.maxLength(max)));
const name = nonBlank(200);

const common = {
  name,
  title: label(200),
  description: label(2_000),
  required: z.boolean(),
};

/**
 * One field of an MCP form (`elicitation/create`'s `requestedSchema`, R18.4), normalized from the JSON
 * Schema subset MCP allows: flat, primitive properties.
 */
export const FormFieldSchema = z.discriminatedUnion('type', [
  z.strictObject({
    ...common,
    type: z.literal('string'),
    format: z.optional(z.enum(['email', 'uri', 'date', 'date-time'])),
    minLength: z.optional(z.int().check(z.minimum(0))),
    maxLength: z.optional(z.int().check(z.minimum(0))),
    default: z.optional(z.string().check(z.maxLength(10_000))),
  }),
  z.strictObject({
    ...common,
    type: z.enum(['number', 'integer']),
    minimum: z.optional(z.number()),
    maximum: z.optional(z.number()),
    default: z.optional(z.number()),
  }),
  z.strictObject({ ...common, type: z.literal('boolean'), default: z.optional(z.boolean()) }),
  z.strictObject({
    ...common,
    type: z.literal('enum'),
    /** One value, or several (`multiple`). */
    multiple: z.boolean(),
    options: z
      .array(z.strictObject({ value: nonBlank(500), label: label(500) }))
      .check(z.minLength(1), z.maxLength(100)),
    minItems: z.optional(z.int().check(z.minimum(0))),
    maxItems: z.optional(z.int().check(z.minimum(0))),
    default: z.optional(z.union([z.string(), z.array(z.string()).check(z.maxLength(100))])),
  }),
]);
export type FormField = z.infer<typeof FormFieldSchema>;

/** A form an MCP server asks the person to fill in, or a page it asks them to open (R18.4). */
export const FormInputSchema = z.strictObject({
  /** The MCP server that asks, as the agent names it. */
  serverName: nonBlank(200),
  message: z.string().check(z.maxLength(8_000)),
  mode: z.enum(['form', 'url']),
  fields: z._default(z.array(FormFieldSchema).check(z.maxLength(FORM_FIELDS_MAX)), []),
  /** URL mode: the page to open, http(s) only. */
  url: z.optional(
    z.string().check(z.maxLength(4_000), z.regex(/^https?:\/\//i, { message: 'Must be an http(s) URL' })),
  ),
});
export type FormInput = z.infer<typeof FormInputSchema>;

/** What a filled-in form sends back: one value per field, by name. */
export const FormValueSchema = z.union([
  z.string().check(z.maxLength(10_000)),
  z.number(),
  z.boolean(),
  z.array(z.string().check(z.maxLength(500))).check(z.maxLength(100)),
]);
export const FormValuesSchema = z.record(z.string().check(z.maxLength(200)), FormValueSchema);
export type FormValues = z.infer<typeof FormValuesSchema>;
