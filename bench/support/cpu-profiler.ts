// A CPU profile of this process over a window the benchmark chooses (not the whole
// life, as `--cpu-prof` would: start-up and module loading would drown the hot path).
// Written in Chrome's .cpuprofile format; read it with cpu-profile-summary.ts or DevTools.
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';

/** Finer than V8's default 1 ms: one question costs the host about a millisecond. */
export const PROFILE_INTERVAL_US = 100;

export interface RunningProfile {
  /** Stops sampling and writes the profile to `file` (directories are created). */
  stop(file: string): Promise<void>;
}

export async function startCpuProfile(intervalUs = PROFILE_INTERVAL_US): Promise<RunningProfile> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(profile));
    },
  };
}

/** BENCH_CPU_PROF=<dir>: where benchmarks that support it write their profiles; undefined when off. */
export function profileDir(): string | undefined {
  const dir = process.env.BENCH_CPU_PROF;
  return dir ? path.resolve(dir) : undefined;
}
