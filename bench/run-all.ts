// `npm run bench`: every benchmark and fault drill in sequence, one table,
// bench/results.json. Builds the PWA first unless BENCH_SKIP_BUILD=1.
// Exits non-zero when a drill fails or a benchmark could not run (not when a budget is missed).
import { spawnSync } from 'node:child_process';
import { errorMessage } from '../lib/contracts';
import { runDurableLog } from './durable-log';
import { runInboxArrival } from './inbox-arrival';
import { runDrills } from './drills/run-drills';
import { runLighthouse } from './lighthouse';
import { runMachines } from './machines';
import { runPhoneStart } from './phone-start';
import { runPwaWeight } from './pwa-weight';
import { runReannounceLoad } from './reannounce-load';
import { runReload } from './reload';
import { runRestore } from './restore';
import { runRoundTrip } from './round-trip';
import { runTeamHub } from './team-hub';
import { formatDrills, formatTable, ROOT, saveResults, type DrillOutcome, type Figure } from './support/figures';

const BENCHMARKS: { name: string; run: () => Promise<{ figures: Figure[] }> }[] = [
  { name: 'durable-log', run: runDurableLog },
  { name: 'round-trip', run: runRoundTrip },
  { name: 'reannounce-load', run: runReannounceLoad },
  { name: 'team-hub', run: () => runTeamHub() },
  { name: 'pwa-weight', run: runPwaWeight },
  { name: 'restore', run: runRestore },
  { name: 'reload', run: runReload },
  { name: 'inbox-arrival', run: runInboxArrival },
  { name: 'phone-start', run: runPhoneStart },
  { name: 'machines', run: runMachines },
  { name: 'lighthouse', run: runLighthouse },
];

function buildPwa(): void {
  if (process.env.BENCH_SKIP_BUILD === '1') {
    console.log('[bench] BENCH_SKIP_BUILD=1: using the existing out/ and dist/');
    return;
  }
  // Someone else's build may hold out/ at the same moment: retry a few times.
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    console.log(`[bench] npm run build (attempt ${attempt})`);
    const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (result.status === 0) return;
  }
  throw new Error('npm run build failed three times');
}

async function main(): Promise<number> {
  const started = performance.now();
  buildPwa();
  const only = process.argv.slice(2);
  const figures: Figure[] = [];
  const failures: string[] = [];
  for (const bench of BENCHMARKS) {
    if (only.length > 0 && !only.includes(bench.name)) continue;
    const from = performance.now();
    console.log(`[bench] ${bench.name} …`);
    try {
      const result = await bench.run();
      figures.push(...result.figures);
      console.log(
        `${formatTable(result.figures)}\n[bench] ${bench.name}: ${Math.round((performance.now() - from) / 1000)} s\n`,
      );
    } catch (error) {
      failures.push(`${bench.name}: ${errorMessage(error)}`);
      console.error(
        `[bench] ${bench.name} FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    }
  }
  let drills: DrillOutcome[] = [];
  if (only.length === 0 || only.includes('drills')) {
    console.log('[bench] fault drills …');
    drills = await runDrills();
  }
  const results = saveResults({
    figures,
    drills,
    replaceAll: only.length === 0,
    command: ['npm run bench', ...(only.length > 0 ? ['--', ...only] : [])].join(' '),
  });
  console.log(`\n${formatTable(figures)}\n\n${formatDrills(drills)}`);
  const machine = results.machine;
  console.log(
    `\n${machine.cores} cores (${machine.cpuModel}), ${Math.round(machine.memoryBytes / 2 ** 30)} GiB, Node ${machine.node}, load ${machine.loadAverage1m}; ` +
      `${Math.round((performance.now() - started) / 1000)} s; written to bench/results.json`,
  );
  for (const failure of failures) console.error(`[bench] did not run: ${failure}`);
  return failures.length > 0 || drills.some((drill) => !drill.ok) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
