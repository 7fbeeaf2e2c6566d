import { describe, expect, it } from 'vitest';
import { summarize } from './history-summary';
import { at, questionView } from './test-support/fixtures';

describe("[R18.6][R18.39] how an interaction answered on the agent's own side is summed up", () => {
  it('[R18.6] answered in the terminal', () => {
    const view = { ...questionView('r1'), status: 'withdrawn' as const, withdrawnAt: at(5), terminalAnswer: {} };
    expect(summarize(view, null).kind).toBe('terminal');
  });

  it("[R18.39] answered in an ACP agent's editor", () => {
    const view = {
      ...questionView('r1'),
      status: 'withdrawn' as const,
      withdrawnAt: at(5),
      terminalAnswer: { where: 'editor' as const },
    };
    expect(summarize(view, null).kind).toBe('editor');
  });
});
