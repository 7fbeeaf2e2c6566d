import { describe, expect, it } from 'vitest';
import { expectItem } from '../../../core/test-support/expect-item';
import {
  hookCalls,
  questionCalls,
  questionTranscripts,
  planTranscript,
  planWithoutFileTranscript,
  toolTranscript,
  type CapturedHookCall,
} from './fixtures';
import { settlementMatcher } from './transcript-settlement';

function matcherFor(call: CapturedHookCall) {
  return settlementMatcher({
    toolName: call.payload.tool_name,
    toolInput: call.payload.tool_input,
    startedAt: call.startedAt,
  });
}

/** Index of the first line that settles the prompt: `seen` were in the file first, `appended` came later. */
function settlesAt(call: CapturedHookCall, seen: string[], appended: string[]): number | undefined {
  const matcher = matcherFor(call);
  const caughtUp = seen.findIndex((line) => matcher.feed(line, true));
  if (caughtUp !== -1) return caughtUp;
  const later = appended.findIndex((line) => matcher.feed(line, false));
  return later === -1 ? undefined : seen.length + later;
}

const redate = (line: string, changes: Record<string, unknown>) => JSON.stringify({ ...JSON.parse(line), ...changes });

describe('settlementMatcher on Claude Code 2.1.332 transcripts (a prompt answered in the terminal)', () => {
  const plan = planTranscript;
  const planLines = plan.lines;

  it('[R11.7] a plan rejected in the terminal with feedback: its error result settles the hook', () => {
    const seen = planLines.slice(0, plan.firstPlanRejected);
    const appended = planLines.slice(plan.firstPlanRejected);
    expect(settlesAt(hookCalls.planRejected, seen, appended)).toBe(plan.firstPlanRejected);
  });

  it('[R11.7] a plan approved in the terminal: its result settles the hook, the earlier rejected plan does not', () => {
    const seen = planLines.slice(0, plan.secondPlanCall + 1);
    const appended = planLines.slice(plan.secondPlanCall + 1);
    expect(settlesAt(hookCalls.planApproved, seen, appended)).toBe(plan.secondPlanApproved);
  });

  it("[R11.7] an older plan's answer is not this one's, even when the new call is not in the file yet", () => {
    // The hook looked before Claude Code had logged its call: the last ExitPlanMode in the file is the old,
    // answered one, and its result is older than the hook.
    const seen = planLines.slice(0, plan.firstPlanRejected + 1);
    const appended = planLines.slice(plan.firstPlanRejected + 1);
    expect(settlesAt(hookCalls.planApproved, seen, appended)).toBe(plan.secondPlanApproved);
  });

  it('[R11.7] lines logged late (after the hook looked) but dated before it started do not settle it', () => {
    expect(settlesAt(hookCalls.planApproved, [], planLines)).toBe(plan.secondPlanApproved);
  });

  it('[R11.7] a plan given inline without a plan file (the hook got {}) is matched by the tool alone', () => {
    const { lines, planCall, planApproved } = planWithoutFileTranscript;
    expect(hookCalls.planWithoutFile.payload.tool_input).toEqual({});
    expect(settlesAt(hookCalls.planWithoutFile, lines.slice(0, planCall + 1), lines.slice(planCall + 1))).toBe(
      planApproved,
    );
  });

  it('[R11.7] --all-tools: a Write approved in the terminal settles its own hook only', () => {
    const { lines, firstWriteCall, firstWriteApproved, secondWriteCall, secondWriteRejected } = toolTranscript;
    expect(settlesAt(hookCalls.writeApproved, lines.slice(0, firstWriteCall + 1), lines.slice(1))).toBe(
      firstWriteApproved,
    );
    // The second Write's hook started after the first was answered.
    expect(settlesAt(hookCalls.writeRejected, [], lines)).toBe(secondWriteRejected);
    expect(
      settlesAt(hookCalls.writeRejected, lines.slice(0, secondWriteCall + 1), lines.slice(secondWriteCall + 1)),
    ).toBe(secondWriteRejected);
  });

  it('[R11.7] of two waiting calls of one tool, only the one with the hook’s input settles it', () => {
    const { lines, firstWriteCall, firstWriteApproved, secondWriteCall, secondWriteRejected } = toolTranscript;
    const both = [expectItem(lines, firstWriteCall), expectItem(lines, secondWriteCall)];
    const otherAnswered = expectItem(lines, secondWriteRejected);
    const ownAnswered = expectItem(lines, firstWriteApproved);
    expect(settlesAt(hookCalls.writeApproved, both, [otherAnswered])).toBeUndefined();
    expect(settlesAt(hookCalls.writeApproved, both, [otherAnswered, ownAnswered])).toBe(3);
  });

  it('[R11.7] ignores other tools, subagent (sidechain) lines, and lines that are not JSON', () => {
    const { lines } = toolTranscript;
    expect(settlesAt(hookCalls.planApproved, [], lines)).toBeUndefined();
    const sidechain = planLines.map((line) => redate(line, { isSidechain: true }));
    expect(settlesAt(hookCalls.planApproved, [], sidechain)).toBeUndefined();
    const matcher = matcherFor(hookCalls.planApproved);
    for (const line of ['', '{not json', 'null', '"tool_result"', '{"type":"user","message":{"content":"tool_use"}}'])
      expect(matcher.feed(line, false)).toBeUndefined();
  });

  it('[R11.7] an undated result counts only when it was appended while the hook watched', () => {
    const call = expectItem(planLines, plan.secondPlanCall);
    const undated = redate(expectItem(planLines, plan.secondPlanApproved), { timestamp: undefined });
    expect(settlesAt(hookCalls.planApproved, [call, undated], [])).toBeUndefined();
    expect(settlesAt(hookCalls.planApproved, [call], [undated])).toBe(1);
  });
});

