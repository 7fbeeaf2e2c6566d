import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import { z } from 'zod';
import { errorMessage } from '../../contracts';
import { HostStartError } from '../errors';

export const VAPID_FILE = 'vapid.json';

const VapidFileSchema = z
  .object({
    publicKey: z.string().regex(/^[A-Za-z0-9_-]{80,100}$/),
    privateKey: z.string().regex(/^[A-Za-z0-9_-]{40,50}$/),
    createdAt: z.string(),
  })
  .strict();

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The host's VAPID key pair, created on first start and kept in `<dataDir>/vapid.json`
 * (mode 0600: the private key signs every push). Every browser subscription is bound to
 * the public key, so an unreadable file stops the host instead of being replaced.
 */
export async function loadOrCreateVapidKeys(dataDir: string): Promise<VapidKeys> {
  const file = path.join(dataDir, VAPID_FILE);
  const existing = await readKeys(file);
  if (existing) return existing;
  const body = JSON.stringify(newVapidKeys(), null, 2) + '\n';
  const temp = `${file}.${randomUUID()}.tmp`;
  await fs.writeFile(temp, body, { mode: 0o600, flag: 'wx' });
  try {
    // link (not rename) fails if another process won the race; then both use the winner's keys.
    await fs.link(temp, file);
  } catch (error) {
    if (!isCode(error, 'EEXIST'))
      throw new HostStartError(`Cannot write ${file}: ${errorMessage(error)}`, { cause: error });
  } finally {
    await fs.rm(temp, { force: true });
  }
  const stored = await readKeys(file);
  if (!stored) throw new HostStartError(`${file} disappeared right after it was written`);
  return stored;
}

/** The data dir's keys as they are, or undefined when it has none; never writes. */
export function readVapidKeys(dataDir: string): Promise<VapidKeys | undefined> {
  return readKeys(path.join(dataDir, VAPID_FILE));
}

/** A fresh key pair, as `vapid.json` holds it. */
export function newVapidKeys(): VapidKeys & { createdAt: string } {
  return { ...webpush.generateVAPIDKeys(), createdAt: new Date().toISOString() };
}

/** Keys kept as JSON text (`vapid.json`, a team database's secret); undefined when the text is no key pair. */
export function parseVapidJson(text: string): VapidKeys | undefined {
  let parsed: z.ZodSafeParseResult<z.infer<typeof VapidFileSchema>>;
  try {
    parsed = VapidFileSchema.safeParse(JSON.parse(text));
  } catch {
    return undefined;
  }
  return parsed.success ? { publicKey: parsed.data.publicKey, privateKey: parsed.data.privateKey } : undefined;
}

async function readKeys(file: string): Promise<VapidKeys | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if (isCode(error, 'ENOENT')) return undefined;
    throw new HostStartError(`Cannot read the push keys ${file}: ${errorMessage(error)}`, { cause: error });
  }
  const keys = parseVapidJson(text);
  if (!keys) {
    throw new HostStartError(
      `The push keys ${file} are unreadable. Browsers' subscriptions depend on them, so the file was left untouched; ` +
        'move it aside to create new keys (every device must then enable notifications again).',
    );
  }
  return keys;
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}
