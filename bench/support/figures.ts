import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * One measured figure; `budget` applies to `ratio` when `budgetOn` is 'ratio', else to `value`. A budget
 * is a ceiling, or a floor when `atLeast` is set (a score).
 */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  budget?: number;
  budgetOn?: 'value' | 'ratio';
  atLeast?: boolean;
  /** true: within budget; false: over; absent: no budget. */
  withinBudget?: boolean;
  note?: string;
  /** Set when a script run alone measured this figure after the file's full run (see `mergeResults`). */
  measured?: RunStamp;
}

/** When and how a figure was measured, and how busy the machine was (timings move with the load). */
export interface RunStamp {
  date: string;
  command: string;
  loadAverage1m: number;
}

export interface DrillOutcome {
  name: string;
  ok: boolean;
  detail: string;
}

export interface Machine {
  cores: number;
  cpuModel: string;
  memoryBytes: number;
  node: string;
  platform: string;
  /** Other work on the machine skews timings (not CPU-time figures): the 1-minute load when results were written. */
  loadAverage1m: number;
}

export interface Results {
  date: string;
  command: string;
  machine: Machine;
  figures: Figure[];
  drills: DrillOutcome[];
}

export const BENCH_DIR = path.resolve(import.meta.dirname, '..');
export const ROOT = path.resolve(BENCH_DIR, '..');
export const RESULTS_FILE = path.join(BENCH_DIR, 'results.json');

export function machine(): Machine {
  return {
    cores: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryBytes: os.totalmem(),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    loadAverage1m: round(os.loadavg()[0] ?? 0, 2),
  };
}

/** A figure with its ratio and budget verdict filled in. */
export function figure(input: Omit<Figure, 'ratio' | 'withinBudget'>): Figure {
  const result: Figure = { ...input };
  if (input.baseline !== undefined && input.baseline > 0) result.ratio = round(input.value / input.baseline, 3);
  if (input.budget !== undefined) {
    const measured = input.budgetOn === 'ratio' ? result.ratio : input.value;
    if (measured !== undefined)
      result.withinBudget = input.atLeast ? measured >= input.budget : measured <= input.budget;
  }
  return result;
}

export function round(value: number, digits = 2): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/**
 * Merges a run into the results. A full run (`replaceAll`, or no earlier file) replaces
 * everything and its date, command and machine head the file. A script run alone
 * replaces only its own figures and drills, each where it stood (new ones go last),
 * stamps each figure it measured with its own date, command and load, and leaves the
 * head describing the full run the other figures come from.
 */
export function mergeResults(
  previous: Results | undefined,
  update: { figures: Figure[]; drills?: DrillOutcome[]; replaceAll: boolean; command: string },
  run: { date: string; machine: Machine },
): Results {
  const drills = update.drills ?? [];
  if (update.replaceAll || !previous) {
    return { date: run.date, command: update.command, machine: run.machine, figures: update.figures, drills };
  }
  const stamp: RunStamp = { date: run.date, command: update.command, loadAverage1m: run.machine.loadAverage1m };
  const figures = new Map(update.figures.map((entry) => [entry.name, { ...entry, measured: stamp }]));
  const newDrills = new Map(drills.map((entry) => [entry.name, entry]));
  return {
    ...previous,
    figures: replaceInPlace(previous.figures, figures),
    drills: replaceInPlace(previous.drills, newDrills),
  };
}

function replaceInPlace<Entry extends { name: string }>(previous: readonly Entry[], next: Map<string, Entry>): Entry[] {
  const kept = previous.map((entry) => next.get(entry.name) ?? entry);
  const known = new Set(previous.map((entry) => entry.name));
  return [...kept, ...[...next.values()].filter((entry) => !known.has(entry.name))];
}

/** Writes `bench/results.json` (see `mergeResults`). */
export function saveResults(update: {
  figures: Figure[];
  drills?: DrillOutcome[];
  replaceAll: boolean;
  command: string;
}): Results {
  let previous: Results | undefined;
  if (!update.replaceAll) {
    try {
      previous = JSON.parse(fs.readFileSync(RESULTS_FILE, 'utf8')) as Results;
    } catch {
      previous = undefined;
    }
  }
  const results = mergeResults(previous, update, { date: new Date().toISOString(), machine: machine() });
  const temp = `${RESULTS_FILE}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(results, null, 2)}\n`);
  fs.renameSync(temp, RESULTS_FILE);
  return results;
}

function formatNumber(value: number | undefined): string {
  if (value === undefined) return '';
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString('en-US');
  return String(round(value, Math.abs(value) < 10 ? 2 : 1));
}

/** A plain-text table of figures for the terminal. */
export function formatTable(figures: readonly Figure[]): string {
  const rows = figures.map((entry) => [
    entry.name,
    `${formatNumber(entry.value)} ${entry.unit}`,
    entry.baseline === undefined ? '' : `${formatNumber(entry.baseline)} ${entry.unit}`,
    entry.ratio === undefined ? '' : `${formatNumber(entry.ratio)}×`,
    entry.budget === undefined
      ? ''
      : `${entry.atLeast ? '≥' : '≤'} ${formatNumber(entry.budget)}${entry.budgetOn === 'ratio' ? '×' : ` ${entry.unit}`}`,
    entry.withinBudget === undefined ? '' : entry.withinBudget ? 'ok' : 'OVER',
  ]);
  const header = ['figure', 'value', 'baseline', 'ratio', 'budget', ''];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

export function formatDrills(drills: readonly DrillOutcome[]): string {
  return drills.map((drill) => `${drill.ok ? 'PASS' : 'FAIL'}  ${drill.name}: ${drill.detail}`).join('\n');
}
