import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../contracts';
import { HostStartError } from './errors';
import { tightenToOwner } from './store/owner-only';

/** Kernel filesystems: not a place for a log (Node's recursive mkdir loops forever under /proc). */
const SPECIAL_ROOTS = ['/proc', '/sys', '/dev'];

/**
 * Refuses a data dir that cannot be one (R12.11), before anything is created: a path under /proc, /sys
 * or /dev (also through a symlink), or one that names a file. Writes nothing.
 */
export function checkDataDirPath(dataDir: string): void {
  let existing = dataDir;
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  let real = existing;
  try {
    real = fs.realpathSync(existing);
  } catch {
    // Unreadable: prepareDataDir says why.
  }
  const under = SPECIAL_ROOTS.find((root) => real === root || real.startsWith(`${root}/`));
  if (under !== undefined)
    throw new HostStartError(
      `The data dir ${dataDir} is under ${under}, a kernel filesystem that cannot hold Askaway's log. ` +
        'Choose another with --data-dir.',
    );
  if (existing === dataDir && !fs.statSync(dataDir).isDirectory())
    throw new HostStartError(`The data dir ${dataDir} is a file, not a folder. Choose another with --data-dir.`);
}

/** What the data dir holds that nobody else may read (R12.9). */
const SECRET_FILES = ['token', 'admin-token', 'vapid.json', 'host.json', 'hub.json'];

/**
 * Creates the data dir owner-only (0700), or makes an existing one so (R12.9): it holds the agent
 * token, the admin token and the log. One that cannot be tightened is refused with how to fix it.
 * Proves it is writable, with a message a person can act on.
 */
export function prepareDataDir(dataDir: string): void {
  checkDataDirPath(dataDir);
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.accessSync(dataDir, fs.constants.W_OK | fs.constants.R_OK);
  } catch (error) {
    throw new HostStartError(
      `The data dir ${dataDir} is not usable: ${errorMessage(error)}. Choose another with --data-dir.`,
      {
        cause: error,
      },
    );
  }
  const mode = fs.statSync(dataDir).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    try {
      fs.chmodSync(dataDir, 0o700);
    } catch (error) {
      throw new HostStartError(
        `The data dir ${dataDir} can be read or written by other users (mode ${mode.toString(8)}) and this ` +
          `user cannot change that (${errorMessage(error)}). Run \`chmod 700 ${dataDir}\` as its owner, or choose ` +
          'another with --data-dir.',
        { cause: error },
      );
    }
  }
  tightenToOwner(...SECRET_FILES.map((name) => path.join(dataDir, name)));
}

/** Where the admin token lives; only `askaway pair` and `askaway devices` read it (R16.8). */
export const ADMIN_TOKEN_FILE = 'admin-token';

/**
 * The agent token (R16.1): random on first start, then kept in `<dataDir>/token` with mode
 * 0600. An explicit token (ASKAWAY_TOKEN) wins and is not written.
 */
export function loadOrCreateToken(dataDir: string, explicit?: string): string {
  const given = explicitToken(explicit);
  if (given !== undefined) return given;
  return loadOrCreateSecret(path.join(dataDir, AGENT_TOKEN_FILE), newAgentToken);
}

/** Where the agent token lives: hooks and `askaway status` on this machine read it. */
export const AGENT_TOKEN_FILE = 'token';

export const newAgentToken = (): string => randomBytes(24).toString('base64url');
export const newAdminToken = (): string => `aw_a_${randomBytes(32).toString('base64url')}`;

/** ASKAWAY_TOKEN when it says something. */
export function explicitToken(explicit: string | undefined): string | undefined {
  const trimmed = explicit?.trim();
  return trimmed === undefined || trimmed.length === 0 ? undefined : trimmed;
}

/** A secret file's content, or undefined when there is none (or it is empty). */
export function readSecretFile(file: string): string | undefined {
  try {
    const stored = fs.readFileSync(file, 'utf8').trim();
    return stored.length > 0 ? stored : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new HostStartError(`Cannot read ${file}: ${errorMessage(error)}`, { cause: error });
  }
}

/** Writes a secret file whole (owner-only), replacing what it held: a reader sees the old one or the new one. */
export function replaceSecretFile(file: string, secret: string): void {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    fs.writeFileSync(temp, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw new HostStartError(`Cannot write ${file}: ${errorMessage(error)}`, { cause: error });
  }
}

/**
 * The admin token (R16.8): opens the admin API (pairing codes, devices) and nothing else. It
 * lives only in the data dir, never in an environment variable an agent could be given, so
 * whoever may manage pairing is whoever can read the data dir.
 */
export function loadOrCreateAdminToken(dataDir: string): string {
  return loadOrCreateSecret(path.join(dataDir, ADMIN_TOKEN_FILE), newAdminToken);
}

function loadOrCreateSecret(file: string, create: () => string): string {
  const stored = readSecretFile(file);
  if (stored !== undefined) return stored;
  const secret = create();
  try {
    // 'wx' refuses to overwrite a secret another process wrote meanwhile.
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    throw new HostStartError(`Cannot write ${file}: ${errorMessage(error)}`, { cause: error });
  }
  return secret;
}

export interface HostFileContent {
  url: string;
  pid: number;
  port: number;
  version: string;
}

/** `<dataDir>/host.json` tells runtimes where the running host is. */
export function writeHostFile(dataDir: string, content: HostFileContent): () => void {
  const file = path.join(dataDir, 'host.json');
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
  return () => {
    try {
      // Only remove our own record: a newer host may have replaced it.
      const current = JSON.parse(fs.readFileSync(file, 'utf8')) as { pid?: unknown };
      if (current.pid === content.pid) fs.rmSync(file, { force: true });
    } catch {
      // Already gone or unreadable: nothing of ours to clean up.
    }
  };
}
