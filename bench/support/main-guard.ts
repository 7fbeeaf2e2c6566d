import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatDrills, formatTable, saveResults, type DrillOutcome, type Figure } from './figures';

/** True when the module at `metaUrl` is the script node was started with. */
export function isMain(metaUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && path.resolve(entry) === fileURLToPath(metaUrl);
}

/** Runs one benchmark alone: prints its table, merges its figures into bench/results.json. */
export async function runAlone(
  name: string,
  run: () => Promise<{ figures: Figure[]; drills?: DrillOutcome[] }>,
): Promise<void> {
  try {
    const { figures, drills = [] } = await run();
    if (figures.length > 0) console.log(`\n${formatTable(figures)}`);
    if (drills.length > 0) console.log(`\n${formatDrills(drills)}`);
    saveResults({ figures, drills, replaceAll: false, command: `node --import tsx bench/${name}.ts` });
    process.exit(drills.some((drill) => !drill.ok) ? 1 : 0);
  } catch (error) {
    console.error(`bench/${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  }
}
