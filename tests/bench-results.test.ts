import { describe, expect, it } from 'vitest';
import { mergeResults, type Machine, type Results } from '../bench/support/figures';

const machine = (loadAverage1m: number): Machine => ({
  cores: 2,
  cpuModel: 'test',
  memoryBytes: 1,
  node: 'v20',
  platform: 'linux',
  loadAverage1m,
});

const fullRun: Results = {
  date: '2026-11-30T05:00:00.000Z',
  command: 'npm run bench',
  machine: machine(1.5),
  figures: [
    { name: 'round trip p50 (R13.1)', value: 2.4, unit: 'ms' },
    { name: 'restore (R13.2)', value: 160, unit: 'ms' },
  ],
  drills: [{ name: 'sigkill', ok: true, detail: '100/100' }],
};

describe('bench/results.json (R13)', () => {
  it('[R13.1] a script run alone replaces its own figures in place, stamps them, and keeps the full run’s head', () => {
    const merged = mergeResults(
      fullRun,
      {
        figures: [
          { name: 'round trip p50 (R13.1)', value: 1.9, unit: 'ms' },
          { name: 'round trip: server CPU per question', value: 1.8, unit: 'ms' },
        ],
        replaceAll: false,
        command: 'node --import tsx bench/round-trip.ts',
      },
      { date: '2026-11-30T19:00:00.000Z', machine: machine(3.2) },
    );
    expect(merged.date).toBe(fullRun.date);
    expect(merged.command).toBe('npm run bench');
    expect(merged.machine.loadAverage1m).toBe(1.5);
    expect(merged.figures.map((entry) => [entry.name, entry.value])).toEqual([
      ['round trip p50 (R13.1)', 1.9],
      ['restore (R13.2)', 160],
      ['round trip: server CPU per question', 1.8],
    ]);
    expect(merged.figures[0]?.measured).toEqual({
      date: '2026-11-30T19:00:00.000Z',
      command: 'node --import tsx bench/round-trip.ts',
      loadAverage1m: 3.2,
    });
    expect(merged.figures[1]?.measured).toBeUndefined();
    expect(merged.drills).toEqual(fullRun.drills);
  });

  it('[R13.1] a full run replaces everything and heads the file', () => {
    const merged = mergeResults(
      fullRun,
      { figures: [{ name: 'restore (R13.2)', value: 150, unit: 'ms' }], replaceAll: true, command: 'npm run bench' },
      { date: '2026-12-01T00:00:00.000Z', machine: machine(0.5) },
    );
    expect(merged).toEqual({
      date: '2026-12-01T00:00:00.000Z',
      command: 'npm run bench',
      machine: machine(0.5),
      figures: [{ name: 'restore (R13.2)', value: 150, unit: 'ms' }],
      drills: [],
    });
  });
});
