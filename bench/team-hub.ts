// R20.70–R20.74 (issue 38): a team hub (three `askaway start` replicas on one PostgreSQL log) against a single hub
// on SQLite, loaded alike in one run: 1,000 agents and 100 phones spread over the hubs, then questions asked at a
// steady rate by agents on every hub and answered by a phone on another hub. Measures question → every phone
// p50/p95, answer → agent p99, the database round trips per question and the log's events per question; budget:
// the team hub within 1.5× of the single hub. Blocks of questions alternate between the two, so drift on a shared
// machine hits both alike. Diagnostics: BENCH_CPU_PROF=<dir> profiles every hub over the measured blocks (read
// them with bench/support/cpu-profile-summary.ts); BENCH_STATEMENTS=1 lists the statements the replicas sent. Flags (run alone): --agents --phones --questions --rate --replicas --blocks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { profileDir } from './support/cpu-profiler';
import { figure, round, type Figure } from './support/figures';
import { procUsage, startHost, type HostProcess } from './support/host-process';
import { isMain, runAlone } from './support/main-guard';
import { startBenchDatabase, type DatabaseCounts } from './support/pg-bench-cluster';
import { percentile } from './support/stats';
import { loadSetup, type LoadedSetup, type QuestionSample } from './support/team-load';

export interface TeamHubOptions {
  agents: number;
  phones: number;
  /** Measured questions per setup (after `warmup`). */
  questions: number;
  /** Questions started per second, whether or not the previous ones are answered. */
  rate: number;
  replicas: number;
  blocks: number;
  warmup: number;
}

/** Issue 38's numbers. */
export const TEAM_HUB_DEFAULTS: TeamHubOptions = {
  agents: 1_000,
  phones: 100,
  questions: 300,
  rate: 5,
  replicas: 3,
  blocks: 4,
  warmup: 20,
};

/** R20.70: the team hub within 1.5× of the single hub. */
const BUDGET = 1.5;
const QUESTION_TIMEOUT_MS = 30_000;
/** How long an agent's receipt of its answer may take to be logged before it counts as never logged. */
const RECEIPT_WAIT_MS = 10_000;

interface Measured {
  samples: QuestionSample[];
  cpuMicros: number;
  events: number;
  counts: DatabaseCounts;
  wallMs: number;
  refused: number;
  /** Agents' receipts never logged (R10.5), warm-up included. */
  receiptsMissing: number;
}

const none = (): DatabaseCounts => ({ statements: 0, transactions: 0, appends: 0 });
const plus = (a: DatabaseCounts, b: DatabaseCounts, sign = 1): DatabaseCounts => ({
  statements: a.statements + sign * b.statements,
  transactions: a.transactions + sign * b.transactions,
  appends: a.appends + sign * b.appends,
});

/** Stops what was started, last first; also on Ctrl-C, so no hub or PostgreSQL outlives the run. */
class Teardown {
  private readonly steps: (() => Promise<void>)[] = [];
  private ran: Promise<void> | undefined;
  add(step: () => Promise<void>): void {
    this.steps.push(step);
  }
  run(): Promise<void> {
    this.ran ??= (async () => {
      for (const step of this.steps.reverse()) await step().catch((error: unknown) => console.error(error));
    })();
    return this.ran;
  }
}

/** A hub's data dir holds nothing worth keeping after the run (its log, for the single hub, is the bench's own). */
async function stopAndRemove(hub: HostProcess): Promise<void> {
  await hub.stop();
  fs.rmSync(hub.dataDir, { recursive: true, force: true });
}

const log = (line: string) => console.log(`[team-hub] ${new Date().toISOString().slice(11, 19)} ${line}`);

