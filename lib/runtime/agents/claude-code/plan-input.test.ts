import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLAN_MAX, PlanApprovalInputSchema } from '../../../contracts';
import { tempDir } from '../../../host/test-support/test-host';
import { clipPlan, PLAN_MAX_BYTES, PLAN_TRUNCATED_NOTE, toPlanApprovalInput } from './plan-input';

const bytes = (text: string) => new TextEncoder().encode(text).length;

function collect() {
  const lines: string[] = [];
  return { lines, log: (line: string) => lines.push(line) };
}

describe('ExitPlanMode input as a plan approval', () => {
  it('[R11.2][R3.2] takes the plan Claude Code sent, with its plan file path', async () => {
    const { log } = collect();
    const input = await toPlanApprovalInput(
      { plan: '# Plan\n1. Ship', planFilePath: '/home/dev/.claude/plans/a.md' },
      log,
    );
    expect(input).toEqual({ plan: '# Plan\n1. Ship', planFilePath: '/home/dev/.claude/plans/a.md' });
    expect(PlanApprovalInputSchema.safeParse(input).success).toBe(true);
  });

  it('[R11.2][R3.2] tool_input {} (Claude Code 2.1.332 with no plan file) is a plan approval without a plan', async () => {
    const { lines, log } = collect();
    const input = await toPlanApprovalInput({}, log);
    expect(input).toEqual({});
    expect(PlanApprovalInputSchema.safeParse(input).success).toBe(true);
    expect(lines).toEqual(['askaway hook: Claude Code sent ExitPlanMode without the plan text']);
  });

  it('[R11.2] reads the plan from the named .md plan file when the input has no plan text', async () => {
    const dir = tempDir('askaway-plans-');
    const file = path.join(dir, 'brave-otter.md');
    writeFileSync(file, '# Plan\n\n1. Add Auth.js\n2. Protect /admin\n');
    const input = await toPlanApprovalInput({ plan: '  ', planFilePath: file }, collect().log);
    expect(input).toEqual({ plan: '# Plan\n\n1. Add Auth.js\n2. Protect /admin\n', planFilePath: file });
  });

  it('[R11.2][R12.3] never reads what is not a plan file: relative, not .md, a directory, missing', async () => {
    const dir = tempDir('askaway-plans-');
    const secret = path.join(dir, 'id_rsa');
    writeFileSync(secret, 'PRIVATE KEY');
    mkdirSync(path.join(dir, 'folder.md'));
    for (const planFilePath of ['plans/a.md', secret, path.join(dir, 'folder.md'), path.join(dir, 'gone.md')]) {
      const { lines, log } = collect();
      const input = await toPlanApprovalInput({ planFilePath }, log);
      expect(input).toEqual({ planFilePath });
      expect(lines).toHaveLength(2);
      expect(lines[1]).toBe('askaway hook: Claude Code sent ExitPlanMode without the plan text');
    }
  });

  it('[R12.3] a plan too long for one message is cut, says so, and still passes the contract', async () => {
    const long = 'x'.repeat(PLAN_MAX + 10);
    const clipped = clipPlan(long);
    expect(clipped.length).toBeLessThanOrEqual(PLAN_MAX);
    expect(clipped.endsWith(PLAN_TRUNCATED_NOTE)).toBe(true);
    const wide = '计划'.repeat(40_000);
    expect(bytes(clipPlan(wide))).toBeLessThanOrEqual(PLAN_MAX_BYTES);
    expect(PlanApprovalInputSchema.safeParse({ plan: clipPlan(wide) }).success).toBe(true);
    expect(clipPlan('short')).toBe('short');

    const dir = tempDir('askaway-plans-');
    const file = path.join(dir, 'huge.md');
    writeFileSync(file, '步'.repeat(PLAN_MAX_BYTES));
    const fromFile = await toPlanApprovalInput({ planFilePath: file }, collect().log);
    expect(fromFile.plan?.endsWith(PLAN_TRUNCATED_NOTE)).toBe(true);
    expect(fromFile.plan).not.toContain('\uFFFD');
    expect(bytes(fromFile.plan ?? '')).toBeLessThanOrEqual(PLAN_MAX_BYTES);
  });
});
