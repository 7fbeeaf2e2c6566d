// What the fault drills watch a host with while they attack it: polling until a condition holds, /healthz
// latency (from a process of its own, or back to back from this one with a budget), and the outcome line.
import { spawn } from 'node:child_process';
import { errorMessage } from '../../lib/contracts';
import { type DrillOutcome } from './figures';

export const mib = (bytes: number) => Math.round(bytes / 2 ** 20);

/** Polls `check` every `everyMs` until it holds; throws `timed out waiting until <what>` after `timeoutMs`. */
export async function until(what: string, check: () => boolean, timeoutMs = 60_000, everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export interface HealthzProbe {
  /** Stops the probe (again: the same answer) and resolves with the worst latency in ms. */
  stop(): Promise<number>;
}

/**
 * Times /healthz every 100 ms from a process of its own: an attack that keeps this one's event loop busy would
 * count against the host. Resolves with the worst latency once stopped (a reply over 5 s counts as 5 s).
 * `probeOnStop`: one more probe on stop, so even a short round has a figure. PROBE_TRACE=1 prints slow replies.
 */
export function probeHealthz(url: string, options: { probeOnStop?: boolean } = {}): HealthzProbe {
  const script = `
    let worst = 0;
    const once = async () => {
      const started = performance.now();
      try { await (await fetch(process.argv[1] + '/healthz', { signal: AbortSignal.timeout(5000) })).text(); }
      catch { worst = Math.max(worst, 5000); }
      const took = performance.now() - started;
      worst = Math.max(worst, took);
      if (process.env.PROBE_TRACE && took > 300) console.error('slow /healthz', Math.round(took), 'ms at', Math.round(performance.now()));
    };
    const tick = () => once().then(() => setTimeout(tick, 100));
    tick();
    const report = () => { process.stdout.write(String(worst)); process.exit(0); };
    process.stdin.on('data', () => (process.argv[2] === 'probe-on-stop' ? once().then(report) : report()));
  `;
  const args = ['-e', script, url, options.probeOnStop ? 'probe-on-stop' : 'no-probe-on-stop'];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopped: Promise<number> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        child.stdin.write('stop\n');
        await exited;
        if (!/^\d/.test(output)) throw new Error(`the /healthz probe failed: ${output}`);
        return Number(output);
      })();
      return stopped;
    },
  };
}

/** The same probe for `ms` with nothing going on: on a busy machine /healthz is slow without any help from us. */
export async function quietHealthz(url: string, ms = 3_000): Promise<number> {
  const quiet = probeHealthz(url);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return quiet.stop();
}

export interface HealthWatch {
  probes: number;
  slowestMs: number;
  /** Every probe over budget or failed. */
  misses: string[];
}

/**
 * Probes each host's /healthz back to back (50 ms apart) from this process until stopped: the slowest answer,
 * and every probe over `budgetMs` or failed.
 */
export function watchHealth(hosts: readonly { url: string }[], budgetMs: number): () => Promise<HealthWatch> {
  let running = true;
  const watch: HealthWatch = { probes: 0, slowestMs: 0, misses: [] };
  const loop = (async () => {
    while (running) {
      for (const host of hosts) {
        const started = performance.now();
        try {
          const response = await fetch(`${host.url}/healthz`, { signal: AbortSignal.timeout(budgetMs) });
          if (!response.ok) watch.misses.push(`/healthz answered ${response.status}`);
        } catch (error) {
          watch.misses.push(`/healthz: ${errorMessage(error)}`);
        }
        const took = performance.now() - started;
        watch.probes += 1;
        watch.slowestMs = Math.max(watch.slowestMs, took);
        if (took > budgetMs) watch.misses.push(`/healthz took ${Math.round(took)} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return watch;
  };
}

/** A drill's outcome: ok without problems, else its detail ends `; PROBLEMS: a | b`. */
export function drillOutcome(name: string, detail: string, problems: readonly string[]): DrillOutcome {
  return {
    name,
    ok: problems.length === 0,
    detail: `${detail}${problems.length > 0 ? `; PROBLEMS: ${problems.join(' | ')}` : ''}`,
  };
}
