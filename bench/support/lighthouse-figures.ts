// bench/lighthouse.ts's samples turned into figures: the budgets against hello world (R13.5), and the
// reference without a budget, hello world with a service worker.
import { figure, round, type Figure } from './figures';
import { median } from './stats';

export type Visit = 'repeat' | 'first';
/** `helloSw`: the hello-world page installed as a PWA with the app's service worker (repeat visits only). */
export type Subject = 'inbox' | 'hello' | 'helloSw';

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
  limitRatio: number;
  scoreMargin: number;
}

type Metric = 'lcp' | 'tbt' | 'fcp' | 'score';

const TIMINGS = [
  ['lcp', 'LCP'],
  ['tbt', 'TBT'],
] as const;

const SERVICE_WORKER_REFERENCE = 'hello world with a service worker';

function pick(list: readonly Sample[], key: Metric): number {
  return median(list.map((sample) => sample[key]));
}

/** The inbox against hello world, with the budgets on the repeat visit. */
function budgetedFigures(samples: Samples, visit: Visit, settings: Settings): Figure[] {
  const ours = samples.inbox[visit];
  const theirs = samples.hello[visit];
  const budgeted = visit === 'repeat';
  const suffix = `(${visit} visit)${budgeted ? ' (R13.5)' : ''}`;
  const note =
    `Lighthouse 12 mobile preset, median of ${settings.runs}; ${settings.pending} pending; ${visit === 'repeat' ? 'repeat visit (service worker and cached inbox in place; hello world with its HTTP cache)' : 'first visit (storage and cache cleared)'}; ` +
    `FCP ${Math.round(pick(ours, 'fcp'))} ms (hello world ${Math.round(pick(theirs, 'fcp'))} ms); ` +
    `LCP element: ${ours.map((sample) => sample.lcpElement).join(' | ')}`;
  const figures = TIMINGS.map(([key, label]) => {
    const baseline = round(pick(theirs, key), 0);
    return figure({
      name: `lighthouse: inbox ${label} ${suffix}`,
      value: round(pick(ours, key), 0),
      unit: 'ms',
      baseline,
      budget: budgeted ? round(settings.limitRatio * baseline, 0) : undefined,
      note: `${note}; budget ${settings.limitRatio}× hello world`,
    });
  });
  const helloScore = pick(theirs, 'score');
  figures.push(
    figure({
      name: `lighthouse: inbox performance score ${suffix}`,
      value: round(pick(ours, 'score'), 2),
      unit: 'score',
      baseline: round(helloScore, 2),
      budget: budgeted ? round(helloScore - settings.scoreMargin, 2) : undefined,
      atLeast: true,
      note: `${note}; budget: hello world's score − ${settings.scoreMargin}`,
    }),
  );
  return figures;
}

/**
 * Hello world with a service worker, repeat visit, against plain hello world (its baseline: how much the early
 * paint alone moves the figure); the note gives the inbox's ratio to it (what the app itself costs). No budget.
 */
function serviceWorkerReferenceFigures(samples: Samples, settings: Settings): Figure[] {
  const reference = samples.helloSw.repeat;
  const ours = samples.inbox.repeat;
  const plain = samples.hello.repeat;
  const note =
    `Lighthouse 12 mobile preset, median of ${settings.runs}; repeat visit of the hello-world page installed with the ` +
    `app's Workbox service worker (HTML and scripts precached on install, served cache-first); baseline: hello world ` +
    `with its HTTP cache; FCP ${Math.round(pick(reference, 'fcp'))} ms (inbox ${Math.round(pick(ours, 'fcp'))} ms); ` +
    `LCP element: ${reference.map((sample) => sample.lcpElement).join(' | ')}; not a budget`;
  const timings = TIMINGS.map(([key, label]) =>
    figure({
      name: `lighthouse: ${SERVICE_WORKER_REFERENCE} ${label} (repeat visit)`,
      value: round(pick(reference, key), 0),
      unit: 'ms',
      baseline: round(pick(plain, key), 0),
      note: `${note}; inbox ${label} ${formatRatio(pick(ours, key), pick(reference, key))} this`,
    }),
  );
  const score = figure({
    name: `lighthouse: ${SERVICE_WORKER_REFERENCE} performance score (repeat visit)`,
    value: round(pick(reference, 'score'), 2),
    unit: 'score',
    baseline: round(pick(plain, 'score'), 2),
    note: `${note}; inbox score ${round(pick(ours, 'score'), 2)}`,
  });
  return [...timings, score];
}

function formatRatio(value: number, reference: number): string {
  return reference > 0 ? `${round(value / reference, 2)}×` : 'against 0 ms';
}

export function lighthouseFigures(samples: Samples, settings: Settings): Figure[] {
  return [
    ...budgetedFigures(samples, 'repeat', settings),
    ...budgetedFigures(samples, 'first', settings),
    ...serviceWorkerReferenceFigures(samples, settings),
  ];
}

/** The budget lines (holds / OVER), then the inbox's ratio to the service-worker reference, as information. */
export function printVerdicts(figures: readonly Figure[], samples: Samples): void {
  for (const entry of figures.filter((candidate) => candidate.withinBudget !== undefined)) {
    console.log(
      `[lighthouse] ${entry.name}: ${entry.value} ${entry.unit} against ${entry.atLeast ? '≥' : '≤'} ${entry.budget} — ` +
        (entry.withinBudget ? 'holds' : 'OVER'),
    );
  }
  for (const [key, label] of TIMINGS) {
    const ours = pick(samples.inbox.repeat, key);
    const reference = pick(samples.helloSw.repeat, key);
    console.log(
      `[lighthouse] inbox ${label} (repeat visit) against ${SERVICE_WORKER_REFERENCE}: ${Math.round(ours)} / ` +
        `${Math.round(reference)} ms = ${formatRatio(ours, reference)} (information, not a budget)`,
    );
  }
}
