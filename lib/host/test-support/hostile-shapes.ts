import * as parser from 'socket.io-parser';

/**
 * JSON a real client cannot build: its own JSON.stringify overflows past a few thousand levels,
 * but a hostile one sends the text directly. `rawJson(text)` returns a placeholder to put in a
 * payload; a socket made with `rawJsonParser` sends `text` in its place, verbatim.
 */
const raw: string[] = [];
const TOKEN = /"\\u0000raw-json-(\d+)\\u0000"/g;

export function rawJson(text: string): string {
  raw.push(text);
  return `\u0000raw-json-${raw.length - 1}\u0000`;
}

class RawJsonEncoder extends parser.Encoder {
  override encode(packet: parser.Packet): ReturnType<parser.Encoder['encode']> {
    return super
      .encode(packet)
      .map((part: unknown) =>
        typeof part === 'string' ? part.replace(TOKEN, (token, index: string) => raw[Number(index)] ?? token) : part,
      );
  }
}

/** JSON text with every placeholder replaced by its raw JSON, for an HTTP body. */
export function expandRawJson(text: string): string {
  return text.replace(TOKEN, (token, index: string) => raw[Number(index)] ?? token);
}

/** socket.io-client's `parser` option: the standard protocol, with placeholders replaced by raw JSON. */
export const rawJsonParser = { ...parser, Encoder: RawJsonEncoder };

/** `{"a":{"a":…{}}}`, `levels` deep, as JSON text. */
export const deepObjectJson = (levels: number) => `${'{"a":'.repeat(levels)}{}${'}'.repeat(levels)}`;
/** `[[[…]]]`, `levels` deep, as JSON text. */
export const deepArrayJson = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** One family each of the hostile inputs a credential holder can send (R12.3), all under the size cap. */
export interface HostileShape {
  name: string;
  /** A fresh value to put where a message field goes (a placeholder for raw JSON where needed). */
  value(): unknown;
}

const deep = (json: string) => {
  const token = rawJson(json);
  return () => token;
};

export const HOSTILE_SHAPES: readonly HostileShape[] = [
  { name: 'an object 2,000 levels deep', value: deep(deepObjectJson(2_000)) },
  { name: 'an object 8,000 levels deep', value: deep(deepObjectJson(8_000)) },
  { name: 'an object 30,000 levels deep', value: deep(deepObjectJson(30_000)) },
  { name: 'an array 50,000 levels deep', value: deep(deepArrayJson(50_000)) },
  { name: 'an array of 100,000 values', value: () => Array.from({ length: 100_000 }, () => 0) },
  {
    name: 'an object of 20,000 keys',
    value: () => Object.fromEntries(Array.from({ length: 20_000 }, (_, index) => [`k${index}`, 1])),
  },
  { name: 'a string of 240,000 characters', value: () => 'x'.repeat(240_000) },
  { name: 'a string of control characters', value: () => '\u001b[2J\u001b]0;pwned\u0007\u0000\b'.repeat(1_000) },
];
