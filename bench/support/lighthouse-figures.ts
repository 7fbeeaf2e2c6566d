// bench/lighthouse.ts's samples turned into figures: the budgets of R13.5 (repeat visit of the paired inbox) and
// R13.7 (first visits of the unpaired inbox and the pairing page), and the figures beside them kept as information.
import { BESIDE_NEIGHBOUR } from './busy-neighbour';
import { figure, round, type Figure } from './figures';
import { median } from './stats';

export type Visit = 'repeat' | 'first';
/**
 * `inbox`: the paired inbox with its pending questions; `unpaired`: `/` on a device that never paired; `pair`:
 * `/pair#code=…`, what the QR code opens; `hello`: the hello-world page; `helloSw`: the same page installed as a
 * PWA with the app's service worker (repeat visits only).
 */
export type Subject = 'inbox' | 'unpaired' | 'pair' | 'hello' | 'helloSw';

/** The visits each subject is measured in. A first visit of `helloSw` is plain hello world (storage cleared). */
export const SUBJECT_VISITS: Record<Subject, readonly Visit[]> = {
  inbox: ['repeat', 'first'],
  unpaired: ['first'],
  pair: ['first'],
  hello: ['repeat', 'first'],
  helloSw: ['repeat'],
};

export interface Sample {
  lcp: number;
  tbt: number;
  fcp: number;
  score: number;
  lcpElement: string;
}

export type Samples = Record<Subject, Record<Visit, Sample[]>>;

export interface Settings {
  runs: number;
  pending: number;
  /** LCP: at most this times hello world's, same visit (R13.5, R13.7). */
  lcpRatio: number;
  /** Repeat-visit TBT: at most this times the service-worker reference's (R13.5). */
  tbtRatio: number;
  scoreMargin: number;
}

type Metric = 'lcp' | 'tbt' | 'fcp' | 'score';

const SERVICE_WORKER_REFERENCE = 'hello world with a service worker';

export function emptySamples(): Samples {
  const visits = () => ({ repeat: [], first: [] });
  return { inbox: visits(), unpaired: visits(), pair: visits(), hello: visits(), helloSw: visits() };
}

function pick(list: readonly Sample[], key: Metric): number {
  return median(list.map((sample) => sample[key]));
}

/** `lowest–highest` of one metric across the runs. */
function range(list: readonly Sample[], key: Metric, digits = 0): string {
  const values = list.map((sample) => sample[key]);
  return `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;
}

function elements(list: readonly Sample[]): string {
  return list.map((sample) => sample.lcpElement).join(' | ');
}

function formatRatio(value: number, reference: number): string {
  return reference > 0 ? `${round(value / reference, 2)}×` : 'against 0 ms';
}

/** The paired inbox's repeat visit (R13.5): LCP and score against hello world, TBT against the service-worker reference. */
function repeatVisitFigures(samples: Samples, settings: Settings): Figure[] {
  const ours = samples.inbox.repeat;
  const hello = samples.hello.repeat;
  const reference = samples.helloSw.repeat;
  const note =
    `Lighthouse 12 mobile preset, median of ${settings.runs}; ${settings.pending} pending; repeat visit (service worker ` +
    `and cached inbox in place; hello world with its HTTP cache); FCP ${Math.round(pick(ours, 'fcp'))} ms (hello world ` +
    `${Math.round(pick(hello, 'fcp'))} ms, with a service worker ${Math.round(pick(reference, 'fcp'))} ms); ` +
    `LCP element: ${elements(ours)}`;
  const lcpBaseline = round(pick(hello, 'lcp'), 0);
  const tbtReference = round(pick(reference, 'tbt'), 0);
  const helloScore = pick(hello, 'score');
  return [
    figure({
      name: 'lighthouse: inbox LCP (repeat visit) (R13.5)',
      value: round(pick(ours, 'lcp'), 0),
      unit: 'ms',
      baseline: lcpBaseline,
      budget: round(settings.lcpRatio * lcpBaseline, 0),
      note: `${note}; budget ${settings.lcpRatio}× hello world`,
    }),
    figure({
      name: 'lighthouse: inbox TBT (repeat visit) (R13.5)',
      value: round(pick(ours, 'tbt'), 0),
      unit: 'ms',
      baseline: tbtReference,
      budget: round(settings.tbtRatio * tbtReference, 0),
      note:
        `${note}; baseline: ${SERVICE_WORKER_REFERENCE} (it paints as early as ours), budget ${settings.tbtRatio}× it; ` +
        `plain hello world ${Math.round(pick(hello, 'tbt'))} ms`,
    }),
    figure({
      name: 'lighthouse: inbox TBT against plain hello world (repeat visit)',
      value: round(pick(ours, 'tbt'), 0),
      unit: 'ms',
      baseline: round(pick(hello, 'tbt'), 0),
      note: `${note}; information: hello world's long tasks come before its later first paint, so TBT misses them`,
    }),
    figure({
      name: 'lighthouse: inbox performance score (repeat visit) (R13.5)',
      value: round(pick(ours, 'score'), 2),
      unit: 'score',
      baseline: round(helloScore, 2),
      budget: round(helloScore - settings.scoreMargin, 2),
      atLeast: true,
      note: `${note}; budget: hello world's score − ${settings.scoreMargin}`,
    }),
  ];
}

