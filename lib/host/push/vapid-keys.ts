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
  const keys = webpush.generateVAPIDKeys();
  const body = JSON.stringify({ ...keys, createdAt: new Date().toISOString() }, null, 2) + '\n';
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

async function readKeys(file: string): Promise<VapidKeys | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if (isCode(error, 'ENOENT')) return undefined;
    throw new HostStartError(`Cannot read the push keys ${file}: ${errorMessage(error)}`, { cause: error });
  }
  let parsed: z.ZodSafeParseResult<z.infer<typeof VapidFileSchema>>;
  try {
    parsed = VapidFileSchema.safeParse(JSON.parse(text));
  } catch {
    parsed = VapidFileSchema.safeParse(undefined);
  }
  if (!parsed.success) {
    throw new HostStartError(
      `The push keys ${file} are unreadable. Browsers' subscriptions depend on them, so the file was left untouched; ` +
        'move it aside to create new keys (every device must then enable notifications again).',
    );
  }
  return { publicKey: parsed.data.publicKey, privateKey: parsed.data.privateKey };
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}
