import { expect } from '@playwright/test';
import { type TestHost } from './host';
import { previewQuestion, singleQuestion, threeQuestions } from './payloads';
import { RemoteClient } from './remote-client';
import { type ScriptedRuntime } from './scripted-runtime';

const shop = { cwd: '/home/ada/src/shop', projectName: 'shop' };
const notes = { cwd: '/home/ada/src/notes' };
const reviewer = {
  kind: 'subagent' as const,
  label: 'reviewer',
  path: ['reviewer'],
  depth: 1,
  agentType: 'code-reviewer',
};
const reviewerDb = { kind: 'subagent' as const, label: 'db', path: ['reviewer', 'db'], depth: 2 };
const tests = { kind: 'subagent' as const, label: 'tests', path: ['tests'], depth: 1 };

export const PLAN = `# Add a cache layer

1. Add a \`cache\` module with \`get\`/\`set\` and a TTL.
2. Wrap the product lookups in \`cache.get\`.
3. Invalidate on product updates.

**Risk:** stale prices for up to 60 s.`;

/** The pending interactions `populate` leaves, one of each kind of card. */
export interface PopulatedIds {
  previewId: string;
  multiId: string;
  planId: string;
  permissionId: string;
}

/**
 * A realistic host state for screenshots and the accessibility sweep: two projects,
 * subagents, previews, a plan, a permission, and history of every kind.
 */
export async function populate(host: TestHost, runtime: ScriptedRuntime): Promise<PopulatedIds> {
  const other = new RemoteClient(host.url, (await host.pairDevice('Work laptop')).credential);
  try {
    // History first (oldest), each resolved a different way.
    const answered = await runtime.ask(singleQuestion, { sessionId: 'sess-9c41e2', context: notes });
    await other.respond(answered, {
      action: 'accept',
      content: { answers: { [singleQuestion.questions[0]?.question ?? '']: 'SQLite' } },
    });
    const partly = await runtime.ask(threeQuestions, { sessionId: 'sess-7f3a55', context: shop, origin: reviewer });
    await other.respond(partly, {
      action: 'accept',
      content: {
        answers: { 'Which database should we use?': 'Postgres (Recommended)' },
        annotations: { 'Which database should we use?': { notes: 'Same as billing' } },
      },
    });
    const skipped = await runtime.ask(previewQuestion, { sessionId: 'sess-7f3a55', context: shop });
    await other.respond(skipped, { action: 'accept', content: { answers: {} } });
    const declined = await runtime.ask(singleQuestion, { sessionId: 'sess-9c41e2', context: notes, origin: tests });
    await other.respond(declined, { action: 'decline', message: 'Not now — ask after the release' });
    const withdrawn = await runtime.ask(previewQuestion, { sessionId: 'sess-9c41e2', context: notes });
    await runtime.withdraw(withdrawn, 'The agent found the answer in the code');
    await other.setPreferences({
      askUserQuestionAutoResolutionEnabled: true,
      askUserQuestionAutoResolutionTimeoutMs: 1_000,
    });
    const auto = await runtime.ask(singleQuestion, { sessionId: 'sess-7f3a55', context: shop, origin: reviewerDb });
    await expect.poll(() => runtime.resolutionsFor(auto).length, { timeout: 10_000 }).toBeGreaterThan(0);
    await other.setPreferences({ askUserQuestionAutoResolutionTimeoutMs: 10 * 60_000 });

    // Pending, oldest first.
    const permissionId = await runtime.permission(
      'Bash',
      { command: 'npm run migrate -- --env staging', description: 'Run the database migrations on staging' },
      { sessionId: 'sess-9c41e2', context: notes, origin: tests },
    );
    const planId = await runtime.plan(PLAN, { sessionId: 'sess-7f3a55', context: shop });
    const multiId = await runtime.ask(threeQuestions, {
      sessionId: 'sess-7f3a55',
      context: {
        ...shop,
        agentMessage: 'I set up the project skeleton. Before I write the data layer I need three decisions from you.',
      },
      origin: reviewerDb,
    });
    const previewId = await runtime.ask(previewQuestion, {
      sessionId: 'sess-7f3a55',
      context: {
        ...shop,
        agentMessage:
          'I compared two layouts for the settings page. The table is denser and matches the admin screens; the cards group related settings and work better on phones. Both keep the existing routes.\n\nThe design system already has a Card component, so the second option needs no new primitives.',
      },
      origin: reviewer,
    });
    return { previewId, multiId, planId, permissionId };
  } finally {
    other.close();
  }
}
