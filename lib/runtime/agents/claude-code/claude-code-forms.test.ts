import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { claudeCodeHookHarness, type Via } from './test-support/claude-code-hook-harness';
import { FORM_STOPPED_REASON } from './elicitation';
import { elicitationCalls } from './fixtures';
import { DEFAULT_FORM_WAIT_MS } from './install';

// Claude Code's MCP forms through the Elicitation hook (R11.11): the form is on the phone while Claude Code shows
// only a spinner, and goes to the terminal when the phone's time is up.
const harness = claudeCodeHookHarness();
const phone = () => harness.phone();

const VALUES = { name: 'payments', region: 'us', features: ['logs', 'traces'], replicas: 3, public: true };

/** The captured payload in a session of its own, with the harness's transcript (what the model said). */
function payload(which: 'form' | 'url' = 'form') {
  return { ...elicitationCalls[which], session_id: `form-${randomUUID()}`, transcript_path: harness.transcript() };
}

async function ask(via: Via, which: 'form' | 'url' = 'form', flags: Parameters<typeof harness.runHook>[2] = {}) {
  const body = payload(which);
  const run = harness.runHook(via, body, flags);
  const card = await phone().next((record) => record.sessionId === body.session_id, 20_000);
  return { card, run, body };
}

const withdrawal = async (requestId: string) =>
  (await harness.host().registry.readSince(0, 100_000)).find(
    (event) => event.type === 'interaction.withdrawn' && event.requestId === requestId,
  );

describe.each<Via>(['command', 'http'])('an MCP form through the Elicitation hook (%s hook)', (via) => {
  it('[R11.11][R18.4] the card is the server’s form, moving to the terminal at the end of the wait; accept sends the values', async () => {
    const before = Date.now();
    const { card, run } = await ask(via);
    expect(card).toMatchObject({
      kind: 'form',
      agent: { kind: 'claude-code' },
      toolName: 'mcp__elicit',
      input: { serverName: 'elicit', message: 'Tell us about the service', mode: 'form' },
      context: {
        agentMessage: 'There are two good auth libraries for this stack; I need your call.',
        projectName: 'project',
      },
    });
    expect(card.context?.openInTerminal).toBeUndefined();
    const movesAt = Date.parse(card.context?.movesToTerminalAt ?? '');
    expect(movesAt).toBeGreaterThanOrEqual(before + DEFAULT_FORM_WAIT_MS);
    expect(movesAt).toBeLessThanOrEqual(Date.now() + DEFAULT_FORM_WAIT_MS);
    expect(harness.deadlines.pending()).toContain(DEFAULT_FORM_WAIT_MS);
    await phone().respond(card.requestId, { action: 'accept', content: { values: VALUES } });
    expect((await run).reply).toEqual({
      hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept', content: VALUES },
    });
  });

  it('[R11.11] decline and cancel from the phone are the hook’s action; a page to open is accepted without content', async () => {
    const declined = await ask(via);
    await phone().respond(declined.card.requestId, { action: 'decline', message: 'not now' });
    expect((await declined.run).reply).toEqual({
      hookSpecificOutput: { hookEventName: 'Elicitation', action: 'decline' },
    });
    const cancelled = await ask(via);
    await phone().respond(cancelled.card.requestId, { action: 'cancel' });
    expect((await cancelled.run).reply).toEqual({
      hookSpecificOutput: { hookEventName: 'Elicitation', action: 'cancel' },
    });
    const page = await ask(via, 'url');
    expect(page.card).toMatchObject({
      kind: 'form',
      input: { mode: 'url', url: 'https://deploy.example/authorize?state=e2e' },
      toolUseId: 'e2e-sign-in',
    });
    await phone().respond(page.card.requestId, { action: 'accept' });
    expect((await page.run).reply).toEqual({ hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept' } });
  });

  it('[R11.11] when the wait ends the card leaves, moved to the terminal, with no decision; a late answer gets the receipt', async () => {
    const { card, run } = await ask(via, 'form', { formWait: '5s' });
    expect(harness.deadlines.expire(5_000)).toBe(1);
    expect((await run).reply).toEqual({});
    await vi.waitFor(async () =>
      expect(await withdrawal(card.requestId)).toMatchObject({
        reason: expect.stringMatching(
          /^Moved to the terminal on .+: no answer here within 5 s, so Claude Code asks there$/,
        ) as unknown,
      }),
    );
    const late = await phone().respond(card.requestId, { action: 'accept', content: { values: VALUES } });
    expect(late).toMatchObject({ ok: false, error: { code: 'withdrawn' } });
  });

  it('[R11.11] values the host takes but the server’s schema refuses never reach Claude Code: its own form asks', async () => {
    const body = {
      ...payload(),
      requested_schema: { type: 'object', properties: { website: { type: 'string', format: 'uri' } } },
    };
    const run = harness.runHook(via, body);
    const card = await phone().next((record) => record.sessionId === body.session_id, 20_000);
    // The card's URL rule takes any character a URL may hold; the server's also checks each percent-escape.
    const values = { website: 'https://example.com/%zz' };
    expect(await phone().respond(card.requestId, { action: 'accept', content: { values } })).toMatchObject({
      ok: true,
    });
    const { reply, stderr } = await run;
    expect(reply).toEqual({});
    if (via === 'command') expect(stderr).toContain('data/website must match format "uri"');
  });

  it('[R11.11] the host refuses values that miss the card’s fields, so the person can correct them', async () => {
    const { card, run } = await ask(via);
    expect(
      await phone().respond(card.requestId, { action: 'accept', content: { values: { ...VALUES, region: 'mars' } } }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid-response' },
    });
    await phone().respond(card.requestId, { action: 'accept', content: { values: VALUES } });
    expect((await run).reply).toMatchObject({ hookSpecificOutput: { action: 'accept' } });
  });

  it('[R11.11] Claude Code stopping the hook (the server gave up, the session ended) withdraws the card, saying so', async () => {
    const stop = new AbortController();
    const { card, run } = await ask(via, 'form', { stop: stop.signal });
    stop.abort();
    await run;
    await vi.waitFor(async () =>
      expect(await withdrawal(card.requestId)).toMatchObject({ reason: FORM_STOPPED_REASON }),
    );
  });
});