describe('settlementMatcher on AskUserQuestion (Claude Code 2.1.332, PermissionRequest beside the dialog)', () => {
  const matcherFor = (call: CapturedHookCall) =>
    settlementMatcher({
      toolName: call.payload.tool_name,
      toolInput: call.payload.tool_input,
      startedAt: call.startedAt,
      promptId: call.payload.prompt_id,
    });
  const settle = (call: CapturedHookCall, lines: readonly string[], catchUp = false) => {
    const matcher = matcherFor(call);
    for (const line of lines) {
      const settlement = matcher.feed(line, catchUp);
      if (settlement) return settlement;
    }
    return undefined;
  };

  it('[R11.9] an option chosen in the terminal: the answers as Claude Code recorded them, by the terminal', () => {
    const settlement = settle(questionCalls.questionAnswered, questionTranscripts.questionAnswered);
    expect(settlement?.source).toBe('user_temporary');
    expect(settlement?.isError).toBe(false);
    expect(settlement?.result).toMatchObject({ answers: { 'Which database should the service use?': 'Postgres' } });
  });

  it('[R11.9] a multi-select in the terminal keeps its joined, quoted labels', () => {
    const settlement = settle(questionCalls.multiSelectAnswered, questionTranscripts.multiSelectAnswered);
    expect(settlement?.result).toMatchObject({
      answers: { 'Which stores should we support?': 'Postgres, "SQLite, embedded", "Redis \\"fast\\""' },
    });
  });

  it('[R11.9] "Chat about this" is a rejection', () => {
    const settlement = settle(questionCalls.chatAboutThis, questionTranscripts.chatAboutThis);
    expect(settlement).toMatchObject({ isError: true, source: 'user_reject' });
  });

  it('[R11.9] two questions of one prompt share its id: each hook takes only the answer to its own questions', () => {
    const lines = questionTranscripts.twoQuestionsOnePrompt;
    const database = settle(questionCalls.twoQuestionsOnePromptDatabase, lines);
    const cache = settle(questionCalls.twoQuestionsOnePromptCache, lines);
    expect(database?.result).toMatchObject({ answers: { 'Which database should the service use?': 'Postgres' } });
    expect(cache?.result).toMatchObject({ answers: { 'Which cache should sit in front of it?': 'Redis' } });
    // Without the assistant's calls (logged before the tail read): the prompt id and the questions still match.
    const results = lines.filter((line) => line.includes('"tool_result"'));
    expect(settle(questionCalls.twoQuestionsOnePromptCache, results)?.result).toMatchObject({
      answers: { 'Which cache should sit in front of it?': 'Redis' },
    });
  });

  it("[R11.9] another prompt's result, or one written before the hook started, never settles it", () => {
    const call = questionCalls.questionAnswered;
    const lines = questionTranscripts.questionAnswered;
    const otherPrompt = lines.map((line) =>
      line.includes('"promptId"') ? redate(line, { promptId: 'another' }) : line,
    );
    expect(settle(call, otherPrompt)).toBeUndefined();
    const earlier = { ...call, startedAt: Date.parse('2030-01-01T00:00:00Z') };
    expect(settle(earlier, lines, true)).toBeUndefined();
  });
});
