import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod/mini';
import { ADMIN_API_PREFIX, ApiErrorSchema, errorMessage } from '../../lib/contracts';
import { readHostInfo, resolveDataDir } from '../../lib/runtime/host-address';
import { requestJson, type JsonReply } from '../../lib/http/request-json';

/** A failure of an admin call, with the message to print and the exit code. */
export class AdminError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'AdminError';
  }
}

export interface AdminTarget {
  url: string;
  adminToken: string;
  dataDir: string;
}

/**
 * The running host and its admin token (R16.8): both from the data dir (`host.json` and
 * `admin-token`), so only someone who can read it manages pairing. ASKAWAY_URL may point
 * elsewhere (a proxy); the admin token still comes from the data dir.
 */
export function findAdminTarget(env: Record<string, string | undefined>, dataDirFlag?: string): AdminTarget {
  const dataDir = dataDirFlag ? path.resolve(dataDirFlag) : resolveDataDir(env);
  const url = env.ASKAWAY_URL?.trim() || readHostInfo(dataDir)?.url;
  if (!url) {
    throw new AdminError(
      `No running Askaway host found for ${dataDir} (no host.json): start it with \`askaway start\`, or pass its --data-dir.`,
    );
  }
  let adminToken: string;
  try {
    adminToken = readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
  } catch (error) {
    throw new AdminError(
      `Cannot read the admin token in ${dataDir} (${errorMessage(error)}): run this as the user who runs \`askaway start\`.`,
    );
  }
  return { url: url.replace(/\/+$/, ''), adminToken, dataDir };
}

/** One admin API call; the reply is checked against `schema`, a refusal becomes an AdminError with the host's words. */
export async function adminRequest<Schema extends z.core.$ZodType>(
  target: AdminTarget,
  method: 'GET' | 'POST',
  route: string,
  schema: Schema,
  body?: unknown,
): Promise<z.infer<Schema>> {
  const url = new URL(`${target.url}${ADMIN_API_PREFIX}${route}`);
  let reply: JsonReply;
  try {
    // node:http rather than fetch: a host on this machine may serve a self-signed certificate (--tls-cert);
    // the admin token only ever goes to this machine when verification is skipped.
    reply = await requestJson(url, {
      method,
      token: target.adminToken,
      insecureLoopback: true,
      ...(body !== undefined ? { body } : {}),
    });
  } catch (error) {
    throw new AdminError(`The Askaway host at ${target.url} is not reachable (${errorMessage(error)}). Is it running?`);
  }
  const json = reply.json;
  if (json === undefined) {
    throw new AdminError(`The host at ${target.url} answered ${reply.status} with something that is not JSON.`);
  }
  if (reply.status >= 400) {
    const refusal = ApiErrorSchema.safeParse(json);
    throw new AdminError(
      refusal.success ? refusal.data.error.message : `The host at ${target.url} refused (HTTP ${reply.status}).`,
    );
  }
  const parsed = z.safeParse(schema, json);
  if (!parsed.success) throw new AdminError(`The host at ${target.url} sent an answer this askaway cannot read.`);
  return parsed.data;
}