export async function runTeamHub(options: TeamHubOptions = TEAM_HUB_DEFAULTS): Promise<{ figures: Figure[] }> {
  const teardown = new Teardown();
  const interrupted = (signal: NodeJS.Signals) => {
    log(`${signal}: stopping the hubs and PostgreSQL`);
    void teardown.run().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const database = await startBenchDatabase();
    teardown.add(() => database.stop());
    // Listed last, whether or not the run got through.
    if (process.env.BENCH_STATEMENTS)
      teardown.add(async () => {
        log('statements since the cluster started (calls, query):');
        for (const { calls, query } of await database.statements()) log(`${String(calls).padStart(8)}  ${query}`);
      });
    log('PostgreSQL started');
    const single = await startHost();
    teardown.add(() => stopAndRemove(single));
    const replicas: HostProcess[] = [];
    for (let index = 0; index < options.replicas; index += 1) {
      // The URL (with its password) in the environment, not on a command line ps shows.
      const replica = await startHost({ env: { ASKAWAY_DATABASE_URL: database.url } });
      replicas.push(replica);
      teardown.add(() => stopAndRemove(replica));
    }
    log(`a single hub and ${replicas.length} replicas started`);
    const loadOptions = { agents: options.agents, phones: options.phones, log };
    const singleLoad = await loadSetup({ ...loadOptions, name: 'single', hubs: [single] });
    teardown.add(() => singleLoad.close());
    const teamLoad = await loadSetup({ ...loadOptions, name: 'team', hubs: replicas });
    teardown.add(() => teamLoad.close());

    const asked = new Map<LoadedSetup, number>([
      [singleLoad, 0],
      [teamLoad, 0],
    ]);
    const receiptsMissing = new Map<LoadedSetup, number>();
    const block = async (setup: LoadedSetup, count: number, samples: QuestionSample[]) => {
      const from = asked.get(setup) ?? 0;
      asked.set(setup, from + count);
      const started = performance.now();
      const questions: Promise<QuestionSample>[] = [];
      for (let index = 0; index < count; index += 1) {
        const delay = started + (index * 1000) / options.rate - performance.now();
        if (delay > 1) await new Promise((resolve) => setTimeout(resolve, delay));
        const question = setup.ask(from + index, QUESTION_TIMEOUT_MS);
        question.catch(() => undefined);
        questions.push(question);
      }
      samples.push(...(await Promise.all(questions)));
      // The agents' receipts are the questions' last writes: counted with their block.
      receiptsMissing.set(setup, await setup.delivered(from + count, RECEIPT_WAIT_MS));
    };
    await block(singleLoad, options.warmup, []);
    await block(teamLoad, options.warmup, []);
    log(`warmed up (${options.warmup} questions each); measuring ${options.questions} each at ${options.rate}/s`);

    const measured = new Map<LoadedSetup, Measured>([
      [singleLoad, { samples: [], cpuMicros: 0, events: 0, counts: none(), wallMs: 0, refused: 0, receiptsMissing: 0 }],
      [teamLoad, { samples: [], cpuMicros: 0, events: 0, counts: none(), wallMs: 0, refused: 0, receiptsMissing: 0 }],
    ]);
    const pids = new Map<LoadedSetup, number[]>([
      [singleLoad, [single.pid]],
      [teamLoad, replicas.map((replica) => replica.pid)],
    ]);
    const cpu = (setup: LoadedSetup) => (pids.get(setup) ?? []).reduce((sum, pid) => sum + procUsage(pid).cpuMicros, 0);
    const profiles = profileDir();
    if (profiles) await Promise.all([single, ...replicas].map((hub) => hub.startProfile()));
    const size = Math.ceil(options.questions / options.blocks);
    for (let done = 0, index = 0; done < options.questions; done += size, index += 1) {
      const count = Math.min(size, options.questions - done);
      const order = index % 2 === 0 ? [singleLoad, teamLoad] : [teamLoad, singleLoad];
      for (const setup of order) {
        const entry = measured.get(setup);
        if (!entry) continue;
        const before = {
          counts: await database.counts(),
          cpu: cpu(setup),
          seq: setup.newestSeq(),
          refused: setup.answersRefused(),
          at: performance.now(),
        };
        await block(setup, count, entry.samples);
        const after = await database.counts();
        entry.counts = plus(entry.counts, plus(after, before.counts, -1));
        entry.cpuMicros += cpu(setup) - before.cpu;
        entry.events += setup.newestSeq() - before.seq;
        entry.wallMs += performance.now() - before.at;
        entry.refused += setup.answersRefused() - before.refused;
      }
    }
    if (profiles) {
      await single.stopProfile(path.join(profiles, 'single.cpuprofile'));
      for (const [index, replica] of replicas.entries())
        await replica.stopProfile(path.join(profiles, `replica-${index}.cpuprofile`));
      log(`CPU profiles of ${options.questions} questions each: ${profiles}`);
    }
    const singleMeasured = measured.get(singleLoad);
    const teamMeasured = measured.get(teamLoad);
    if (singleMeasured) singleMeasured.receiptsMissing = receiptsMissing.get(singleLoad) ?? 0;
    if (teamMeasured) teamMeasured.receiptsMissing = receiptsMissing.get(teamLoad) ?? 0;
    return { figures: teamHubFigures(options, singleMeasured, teamMeasured) };
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await teardown.run();
  }
}

