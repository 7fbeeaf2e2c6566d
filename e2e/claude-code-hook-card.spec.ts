import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Page } from '@playwright/test';
import { axeViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { type TestHost } from './support/host';
import { PHONE_SCREEN, reviewShots } from './support/screenshots';

// Claude Code's hook, end to end in the browser: a payload as Claude Code 2.1.332 sends it is
// POSTed to the real host's hook endpoint, the phone answers, and the hook's HTTP reply is checked.
// The real `claude` binary is driven in e2e/claude-code/; here the phone's side is what is tested.

let toolUse = 0;
function hook(host: TestHost, event: 'PreToolUse' | 'PermissionRequest', toolName: string, toolInput: object) {
  toolUse += 1;
  const body = {
    session_id: `e2e-cc-${Date.now().toString(36)}`,
    cwd: '/home/dev/slides',
    hook_event_name: event,
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: `toolu_e2e_${toolUse}_${Math.random().toString(36).slice(2)}`,
  };
  const reply = fetch(`${host.url}/hooks/claude-code`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${host.token}` },
    body: JSON.stringify(body),
  }).then(async (response) => {
    expect(response.status).toBe(200);
    return (await response.json()) as unknown;
  });
  return { reply, toolUseId: body.tool_use_id };
}

/** Opens the card of the interaction whose tool_use_id is `toolUseId`, once the phone has it. */
async function openByToolUse(page: Page, hostUrl: string, toolUseId: string) {
  const handle = await page.waitForFunction((id) => {
    for (const view of window.__askaway?.state.host.interactions.values() ?? []) {
      if (view.toolUseId === id && view.status === 'pending') return view.requestId;
    }
    return undefined;
  }, toolUseId);
  const requestId = String(await handle.jsonValue());
  await page.goto(`${hostUrl}/card?id=${encodeURIComponent(requestId)}`);
  await expect(page.getByTestId('card')).toHaveAttribute('data-request-id', requestId);
}

async function expectAccessible(page: Page): Promise<void> {
  expect(await axeViolations(page)).toEqual([]);
}

/** With SCREENSHOTS=1: the screen at 390×844 (mobile) or 1280×800 (desktop), light and dark, for review. */
const shots = (page: Page, name: string, project: string) =>
  reviewShots(page, name, project, project === 'mobile' ? PHONE_SCREEN : undefined);

const DECK = {
  title: 'Before I build your deck',
  questions: [
    {
      question: 'What is the talk about?',
      header: 'Topic',
      kind: 'text',
      description: 'One sentence is enough; I will draft the outline from it.',
      placeholder: 'e.g. Our Q3 roadmap',
    },
    {
      question: 'How many slides should it have?',
      header: 'Length',
      kind: 'number',
      min: 5,
      max: 30,
      step: 1,
      defaultValue: 12,
      unit: 'slides',
    },
    {
      question: 'Where will you present it?',
      header: 'Presentation venue and format',
      options: [
        { label: 'Conference room', description: '' },
        { label: 'Video call', description: 'Screen shared, 16:9' },
        { label: 'Other', description: 'Somewhere else; tell me in a note' },
      ],
      multiSelect: false,
    },
  ],
};

test("[R11.5] Claude Code's text and number questions, long header, empty description and an Other option", async ({
  app,
  host,
}, testInfo) => {
  const { page } = app;
  const { reply, toolUseId } = hook(host, 'PreToolUse', 'AskUserQuestion', DECK);
  await openByToolUse(page, host.url, toolUseId);
  const card = app.card();
  await expect(page.getByTestId('card.title')).toHaveText(DECK.title);

  const topic = await card.show(0);
  await expect(topic).toContainText('One sentence is enough');
  const text = topic.getByTestId('card.text-input');
  await expect(text).toHaveAttribute('placeholder', 'e.g. Our Q3 roadmap');
  await expect(topic.getByLabel('Your answer')).toBeVisible();
  await text.fill('Askaway, answering agents from a phone');
  await shots(page, 'card-text', testInfo.project.name);

  const length = await card.show(1);
  const number = length.getByTestId('card.number-input');
  await expect(number).toHaveAttribute('inputmode', 'decimal');
  await expect(length.getByLabel('Your number')).toBeVisible();
  await expect(length).toContainText('Between 5 and 30 slides · Suggested: 12');
  await number.fill('40');
  await expect(number).toHaveAttribute('aria-invalid', 'true');
  await expect(length).toContainText('Enter a number between 5 and 30.');
  await expectAccessible(page);
  await shots(page, 'card-number-invalid', testInfo.project.name);
  // Neither the next step nor sending is possible with a number that cannot be sent.
  const next = page.getByTestId('card.next');
  const submit = page.getByTestId('card.submit');
  await expect((await next.isVisible()) ? next : submit).toBeDisabled();
  await number.fill('');
  await length.getByTestId('card.number-more').click();
  await expect(number).toHaveValue('13');
  await length.getByTestId('card.number-less').click();
  await length.getByTestId('card.number-less').click();
  await expect(number).toHaveValue('11');
  await expect(number).toHaveAttribute('aria-invalid', 'false');

  const venue = await card.show(2);
  const chip = venue.getByTestId('card.header-chip');
  await expect(chip).toHaveAttribute('title', 'Presentation venue and format');
  await expect(chip).toHaveAttribute('aria-expanded', 'false');
  await shots(page, 'card-long-header', testInfo.project.name);
  await chip.click();
  await expect(chip).toHaveAttribute('aria-expanded', 'true');
  await expectAccessible(page);
  // The empty description leaves no empty line; "Other" is an option, and the typed answer is named apart.
  await expect(card.option(2, 'Conference room').locator('.option__description')).toHaveCount(0);
  await expect(venue.getByTestId('card.option-other')).toContainText('Type my own answer…');
  await card.choose(2, 'Other');
  await shots(page, 'card-other-option', testInfo.project.name);
  await card.submit();

  expect(await reply).toEqual({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      permissionDecisionReason: 'Answered in Askaway',
      updatedInput: {
        ...DECK,
        answers: {
          'What is the talk about?': 'Askaway, answering agents from a phone',
          'How many slides should it have?': '11',
          'Where will you present it?': 'Other',
        },
      },
    },
  });
});

test('[R11.2][R3.2] a plan Claude Code sent without its text can still be approved from the phone', async ({
  app,
  host,
}, testInfo) => {
  const { page } = app;
  const { reply, toolUseId } = hook(host, 'PermissionRequest', 'ExitPlanMode', {});
  await openByToolUse(page, host.url, toolUseId);
  await expect(page.getByTestId('card.plan-missing')).toContainText('Claude Code did not include the plan text');
  await expect(page.getByTestId('card.plan')).toHaveCount(0);
  await expectAccessible(page);
  await shots(page, 'card-plan-missing', testInfo.project.name);
  await page.getByTestId('card.approve').click();
  expect(await reply).toEqual({
    hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: {} } },
  });
});

test('[R11.2] a plan read from the plan file Claude Code names, rejected with feedback', async ({
  app,
  host,
}, testInfo) => {
  const { page } = app;
  const planFilePath = path.join(await mkdtemp(path.join(os.tmpdir(), 'askaway-plan-')), 'gentle-river.md');
  await writeFile(planFilePath, '# Slides plan\n\n1. Outline from the topic\n2. Draft 11 slides\n3. Speaker notes\n');
  const { reply, toolUseId } = hook(host, 'PermissionRequest', 'ExitPlanMode', { planFilePath });
  await openByToolUse(page, host.url, toolUseId);
  await expect(page.getByTestId('card.plan')).toContainText('Draft 11 slides');
  await expect(page.getByTestId('card.plan-file')).toContainText(planFilePath);
  await shots(page, 'card-plan-file', testInfo.project.name);
  await page.getByTestId('card.reject').click();
  await page.getByTestId('card.reject-dialog-reason').fill('Fewer slides, please');
  await page.getByTestId('card.reject-dialog-confirm').click();
  expect(await reply).toEqual({
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'deny', message: 'The user rejected the plan: Fewer slides, please' },
    },
  });
});
