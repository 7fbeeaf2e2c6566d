import { errorMessage, parseBoundedJson } from '../../../contracts';
import { readAll } from '../claude-code/hook-command';
import { parseDuration } from '../../duration';
import { resolveDataDir } from '../../host-address';
import { runtimeClientProvider } from '../../runtime-client-provider';
import { DEFAULT_CODEX_HOOK_TIMEOUT_MS, handleCodexHook } from './hook';

/** `askaway hook codex` flags, or why they are wrong. */
export function parseCodexHookFlags(argv: readonly string[]): { timeoutMs: number } | { error: string } {
  let timeoutMs = DEFAULT_CODEX_HOOK_TIMEOUT_MS;
  for (let index = 0; index < argv.length; index += 1) {
    if (argv[index] !== '--timeout') return { error: `unexpected argument "${argv[index]}"` };
    const value = parseDuration(argv[index + 1] ?? '');
    if (value === null) return { error: '--timeout needs a duration such as 30s or 2m' };
    timeoutMs = value;
    index += 1;
  }
  return { timeoutMs };
}

export interface CodexHookIo {
  env: Record<string, string | undefined>;
  stdin: AsyncIterable<Buffer | string>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The hook process's parent: Codex's daemon, or the `--no-daemon` TUI. */
  parentPid: number;
  signal?: AbortSignal;
}

/**
 * One Codex command hook call (R18.15): the hook JSON on stdin, the decision (or nothing) on stdout. Always
 * exits 0: a failing hook must not block Codex, whose own prompt then follows.
 */
export async function codexHookMain(flags: { timeoutMs: number }, io: CodexHookIo): Promise<number> {
  let payload: unknown;
  try {
    // Shape-checked before the card's JSON.stringify of its tool input walks it (R12.18).
    const read = parseBoundedJson(await readAll(io.stdin));
    if (!read.ok) throw new Error(`the hook JSON ${read.problem}`);
    payload = read.value;
  } catch (error) {
    io.stderr(`askaway hook codex: could not read the hook JSON on stdin (${errorMessage(error)})\n`);
    return 0;
  }
  const runtime = runtimeClientProvider({ env: io.env });
  try {
    const output = await handleCodexHook(payload, {
      runtime,
      env: io.env,
      parentPid: io.parentPid,
      dataDir: resolveDataDir(io.env),
      timeoutMs: flags.timeoutMs,
      signal: io.signal,
      log: (line) => io.stderr(`${line}\n`),
    });
    if (output && !io.signal?.aborted) io.stdout(`${JSON.stringify(output)}\n`);
    return 0;
  } finally {
    await runtime.close();
  }
}
