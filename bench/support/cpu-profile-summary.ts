// Summarises .cpuprofile files (V8 / Chrome DevTools format, e.g. from BENCH_CPU_PROF
// or `node --cpu-prof`): busy time, then self and total time per function, per file
// or per package. Several files (one process's profile in blocks) are added up.
//
//   node --import tsx bench/support/cpu-profile-summary.ts [--by function|file|package]
//     [--per <count>] [--top <n>] [--filter <regex>] <file.cpuprofile>...
//
// --per divides every time by a count (questions measured) so the table reads in µs
// per question; --filter keeps only rows whose name matches. "Total" counts a
// function once per sample however often it recurses.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from './figures';
import { isMain } from './main-guard';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export type Grouping = 'function' | 'file' | 'package';

export interface Row {
  name: string;
  selfUs: number;
  totalUs: number;
}

export interface Summary {
  /** Wall time the profiles cover, µs. */
  windowUs: number;
  /** Sampled time not idle, µs (includes GC and "(program)", V8's own work outside JS). */
  busyUs: number;
  gcUs: number;
  rows: Row[];
}

/** Synthetic frames V8 adds: they are their own group whatever the grouping. */
const SYNTHETIC = new Set(['(root)', '(program)', '(idle)', '(garbage collector)']);

/** Where a frame's code lives: a package, a repository file, a node internal, or native code. */
export function groupOf(frame: CallFrame, by: Grouping): string {
  if (SYNTHETIC.has(frame.functionName)) return frame.functionName;
  const file = fileOf(frame.url);
  if (by === 'function') {
    const name = frame.functionName || '(anonymous)';
    return file ? `${name}  ${file}:${frame.lineNumber + 1}` : `${name}  (native)`;
  }
  if (!file) return '(native)';
  if (by === 'file') return file;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (pkg?.[1]) return pkg[1];
  if (file.startsWith('node:')) return file.split('/').slice(0, 2).join('/');
  return path.dirname(file);
}

function fileOf(url: string): string {
  if (!url) return '';
  const local = url.startsWith('file://') ? fileURLToPath(url) : url;
  return local.startsWith(`${ROOT}/`) ? path.relative(ROOT, local) : local;
}

/** Adds the profiles up: self time where each sample landed, total time on each distinct group of its stack. */
export function summarize(profiles: CpuProfile[], by: Grouping): Summary {
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let windowUs = 0;
  let busyUs = 0;
  let gcUs = 0;
  for (const profile of profiles) {
    windowUs += profile.endTime - profile.startTime;
    const parent = new Map<number, number>();
    const group = new Map<number, string>();
    for (const node of profile.nodes) {
      group.set(node.id, groupOf(node.callFrame, by));
      for (const child of node.children ?? []) parent.set(child, node.id);
    }
    const samples = profile.samples ?? [];
    const deltas = profile.timeDeltas ?? [];
    for (let index = 0; index < samples.length; index += 1) {
      // A sample stands for the time until the next one (the last: until the profile ended).
      const next = deltas[index + 1];
      const us = next ?? Math.max(0, profile.endTime - sampleTime(profile, index));
      const leaf = samples[index] ?? 0;
      const leafGroup = group.get(leaf) ?? '(unknown)';
      if (leafGroup === '(idle)') continue;
      busyUs += us;
      if (leafGroup === '(garbage collector)') gcUs += us;
      self.set(leafGroup, (self.get(leafGroup) ?? 0) + us);
      const seen = new Set<string>();
      for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
        const name = group.get(id) ?? '(unknown)';
        if (name === '(root)' || seen.has(name)) continue;
        seen.add(name);
        total.set(name, (total.get(name) ?? 0) + us);
      }
    }
  }
  const rows = [...total].map(([name, totalUs]) => ({ name, selfUs: self.get(name) ?? 0, totalUs }));
  return { windowUs, busyUs, gcUs, rows };
}

function sampleTime(profile: CpuProfile, index: number): number {
  let at = profile.startTime;
  for (let i = 0; i <= index; i += 1) at += profile.timeDeltas?.[i] ?? 0;
  return at;
}

export function formatSummary(summary: Summary, options: { per: number; top: number; filter?: RegExp }): string {
  const unit = options.per === 1 ? 'ms' : 'µs/q';
  const show = (us: number) => (options.per === 1 ? (us / 1000).toFixed(1) : (us / options.per).toFixed(1));
  const pct = (us: number) => `${((100 * us) / Math.max(1, summary.busyUs)).toFixed(1)}%`;
  const lines = [
    `window ${(summary.windowUs / 1000).toFixed(0)} ms, busy ${show(summary.busyUs)} ${unit}` +
      ` (GC ${show(summary.gcUs)} ${unit})${options.per === 1 ? '' : ` over ${options.per} questions`}`,
    '',
  ];
  const rows = summary.rows.filter((row) => !options.filter || options.filter.test(row.name));
  for (const [title, key] of [
    ['self', 'selfUs'],
    ['total', 'totalUs'],
  ] as const) {
    lines.push(`by ${title} time (${unit}, share of busy)`, `${'self'.padStart(16)}  ${'total'.padStart(16)}`);
    const sorted = [...rows].sort((a, b) => b[key] - a[key]).slice(0, options.top);
    for (const row of sorted) {
      lines.push(
        `${show(row.selfUs).padStart(9)} ${pct(row.selfUs).padStart(6)}  ${show(row.totalUs).padStart(9)} ${pct(row.totalUs).padStart(6)}  ${row.name}`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}

function main(argv: string[]): void {
  let by: Grouping = 'function';
  let per = 1;
  let top = 40;
  let filter: RegExp | undefined;
  const files: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    const value = () => {
      index += 1;
      const next = argv[index];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '--by') {
      const grouping = value();
      if (grouping !== 'function' && grouping !== 'file' && grouping !== 'package')
        throw new Error(`--by function|file|package, not ${grouping}`);
      by = grouping;
    } else if (arg === '--per') per = Number(value());
    else if (arg === '--top') top = Number(value());
    else if (arg === '--filter') filter = new RegExp(value());
    else files.push(arg);
  }
  if (files.length === 0 || !(per > 0) || !(top > 0)) {
    console.error(
      'usage: cpu-profile-summary.ts [--by function|file|package] [--per <count>] [--top <n>] [--filter <regex>] <file.cpuprofile>...',
    );
    process.exit(2);
  }
  const profiles = files.map((file) => JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile);
  console.log(formatSummary(summarize(profiles, by), { per, top, filter }));
}

if (isMain(import.meta.url)) main(process.argv.slice(2));
