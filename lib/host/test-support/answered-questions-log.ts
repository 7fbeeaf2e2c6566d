import { agentOf } from '../../contracts/agent-of';
import { LOCAL_MACHINE_ID, type NewHostEvent } from '../../contracts';
import { SqliteEventStore } from '../store/sqlite-event-store';
import { questionRequest } from './fixtures';

/** The four events of one answered question, as the registry writes them. */
function answeredQuestion(index: number, at: string): NewHostEvent[] {
  const { protocolRequestId: _routing, ...request } = questionRequest({ requestId: `bulk-${index}` });
  const interaction = { ...request, machine: { id: LOCAL_MACHINE_ID, name: 'bulk' } };
  const requestId = interaction.requestId;
  return [
    { type: 'interaction.requested', at, interaction: { ...interaction, agent: agentOf(interaction) } },
    { type: 'UserInputAutoResolutionUpdated', at, requestId, autoResolution: { status: 'disabled' } },
    {
      type: 'interaction.resolved',
      at,
      resolution: {
        requestId,
        response: {
          action: 'accept',
          content: { answers: { 'Which database?': 'SQLite', 'Which extras?': 'Metrics' } },
        },
        resolvedBy: 'user',
        resolvedAt: at,
        clientResponseId: `c-${index}`,
      },
    },
    { type: 'interaction.delivered', at, requestId },
  ] as NewHostEvent[];
}

/** A personal hub's log at `file` with `questions` answered questions (four events each), as a long-used hub's. */
export async function writeAnsweredQuestions(file: string, questions: number): Promise<number> {
  const store = new SqliteEventStore(file);
  try {
    const at = new Date().toISOString();
    for (let start = 0; start < questions; start += 250) {
      const events: NewHostEvent[] = [];
      for (let index = start; index < Math.min(questions, start + 250); index += 1)
        events.push(...answeredQuestion(index, at));
      await store.append(events);
    }
    return await store.lastSeq();
  } finally {
    await store.close();
  }
}
