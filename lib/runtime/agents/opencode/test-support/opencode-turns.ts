// A session's turns as OpenCode 1.18.33 reports them to the plugin (measured under tmux with a scripted model): the
// prompt's and each reply's `message.updated`, the prompt sent again mid-turn and after the turn, `session.error` before
// the idle for an abort or a failure, and `session.idle` twice when one of those ended the turn.
import { type OpenCodeMessageWithParts } from '../opencode-shapes';
import { type FakeOpenCode } from './fake-opencode';

type Emit = (type: string, properties: unknown) => void;

/** One step of the model's reply (an assistant message): what it said, and how the step finished. */
export interface Step {
  said?: string;
  finish?: string;
}

export interface PlayedTurn {
  prompt: string;
  /** The turn's assistant messages, in order: the card's turn id is the last one's. */
  replies: string[];
}

/** Ascending ids like OpenCode's (`msg_` and a time-ordered hex prefix), so their order is their age. */
let clock = 0x2500e1138001;
export function nextMessageId(): string {
  clock += 0x10;
  return `msg_${clock.toString(16)}abcdefghijklmn`;
}

export class OpenCodeTurns {
  constructor(
    private readonly opencode: FakeOpenCode,
    /** Sends one event as the plugin forwards it. */
    readonly emit: Emit,
  ) {}

  private store(message: OpenCodeMessageWithParts): void {
    const list = this.opencode.messages.get(message.info.sessionID) ?? [];
    const at = list.findIndex((item) => item.info.id === message.info.id);
    if (at === -1) list.push(message);
    else list[at] = message;
    this.opencode.messages.set(message.info.sessionID, list);
  }

  /** A prompt typed in the TUI (or the phone's, sent through prompt_async): the session is busy from here. */
  prompt(sessionID: string, text: string): string {
    const id = nextMessageId();
    const info = { id, sessionID, role: 'user' };
    this.store({ info, parts: [{ type: 'text', text }] });
    this.opencode.status[sessionID] = { type: 'busy' };
    this.emit('message.updated', { sessionID, info });
    return id;
  }

  /** The model's steps for `prompt`, the turn's end with `error` if given, and what OpenCode sends after it. */
  reply(sessionID: string, prompt: string, steps: Step[], error?: { name: string; data: { message?: string } }) {
    const replies: string[] = [];
    for (const [index, step] of steps.entries()) {
      const id = nextMessageId();
      replies.push(id);
      const last = index === steps.length - 1;
      const info = {
        id,
        sessionID,
        role: 'assistant',
        parentID: prompt,
        ...(step.finish ? { finish: step.finish } : {}),
        ...(last && error ? { error } : {}),
      };
      this.store({ info, parts: step.said === undefined ? [] : [{ type: 'text', text: step.said }] });
      this.emit('message.updated', { sessionID, info: { id, sessionID, role: 'assistant', parentID: prompt } });
      // OpenCode sends the prompt again once the turn's first reply exists.
      if (index === 0) this.emit('message.updated', { sessionID, info: { id: prompt, sessionID, role: 'user' } });
      if (!last || !error) this.emit('message.updated', { sessionID, info });
    }
    delete this.opencode.status[sessionID];
    if (error) {
      this.emit('session.error', { sessionID, error });
      this.emit('session.idle', { sessionID });
      const lastId = replies.at(-1) ?? '';
      this.emit('message.updated', {
        sessionID,
        info: { id: lastId, sessionID, role: 'assistant', parentID: prompt, error },
      });
      this.emit('session.idle', { sessionID });
    } else {
      this.emit('session.idle', { sessionID });
      this.emit('message.updated', { sessionID, info: { id: prompt, sessionID, role: 'user' } });
    }
    return { prompt, replies };
  }

  /** A whole turn typed in the TUI that ends saying `said`. */
  turn(sessionID: string, said: string): PlayedTurn {
    const prompt = this.prompt(sessionID, 'next, please');
    return this.reply(sessionID, prompt, [{ said, finish: 'stop' }]);
  }
}
