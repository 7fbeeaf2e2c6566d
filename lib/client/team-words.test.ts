import { describe, expect, it } from 'vitest';
import { type InteractionResolution, type InteractionView } from '../contracts';
import { type AuditLine } from '../contracts/audit';
import { auditSentence, auditSource } from './audit-words';
import { translator } from './i18n';
import './i18n-en-outcomes';
import './i18n-en-prompts';
import './i18n-en-team';
import { handOverText } from './hand-over-words';
import { questionView } from './test-support/fixtures';
import { resolvedByText } from './team-words';

const t = translator('en');
const ANA = { id: 'p-ana', name: 'Ana Lima' };
const BEN = { id: 'p-ben', name: 'Ben Ortiz' };
const AT = '2026-12-07T14:02:00.000Z';
const clock = new Date(AT).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** A question with `questions` questions: Q0?, Q1?, … */
function question(questions: number): InteractionView {
  const view = questionView('req-1');
  if (view.kind !== 'question') throw new Error('a question');
  const first = view.input.questions[0];
  if (!first) throw new Error('a question');
  view.input.questions = Array.from({ length: questions }, (_, i) => ({ ...first, question: `Q${i}?` }));
  return view;
}

function resolution(
  response: InteractionResolution['response'],
  person = ANA,
  label = 'Pixel 8',
): InteractionResolution {
  return {
    requestId: 'req-1',
    response,
    resolvedBy: 'user',
    resolvedAt: AT,
    device: { id: 'd1', label, person },
  };
}

describe('[R21.76] who a question was handed to, and by whom', () => {
  it('[R21.76] says “you” to the person it was handed to, and names them to everyone else', () => {
    const handedOver = { to: BEN, by: ANA, at: AT };
    expect(handOverText(handedOver, 'p-ben', t)).toBe('Handed to you by Ana Lima');
    expect(handOverText(handedOver, 'p-ana', t)).toBe('Handed to Ben Ortiz by Ana Lima');
    expect(handOverText(handedOver, undefined, t)).toBe('Handed to Ben Ortiz by Ana Lima');
    expect(handOverText({ to: BEN, at: AT }, 'p-ben', t)).toBe('Handed to you by the hub’s operator');
    expect(handOverText({ to: BEN, at: AT }, null, t)).toBe('Handed to Ben Ortiz by the hub’s operator');
  });
});

describe('[R21.22] who answered, on which device, when', () => {
  it('[R21.22] an answer, a partial one, a skip, a decline, each in its own words', () => {
    const view = question(2);
    const answers = { 'Q0?': 'A', 'Q1?': 'B' };
    expect(resolvedByText(view, resolution({ action: 'accept', content: { answers } }), t, 'en')).toBe(
      `Answered by Ana Lima on Pixel 8 at ${clock}`,
    );
    expect(resolvedByText(view, resolution({ action: 'accept', content: { answers: { 'Q0?': 'A' } } }), t, 'en')).toBe(
      `Answered 1 of 2 by Ana Lima on Pixel 8 at ${clock}`,
    );
    expect(resolvedByText(view, resolution({ action: 'accept', content: { answers: {} } }), t, 'en')).toBe(
      `Skipped by Ana Lima on Pixel 8 at ${clock}`,
    );
    expect(resolvedByText(view, resolution({ action: 'decline' }), t, 'en')).toBe(
      `Declined by Ana Lima on Pixel 8 at ${clock}`,
    );
    expect(resolvedByText(view, resolution({ action: 'cancel' }, BEN, ''), t, 'en')).toBe(
      `Cancelled by Ben Ortiz at ${clock}`,
    );
  });

  it('[R21.22] no person, no name: auto-resolution, the agent, a device of nobody’s keep their own words', () => {
    const view = question(1);
    const accept = { action: 'accept' as const, content: { answers: { 'Q0?': 'A' } } };
    expect(resolvedByText(view, { ...resolution(accept), resolvedBy: 'auto' }, t, 'en')).toBeNull();
    expect(resolvedByText(view, { ...resolution(accept), resolvedBy: 'runtime' }, t, 'en')).toBeNull();
    expect(resolvedByText(view, { ...resolution(accept), device: { id: 'd1', label: 'Pixel' } }, t, 'en')).toBeNull();
  });
});

describe('[R21.85] an audit line in words', () => {
  const base: AuditLine = {
    seq: 7,
    at: AT,
    action: 'answer',
    outcome: 'refused',
    actor: { personId: 'p-ben', personName: 'Ben Ortiz', deviceName: 'Pixel 8', address: '203.0.113.7', via: 'app' },
    target: { kind: 'question', id: 'req-1', name: 'Which database?' },
  };

  it('[R21.85] who did what to what, from which device and address', () => {
    expect(auditSentence(base, t)).toBe('Ben Ortiz answered question “Which database?”');
    expect(auditSource(base, t)).toBe('from Pixel 8 · 203.0.113.7 · the app');
    const known = (id: string) => (id === 'req-1' ? 'Which cache?' : undefined);
    expect(auditSentence(base, t, known)).toBe('Ben Ortiz answered question “Which cache?”');
    const minted: AuditLine = { ...base, action: 'join-code-minted', target: { kind: 'person', id: 'p-ben' } };
    expect(auditSentence(minted, t, known)).toBe('Ben Ortiz invited a machine for p-ben');
  });

  it('[R21.85] the operator when no person did it; an action without a target reads whole', () => {
    const operator: AuditLine = {
      ...base,
      action: 'person-removed',
      outcome: 'done',
      actor: { via: 'cli' },
      target: { kind: 'person', id: 'p-ben', name: 'Ben Ortiz' },
    };
    expect(auditSentence(operator, t)).toBe('The hub’s operator removed Ben Ortiz');
    expect(auditSource(operator, t)).toBe('the hub’s terminal');
    expect(auditSentence({ ...base, action: 'sign-in', target: undefined }, t)).toBe('Ben Ortiz signed in');
  });

  it('[R21.85] a machine joins by itself: a person’s names them, a group’s or the owner’s names nobody', () => {
    const joined: AuditLine = {
      ...base,
      action: 'machine-joined',
      outcome: 'done',
      actor: { personId: 'p-ben', personName: 'Ben Ortiz', address: '203.0.113.7', via: 'join' },
      target: { kind: 'machine', id: '0123456789abcdef', name: 'ben-laptop' },
    };
    expect(auditSentence(joined, t)).toBe('Machine ben-laptop joined as Ben Ortiz’s');
    const shared: AuditLine = {
      ...joined,
      actor: { address: '203.0.113.9', via: 'join' },
      target: { kind: 'machine', id: '0123456789abcdee', name: 'ci-box' },
    };
    expect(auditSentence(shared, t)).toBe('Machine ci-box joined');
  });
});