function teamHubFigures(options: TeamHubOptions, single?: Measured, team?: Measured): Figure[] {
  if (!single || !team) throw new Error('a setup measured nothing');
  const all = (entry: Measured, pick: (sample: QuestionSample) => number[]) => entry.samples.flatMap(pick);
  const load = round(os.loadavg()[0] ?? 0, 2);
  const setup =
    `${options.agents.toLocaleString('en-US')} agents and ${options.phones} phones on each setup, spread over ` +
    `${options.replicas} replicas of one PostgreSQL log vs one hub on SQLite; ${options.questions} questions each at ` +
    `${options.rate}/s in ${options.blocks} alternating blocks; 1-minute load ${load}`;
  const timing = (name: string, p: number, pick: (sample: QuestionSample) => number[], note: string) =>
    figure({
      name,
      value: round(percentile(all(team, pick), p), 2),
      unit: 'ms',
      baseline: round(percentile(all(single, pick), p), 2),
      budget: BUDGET,
      budgetOn: 'ratio',
      note: `${note}; ${setup}`,
    });
  const seen = (sample: QuestionSample) => sample.seen;
  const answer = (sample: QuestionSample) => [sample.answer];
  const perQuestion = (value: number) => round(value / options.questions, 2);
  // The replicas ask the database for things on their own too (the leader's lock every 3 s); measured while the
  // single hub's blocks ran and the team was idle, and taken off the team's blocks at that rate.
  const idlePerSecond = single.wallMs > 0 ? single.counts.statements / (single.wallMs / 1000) : 0;
  const idleShare = (idlePerSecond * team.wallMs) / 1000;
  const { statements, transactions, appends } = team.counts;
  return [
    timing(
      'team hub: question → phone p50 (R20.70)',
      50,
      seen,
      'from the agent’s call to each phone’s receipt, every phone',
    ),
    timing(
      'team hub: question → phone p95 (R20.70)',
      95,
      seen,
      'from the agent’s call to each phone’s receipt, every phone',
    ),
    figure({
      name: 'team hub: question → phone on another replica p50',
      value: round(
        percentile(
          all(team, (sample) => sample.seenElsewhere),
          50,
        ),
        2,
      ),
      unit: 'ms',
      baseline: round(percentile(all(single, seen), 50), 2),
      note: 'only the phones connected to another replica than the asking agent’s (NOTIFY → catch-up); baseline: every phone of the single hub',
    }),
    figure({
      name: 'team hub: question → phone on another replica p95',
      value: round(
        percentile(
          all(team, (sample) => sample.seenElsewhere),
          95,
        ),
        2,
      ),
      unit: 'ms',
      baseline: round(percentile(all(single, seen), 95), 2),
      note: 'only the phones connected to another replica than the asking agent’s (NOTIFY → catch-up); baseline: every phone of the single hub',
    }),
    timing(
      'team hub: answer → agent p99 (R20.71)',
      99,
      answer,
      'from a phone on another hub than the agent’s sending its answer to the agent’s tool call returning it',
    ),
    figure({
      name: 'team hub: answers refused and sent again (R20.71)',
      value: team.refused,
      unit: 'answers',
      baseline: single.refused,
      note: `of ${options.questions}; a refused answer (say, "the event log kept moving", R20.3) is sent again as the app's outbox does, after 1 s, and its round trip includes the wait`,
    }),
    figure({
      name: 'team hub: agents’ receipts never logged (R10.5)',
      value: team.receiptsMissing,
      unit: 'questions',
      baseline: single.receiptsMissing,
      note: `of ${options.questions + options.warmup}; each answered question's interaction.delivered, waited for ${RECEIPT_WAIT_MS / 1000} s after its block`,
    }),
    figure({
      name: 'team hub: database round trips per question (R20.72)',
      value: perQuestion(statements - idleShare),
      unit: 'statements',
      note:
        `pg_stat_statements calls of the bench database (node-postgres waits for each statement: one round trip ` +
        `each), the ${options.questions} questions' announces, answers, receipts and the other replicas' catch-ups; ` +
        `${perQuestion(transactions)} transactions (pg_stat_database), ${perQuestion(appends)} appends per question; ` +
        `background ${round(idlePerSecond, 2)} statements/s (the leader's lock) taken off; gross ${perQuestion(statements)}`,
    }),
    figure({
      name: 'team hub: log events per question (R20.72)',
      value: perQuestion(team.events),
      unit: 'events',
      baseline: perQuestion(single.events),
      note: 'seq growth told to the phones; the single hub writes the same events into SQLite, each command one transaction',
    }),
    figure({
      name: 'team hub: hub CPU per question (R20.73)',
      value: round(team.cpuMicros / 1000 / options.questions, 2),
      unit: 'ms',
      baseline: round(single.cpuMicros / 1000 / options.questions, 2),
      note: `all ${options.replicas} replicas' CPU (/proc) vs the single hub's, over the measured blocks; PostgreSQL's own not included`,
    }),
  ];
}

function parseOptions(argv: string[]): TeamHubOptions {
  const { values } = parseArgs({
    args: argv,
    options: Object.fromEntries(Object.keys(TEAM_HUB_DEFAULTS).map((key) => [key, { type: 'string' as const }])),
    strict: true,
  });
  const options = { ...TEAM_HUB_DEFAULTS };
  for (const key of Object.keys(TEAM_HUB_DEFAULTS) as (keyof TeamHubOptions)[]) {
    const raw = values[key];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0 || (key !== 'rate' && !Number.isInteger(value)))
      throw new Error(`--${key} takes a positive ${key === 'rate' ? 'number' : 'whole number'}, not ${raw}`);
    options[key] = value;
  }
  return options;
}

if (isMain(import.meta.url)) {
  let options: TeamHubOptions;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`bench/team-hub: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
  await runAlone('team-hub', () => runTeamHub(options));
}
