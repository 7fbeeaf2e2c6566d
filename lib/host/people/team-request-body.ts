import { type IncomingMessage } from 'node:http';
import type * as z from 'zod/mini';
import { errorMessage } from '../../contracts';
import { readJsonBody } from '../../http/json-body';
import { summarizeIssues } from '../sockets/handshake';

/** The most a team API request carries: a group of a thousand ids fits well within. */
const TEAM_BODY_MAX_BYTES = 64 * 1024;

/**
 * A team API request's JSON body, checked against its schema (an empty body reads as `{}`), or the 4xx status and
 * message to refuse it with.
 */
export async function readTeamBody<Schema extends z.ZodMiniType>(
  req: IncomingMessage,
  schema: Schema,
): Promise<{ ok: true; data: z.infer<Schema> } | { ok: false; status: 400 | 413 | 415; message: string }> {
  const type = req.headers['content-type'];
  const declared = Number(req.headers['content-length'] ?? 0);
  const empty = declared === 0 && req.headers['transfer-encoding'] === undefined;
  if (!empty && !/^application\/json(;|$)/i.test(type ?? ''))
    return { ok: false, status: 415, message: 'The body is JSON (Content-Type: application/json)' };
  let body: unknown = {};
  if (!empty)
    try {
      body = await readJsonBody(req, TEAM_BODY_MAX_BYTES);
    } catch (error) {
      const message = errorMessage(error);
      return { ok: false, status: message.startsWith('Body larger') ? 413 : 400, message };
    }
  const parsed = schema.safeParse(body);
  return parsed.success
    ? { ok: true, data: parsed.data }
    : { ok: false, status: 400, message: summarizeIssues(parsed.error) };
}
