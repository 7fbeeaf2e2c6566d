// The last thing an ACP agent said in one prompt's turn (R19.60, R19.62): the text of the `agent_message_chunk`s of
// its last message. ACP v1 draws no line between messages on the wire (its `messageId` is optional, and neither Gemini
// CLI 0.61 nor Copilot 1.0.102 sends one), so a message ends where the agent does something else: a tool call, a
// permission request, a user message, or a new `messageId`. Only the start of a message is kept (R12.19), its length
// counted, so the card can say it was clipped.
import { FINISHED_TURN_MESSAGE_MAX } from '../../../contracts';
import { TextBlockSchema, type SessionUpdate } from './acp-shapes';

/** Tool calls remembered as running in one turn; past it the oldest is forgotten (R12.19). */
export const RUNNING_TOOL_CALLS_MAX = 256;

/** What is kept of one message: its start, and how long it was. */
interface Said {
  kept: string;
  length: number;
}

const nothing = (): Said => ({ kept: '', length: 0 });

/**
 * `text` cut to `max` characters, as a string of its own: V8 makes a slice or a trim point into the string it came
 * from, so the start of a megabyte chunk kept for a card would keep the whole chunk alive (R12.19).
 */
export function keptText(text: string, max: number): string {
  return Buffer.from(text.length > max ? text.slice(0, max) : text, 'utf16le').toString('utf16le');
}
const ended = (status: string | null | undefined) => status === 'completed' || status === 'failed';

export class TurnMessage {
  private current = nothing();
  private last: Said | undefined;
  private messageId: string | undefined;
  /**
   * The turn's tool calls that have not ended. What the agent "says" while one runs is not its own message: Copilot
   * 1.0.102 relays a subagent's (its `task` tool's) message as an `agent_message_chunk` of the root session then.
   */
  private readonly running = new Set<string>();

  /** One `session/update` of the turn's session. */
  update(update: SessionUpdate): void {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        this.chunk(update);
        return;
      case 'tool_call':
        this.end();
        if (update.toolCallId !== undefined && !ended(update.status)) this.start(update.toolCallId);
        return;
      case 'tool_call_update':
        this.end();
        if (update.toolCallId !== undefined && ended(update.status)) this.running.delete(update.toolCallId);
        return;
      case 'user_message_chunk':
        this.end();
        return;
      default:
      // Thoughts, plans, usage, titles, modes: none of them ends what the agent is saying.
    }
  }

  /** The agent asked for a permission: what it says next is a new message (Gemini CLI sends no `tool_call` first). */
  interrupt(): void {
    this.end();
  }

  /** The turn's last message, its start at most FINISHED_TURN_MESSAGE_MAX characters, and its whole length. */
  result(): { message?: string; messageLength?: number } {
    const said = this.current.kept.trim() !== '' ? this.current : this.last;
    return said ? { message: said.kept, messageLength: said.length } : {};
  }

  private chunk(update: SessionUpdate): void {
    if (this.running.size > 0) return;
    const block = TextBlockSchema.safeParse(update.content);
    if (!block.success) return;
    const id = update.messageId ?? undefined;
    if (id !== undefined && id !== this.messageId) {
      this.end();
      this.messageId = id;
    }
    const { text } = block.data;
    const room = FINISHED_TURN_MESSAGE_MAX - this.current.kept.length;
    if (room > 0) this.current.kept += keptText(text, room);
    this.current.length += text.length;
  }

  private start(toolCallId: string): void {
    this.running.add(toolCallId);
    if (this.running.size > RUNNING_TOOL_CALLS_MAX) this.running.delete(this.running.values().next().value ?? '');
  }

  private end(): void {
    if (this.current.kept.trim() !== '') this.last = this.current;
    this.current = nothing();
    this.messageId = undefined;
  }
}
