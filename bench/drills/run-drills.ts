// Every fault drill: the scripts here and the data-dir drill test (vitest).
import { spawnSync } from 'node:child_process';
import { errorMessage } from '../../lib/contracts';
import { type DrillOutcome, ROOT } from '../support/figures';
import { isMain, runAlone } from '../support/main-guard';
import { drillFuzz } from './fuzz';
import { drillRuntimeAway } from './runtime-away';
import { drillSigkill } from './sigkill';

function dataDirDrill(): DrillOutcome {
  const file = 'lib/host/data-dir.drill.test.ts';
  const run = spawnSync(process.execPath, [`${ROOT}/node_modules/vitest/vitest.mjs`, 'run', file], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  const output = `${run.stdout}${run.stderr}`;
  const summary = /Tests\s+(.+)/.exec(output)?.[1]?.trim() ?? 'no summary';
  const expectedFail = /expected fail/.test(summary)
    ? '; the damaged-page case is a KNOWN BUG marked it.fails: the host starts on a damaged log and drops what it cannot read'
    : '';
  return {
    name: 'corrupt / locked / unwritable data dir (vitest)',
    ok: run.status === 0,
    detail: `${file}: ${summary}${expectedFail}`,
  };
}

export async function runDrills(): Promise<DrillOutcome[]> {
  const outcomes: DrillOutcome[] = [];
  const steps: [string, () => Promise<DrillOutcome[]>][] = [
    ['sigkill', drillSigkill],
    ['runtime-away', drillRuntimeAway],
    ['fuzz', drillFuzz],
    ['data-dir', async () => [dataDirDrill()]],
  ];
  for (const [name, run] of steps) {
    console.log(`[drill] ${name} …`);
    try {
      const result = await run();
      outcomes.push(...result);
      for (const outcome of result)
        console.log(`[drill] ${outcome.ok ? 'PASS' : 'FAIL'} ${outcome.name}: ${outcome.detail}`);
    } catch (error) {
      outcomes.push({
        name,
        ok: false,
        detail: `did not run: ${errorMessage(error)}`,
      });
    }
  }
  return outcomes;
}

if (isMain(import.meta.url))
  await runAlone('drills/run-drills', async () => ({ figures: [], drills: await runDrills() }));