/** The hello world installed with the app's service worker, against plain hello world (how much the early paint moves). */
function serviceWorkerReferenceFigures(samples: Samples, settings: Settings): Figure[] {
  const reference = samples.helloSw.repeat;
  const plain = samples.hello.repeat;
  const note =
    `Lighthouse 12 mobile preset, median of ${settings.runs}; repeat visit of the hello-world page installed with the ` +
    `app's Workbox service worker (HTML and scripts precached on install, served cache-first); baseline: hello world ` +
    `with its HTTP cache; FCP ${Math.round(pick(reference, 'fcp'))} ms; LCP element: ${elements(reference)}`;
  return [
    ...(['lcp', 'tbt'] as const).map((key) =>
      figure({
        name: `lighthouse: ${SERVICE_WORKER_REFERENCE} ${key.toUpperCase()} (repeat visit)`,
        value: round(pick(reference, key), 0),
        unit: 'ms',
        baseline: round(pick(plain, key), 0),
        note,
      }),
    ),
    figure({
      name: `lighthouse: ${SERVICE_WORKER_REFERENCE} performance score (repeat visit)`,
      value: round(pick(reference, 'score'), 2),
      unit: 'score',
      baseline: round(pick(plain, 'score'), 2),
      note,
    }),
  ];
}

/** R13.7's own ceilings on a first visit, beside its LCP ratio: absolute, as Lighthouse grades them. */
const FIRST_VISIT_TBT_MS = 200;
const FIRST_VISIT_SCORE = 0.95;

/**
 * One screen's first visit against hello world's first visit: LCP, TBT and score, budgeted when `requirement` is
 * given (R13.7), else information. `beside`: the note of a busy neighbour that ran throughout (./busy-neighbour.ts);
 * its figures are named apart, so results.json keeps both.
 */
function firstVisitFigures(
  samples: Samples,
  settings: Settings,
  subject: 'inbox' | 'unpaired' | 'pair',
  label: string,
  requirement?: string,
  beside?: string,
): Figure[] {
  const ours = samples[subject].first;
  const hello = samples.hello.first;
  const note =
    `Lighthouse 12 mobile preset, median of ${settings.runs}; first visit (storage and cache cleared); ` +
    `FCP ${Math.round(pick(ours, 'fcp'))} ms (hello world ${Math.round(pick(hello, 'fcp'))} ms); ` +
    `LCP element: ${elements(ours)}; runs: LCP ${range(ours, 'lcp')} ms, TBT ${range(ours, 'tbt')} ms, score ` +
    `${range(ours, 'score', 2)}${beside === undefined ? '' : `; ${beside}`}`;
  const lcpBaseline = round(pick(hello, 'lcp'), 0);
  const tag = `${beside === undefined ? '' : `, ${BESIDE_NEIGHBOUR}`}${requirement ? ` (${requirement})` : ''}`;
  return [
    figure({
      name: `lighthouse: ${label} LCP (first visit)${tag}`,
      value: round(pick(ours, 'lcp'), 0),
      unit: 'ms',
      baseline: lcpBaseline,
      budget: requirement ? round(settings.lcpRatio * lcpBaseline, 0) : undefined,
      note: requirement ? `${note}; budget ${settings.lcpRatio}× hello world` : note,
    }),
    figure({
      name: `lighthouse: ${label} TBT (first visit)${tag}`,
      value: round(pick(ours, 'tbt'), 0),
      unit: 'ms',
      baseline: round(pick(hello, 'tbt'), 0),
      budget: requirement ? FIRST_VISIT_TBT_MS : undefined,
      note: requirement ? `${note}; budget ${FIRST_VISIT_TBT_MS} ms` : note,
    }),
    figure({
      name: `lighthouse: ${label} performance score (first visit)${tag}`,
      value: round(pick(ours, 'score'), 2),
      unit: 'score',
      baseline: round(pick(hello, 'score'), 2),
      budget: requirement ? FIRST_VISIT_SCORE : undefined,
      atLeast: true,
      note: requirement ? `${note}; budget ≥ ${FIRST_VISIT_SCORE}` : note,
    }),
  ];
}

export function lighthouseFigures(samples: Samples, settings: Settings): Figure[] {
  return [
    ...repeatVisitFigures(samples, settings),
    ...serviceWorkerReferenceFigures(samples, settings),
    ...firstVisitFigures(samples, settings, 'unpaired', 'unpaired inbox', 'R13.7'),
    ...firstVisitFigures(samples, settings, 'pair', 'pairing page', 'R13.7'),
    ...firstVisitFigures(samples, settings, 'inbox', 'inbox'),
  ];
}

/** R13.7's first visits measured again beside a CPU-bound neighbour (`samples` from that run; `note` says how). */
export function besideNeighbourFigures(samples: Samples, settings: Settings, note: string): Figure[] {
  return [
    ...firstVisitFigures(samples, settings, 'unpaired', 'unpaired inbox', 'R13.7', note),
    ...firstVisitFigures(samples, settings, 'pair', 'pairing page', 'R13.7', note),
  ];
}

/** The budget lines (holds / OVER), then the repeat visit's TBT against plain hello world, as information. */
export function printVerdicts(figures: readonly Figure[], samples: Samples): void {
  for (const entry of figures.filter((candidate) => candidate.withinBudget !== undefined)) {
    console.log(
      `[lighthouse] ${entry.name}: ${entry.value} ${entry.unit} against ${entry.atLeast ? '≥' : '≤'} ${entry.budget} — ` +
        (entry.withinBudget ? 'holds' : 'OVER'),
    );
  }
  const ours = pick(samples.inbox.repeat, 'tbt');
  const plain = pick(samples.hello.repeat, 'tbt');
  console.log(
    `[lighthouse] inbox TBT (repeat visit) against plain hello world: ${Math.round(ours)} / ${Math.round(plain)} ms = ` +
      `${formatRatio(ours, plain)} (information, not a budget)`,
  );
}
