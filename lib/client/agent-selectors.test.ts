import { describe, expect, it } from 'vitest';
import { type AgentRef, type InteractionView } from '../contracts';
import { byAgent, effectiveFilter, selectAgentOptions } from './filter-options';
import { selectShowAgents } from './agent-selectors';
import { fromSnapshot, type HostView } from './reduce';
import { selectSessions } from './session-tree';
import { questionView, snapshotOf } from './test-support/fixtures';

const CODEX: AgentRef = { kind: 'codex', name: 'Codex', version: '0.171.0' };
const OPENCODE: AgentRef = { kind: 'opencode', name: 'OpenCode' };

function ask(requestId: string, sessionId: string, agent?: AgentRef): InteractionView {
  return { ...questionView(requestId, sessionId), ...(agent ? { agent } : {}) };
}

function host(pending: InteractionView[], history: InteractionView[] = []): HostView {
  return fromSnapshot({ ...snapshotOf(pending, 10), history }, 0);
}

describe('agents on the phone (R18.1)', () => {
  it('names no agent while every prompt on record comes from the same one', () => {
    expect(selectShowAgents(host([ask('a', 's1', CODEX), ask('b', 's2', CODEX)]))).toBe(false);
    expect(selectShowAgents(host([]))).toBe(false);
  });

  it('names agents once a second one is on record, pending or past', () => {
    const past = { ...ask('old', 's0', OPENCODE), status: 'withdrawn' as const };
    expect(selectShowAgents(host([ask('a', 's1', CODEX)], [past]))).toBe(true);
  });

  it('lists every agent on record by name; a view cached without one counts for none', () => {
    const mcp: AgentRef = { kind: 'mcp', name: 'Cursor', version: '2.0' };
    const cachedByOlderApp = ask('old', 's0');
    const view = host([ask('c', 's5', CODEX), ask('m', 's4', mcp), cachedByOlderApp]);
    expect(selectAgentOptions(view)).toEqual([
      { id: 'codex', name: 'Codex', kind: 'codex' },
      { id: 'mcp:Cursor', name: 'Cursor', kind: 'mcp' },
    ]);
    expect(selectShowAgents(host([ask('c', 's5', CODEX), cachedByOlderApp]))).toBe(false);
  });

  it('filters by agent key; a remembered agent with nothing on record means every agent', () => {
    const view = host([ask('a', 's1', CODEX), ask('b', 's2', OPENCODE)]);
    const options = selectAgentOptions(view);
    expect(effectiveFilter('codex', options)).toBe('codex');
    expect(effectiveFilter('claude-code', options)).toBe('');
    const codexOnly = [...view.interactions.values()].filter((item) => byAgent(item, 'codex'));
    expect(codexOnly.map((item) => item.requestId)).toEqual(['a']);
    expect([...view.interactions.values()].filter((item) => byAgent(item, ''))).toHaveLength(2);
  });

  it("a session carries its first prompt, so Sessions filter by the session's agent", () => {
    const trees = selectSessions(host([ask('a', 's1', CODEX), ask('b', 's2', OPENCODE), ask('c', 's1', CODEX)]));
    expect(trees.filter((tree) => byAgent(tree.first, 'opencode')).map((tree) => tree.sessionId)).toEqual(['s2']);
  });
});
