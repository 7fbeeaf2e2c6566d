import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { AnnounceAckSchema, AnnounceBatchAckSchema, SimpleAckSchema } from '../contracts';
import { describeIssues, HostMessageParser, type HostProtocolError } from './protocol-errors';

function rule(schema: z.core.$ZodType, value: unknown): string {
  const parsed = z.safeParse(schema, value);
  if (parsed.success) throw new Error('expected the value to be invalid');
  return describeIssues(parsed.error.issues);
}

describe('protocol errors', () => {
  it('[R12.3] explains a union by the variant whose literal fields fit', () => {
    expect(rule(AnnounceBatchAckSchema, { ok: true, resolved: 'none', withdrawn: [], unknown: [] })).toBe(
      'resolved: Invalid input: expected array, received string',
    );
    expect(rule(AnnounceAckSchema, { ok: true, status: 'pending' })).toBe(
      'autoResolution: Invalid input: expected object, received undefined',
    );
    expect(rule(SimpleAckSchema, 'fine')).toBe('(root): Invalid input: expected object, received string');
  });

  it('[R12.3] names what the literal fields should be when no variant fits', () => {
    expect(rule(AnnounceAckSchema, { ok: true, status: 'maybe' })).toBe(
      'status: none of the variants fits: expected "pending" or "resolved" or "withdrawn"; ' +
        'ok: none of the variants fits: expected false',
    );
  });

  it('[R12.3] reports each malformed message to the callback and the log, and passes valid ones through', () => {
    const errors: HostProtocolError[] = [];
    const lines: string[] = [];
    const parser = new HostMessageParser({
      onProtocolError: (error) => errors.push(error),
      log: (line) => lines.push(line),
    });
    expect(parser.reply(SimpleAckSchema, 'withdraw', { ok: true })).toEqual({ ok: true });
    expect(parser.reply(SimpleAckSchema, 'withdraw', { ok: 1 })).toBeUndefined();
    expect(errors).toEqual([
      { event: 'withdraw', reply: true, rule: 'ok: none of the variants fits: expected true or false' },
    ]);
    expect(lines).toEqual([
      "askaway: dropped a malformed reply to 'withdraw' from the host: ok: none of the variants fits: expected true or false",
    ]);
  });
});
