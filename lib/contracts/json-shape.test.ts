import { describe, expect, it } from 'vitest';
import { DeviceNameSchema, NewDeviceNameSchema } from './devices';
import { jsonShapeProblem, MESSAGE_SHAPE_LIMITS } from './json-shape';
import { machineNameFrom } from './machine-keys';
import { MachineNameSchema, NewMachineNameSchema } from './machine-ref';
import { JoinRequestSchema } from './machines';
import { PairRequestSchema } from './pairing-api';
import { hasUnsafeCharacters, terminalSafe } from './text-safety';

const nested = (levels: number) => {
  let value: unknown = {};
  for (let level = 1; level < levels; level += 1) value = { a: value };
  return value;
};

describe('[R12.5] jsonShapeProblem', () => {
  it('[R12.5] passes real messages and refuses deeper or bigger ones without recursing', () => {
    expect(jsonShapeProblem(nested(32), MESSAGE_SHAPE_LIMITS)).toBeUndefined();
    expect(jsonShapeProblem(nested(33), MESSAGE_SHAPE_LIMITS)).toBe('nests deeper than 32 levels');
    // Far deeper than the call stack allows a recursive walk (or JSON.stringify) to go.
    expect(jsonShapeProblem(nested(200_000), MESSAGE_SHAPE_LIMITS)).toBe('nests deeper than 32 levels');
    expect(
      jsonShapeProblem(
        Array.from({ length: 50_000 }, () => 0),
        MESSAGE_SHAPE_LIMITS,
      ),
    ).toBe('holds more than 50000 values');
    expect(jsonShapeProblem(['a', 1, null, true, { b: [2] }], { maxDepth: 3, maxNodes: 8 })).toBeUndefined();
    expect(jsonShapeProblem('text', { maxDepth: 1, maxNodes: 1 })).toBeUndefined();
  });
});

describe('[R12.8] terminalSafe', () => {
  it('[R12.8] turns every control, zero-width and bidi character into a visible escape', () => {
    const forged = 'no\u001b[1A\u001b[2K\u001b[32m✓ approved by phone';
    expect(terminalSafe(forged)).toBe('no\\u001b[1A\\u001b[2K\\u001b[32m✓ approved by phone');
    expect(terminalSafe('\u001b]0;title\u0007\u001b]8;;https://x\u001b\\link\b\u0000\r\n')).not.toMatch(
      /[\u0000-\u001f]/,
    );
    expect(terminalSafe('lap\u202etop\u200b')).toBe('lap\\u202etop\\u200b');
    expect(terminalSafe('Which DB? 数据库 — «ok»')).toBe('Which DB? 数据库 — «ok»');
    expect(hasUnsafeCharacters('laptop')).toBe(false);
    expect(hasUnsafeCharacters('lap\u2066top')).toBe(true);
  });
});

describe('[R12.8] names given now', () => {
  it('[R12.8] refuse zero-width and bidi characters; names the log already holds still read', () => {
    for (const name of ['lap\u202etop', 'lap\u200btop', '\u2066laptop\u2069', 'lap\ufefftop']) {
      expect(NewDeviceNameSchema.safeParse(name).success, JSON.stringify(name)).toBe(false);
      expect(NewMachineNameSchema.safeParse(name).success, JSON.stringify(name)).toBe(false);
      expect(JoinRequestSchema.safeParse({ code: 'c', name }).success).toBe(false);
      expect(PairRequestSchema.safeParse({ code: 'c', name, platform: 'p' }).success).toBe(false);
      // A record written before the rule still reads: the log is never made unreadable.
      expect(DeviceNameSchema.safeParse(name).success).toBe(true);
      expect(MachineNameSchema.safeParse(name).success).toBe(true);
    }
    expect(NewDeviceNameSchema.safeParse('Anna’s iPhone — 工作').success).toBe(true);
    expect(NewMachineNameSchema.safeParse('שרת-בית').success).toBe(true);
    expect(machineNameFrom('lap\u202etop\u200b')).toBe('laptop');
  });
});
