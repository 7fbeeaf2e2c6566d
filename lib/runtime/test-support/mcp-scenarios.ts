import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it, vi } from 'vitest';
import { type AskUserQuestionInputLike, type InteractionResponse } from '../../contracts';
import { type Host } from '../../host';
import { connectScriptedRemote } from './scripted-remote';
import { pairDevice } from '../../host/test-support/devices';

/** Two questions, one multi-select: the call every scenario makes. */
export const TWO_QUESTIONS: AskUserQuestionInputLike = {
  questions: [
    {
      question: 'Which database?',
      header: 'Database',
      multiSelect: false,
      options: [
        { label: 'Postgres (Recommended)', description: 'Relational, battle tested' },
        { label: 'SQLite', description: 'One file, no server' },
      ],
    },
    {
      question: 'Which extras?',
      header: 'Extras',
      multiSelect: true,
      options: [
        { label: 'Metrics', description: 'Prometheus endpoint' },
        { label: 'Tracing', description: 'OpenTelemetry spans' },
      ],
    },
  ],
};

export interface McpHarness {
  host: Host;
  client: Client;
}

type ToolText = { isError?: boolean; text: string };

export async function callAskUserQuestion(client: Client, args: unknown, signal?: AbortSignal): Promise<ToolText> {
  const result = await client.callTool(
    { name: 'AskUserQuestion', arguments: args as Record<string, unknown> },
    undefined,
    { signal, timeout: 30_000 },
  );
  const content = Array.isArray(result.content) ? (result.content as { type: string; text?: string }[]) : [];
  return { isError: result.isError === true, text: content.map((part) => part.text ?? '').join('') };
}

/** Calls the tool, waits for the question on a scripted phone, answers it, returns the tool result. */
async function answered(harness: McpHarness, response: InteractionResponse, args: unknown = TWO_QUESTIONS) {
  const phone = await connectScriptedRemote(harness.host.url, (await pairDevice(harness.host)).credential);
  try {
    const call = callAskUserQuestion(harness.client, args);
    const question = await phone.next();
    expect(await phone.respond(question.requestId, response)).toMatchObject({ ok: true, status: 'accepted' });
    return { result: await call, question };
  } finally {
    phone.close();
  }
}

/** The R11.1 contract, run against every MCP transport (stdio, streamable HTTP). */
export function describeMcpContract(
  transport: string,
  harness: () => McpHarness,
  clientInfo: { name: string; version: string },
) {
  describe(`MCP over ${transport}`, () => {
    it('[R11.1][R2.5] tools/list shows AskUserQuestion with multiSelect required and the R1 description', async () => {
      const { tools } = await harness().client.listTools();
      const tool = tools.find((candidate) => candidate.name === 'AskUserQuestion');
      expect(tool?.description).toContain("genuinely the user's to make");
      expect(tool?.description).toContain('EnterPlanMode');
      const question = (tool?.inputSchema.properties?.questions as { items?: { required?: string[] } } | undefined)
        ?.items;
      expect(question?.required).toEqual(expect.arrayContaining(['question', 'header', 'options', 'multiSelect']));
    });

    it('[R4.1][R11.4] all answered returns the exact R4.1 text, with the client as origin', async () => {
      const { result, question } = await answered(harness(), {
        action: 'accept',
        content: { answers: { 'Which database?': 'Postgres (Recommended)', 'Which extras?': 'Metrics, Tracing' } },
      });
      expect(result).toEqual({
        isError: false,
        text: 'User has answered your questions: "Which database?"="Postgres (Recommended)", "Which extras?"="Metrics, Tracing". You can now continue with the user\'s answers in mind.',
      });
      expect(question.origin?.label).toBe(`${clientInfo.name} ${clientInfo.version}`);
    });

    it('[R4.2] some answered returns the R4.2 text', async () => {
      const { result } = await answered(harness(), {
        action: 'accept',
        content: { answers: { 'Which database?': 'SQLite' } },
      });
      expect(result).toEqual({
        isError: false,
        text: 'User answered some questions and skipped 1: "Which database?"="SQLite". Use your best judgment for the unanswered questions; do not invent user preferences.',
      });
    });

    it('[R4.3] none answered returns the R4.3 text', async () => {
      const { result } = await answered(harness(), { action: 'accept', content: { answers: {} } });
      expect(result.isError).toBe(false);
      expect(result.text).toContain(
        'Continue using your best judgment; do not treat this as a rejection or invent a user preference.',
      );
    });

    it('[R3.6][R3.7] a declined question is an error result with the R3.6 message and the reason', async () => {
      const { result } = await answered(harness(), { action: 'decline', message: 'Not now' });
      expect(result).toEqual({ isError: true, text: 'AskUserQuestion was declined: Not now' });
    });

    it('[R2.4][R2.1][R2.2] invalid input is an error result naming the rule', async () => {
      const withOther = structuredClone(TWO_QUESTIONS);
      withOther.questions[0]?.options.push({ label: 'Other', description: 'Something else' });
      const other = await callAskUserQuestion(harness().client, withOther);
      expect(other.isError).toBe(true);
      expect(other.text).toContain('Do not include an Other option; clients provide it automatically');

      const first = TWO_QUESTIONS.questions[0];
      const five = { questions: [1, 2, 3, 4, 5].map((n) => ({ ...first, question: `Question ${n}?` })) };
      const tooMany = await callAskUserQuestion(harness().client, five);
      expect(tooMany.isError).toBe(true);
      expect(tooMany.text).toMatch(/questions: .*(4|too big)/i);

      const longHeader = structuredClone(TWO_QUESTIONS);
      if (longHeader.questions[0]) longHeader.questions[0].header = 'Thirteen chrs';
      const header = await callAskUserQuestion(harness().client, longHeader);
      expect(header).toMatchObject({ isError: true });
      expect(header.text).toContain('Header must be at most 12 characters');
    });

    it('[R8.3] the client cancelling the call withdraws the question from the host', async () => {
      const { host, client } = harness();
      const phone = await connectScriptedRemote(host.url, (await pairDevice(host)).credential);
      try {
        const controller = new AbortController();
        const call = callAskUserQuestion(client, TWO_QUESTIONS, controller.signal).catch((error: unknown) => error);
        const question = await phone.next();
        controller.abort('changed my mind');
        await call;
        await vi.waitFor(() =>
          expect(phone.pending().map((record) => record.requestId)).not.toContain(question.requestId),
        );
        const withdrawn = (await host.registry.readSince(0, 1_000)).filter(
          (event) => event.type === 'interaction.withdrawn',
        );
        expect(withdrawn.map((event) => event.requestId)).toContain(question.requestId);
      } finally {
        phone.close();
      }
    });
  });
}
