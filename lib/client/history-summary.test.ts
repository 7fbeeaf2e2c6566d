import { describe, expect, it } from 'vitest';
import { type InteractionView } from '../contracts';
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

describe('[R18.4] how a sent MCP form is summed up', () => {
  const form = (values: Record<string, string> | undefined): InteractionView => ({
    ...questionView('f1'),
    toolName: 'elicitation',
    kind: 'form',
    input: { serverName: 'widgets', message: 'Configure', mode: values ? 'form' : 'url', fields: [] },
    status: 'resolved',
    resolution: {
      requestId: 'f1',
      response: { action: 'accept', ...(values ? { content: { values } } : {}) },
      resolvedBy: 'user',
      resolvedAt: at(40),
      device: { id: 'phone', label: 'Phone' },
    },
  });

  it('[R18.4] answered with its values, or without (a page Done), never skipped', () => {
    expect(summarize(form({ color: 'blue' }), 'phone').kind).toBe('answered');
    expect(summarize(form(undefined), 'phone').kind).toBe('answered');
    expect(summarize(form({ color: 'blue' }), 'tablet').kind).toBe('other-device');
  });
});
