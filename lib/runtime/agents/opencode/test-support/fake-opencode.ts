import { type BridgeRequest, type PluginMessage } from '../bridge-protocol';
import { type OpenCodeMessageWithParts, type OpenCodeSession } from '../opencode-shapes';

/** One HTTP call the bridge made through the plugin. */
export interface MadeCall {
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
}

/**
 * OpenCode's HTTP side as the plugin's client sees it (1.18.33's routes and answers): what is pending, the
 * sessions and their status, and the reply routes, 404 once a request was answered.
 */
export class FakeOpenCode {
  questions: { id: string; sessionID: string }[] = [];
  permissions: { id: string; sessionID: string }[] = [];
  status: Record<string, { type: string }> = {};
  readonly sessions = new Map<string, OpenCodeSession>();
  readonly calls: MadeCall[] = [];
  /** Ids answered already (by the terminal): a reply to one gets 404, as OpenCode's does. */
  readonly answered = new Set<string>();
  /** Each session's messages, oldest first (`GET /session/:id/message`). */
  readonly messages = new Map<string, OpenCodeMessageWithParts[]>();
  /** What `POST /session/:id/prompt_async` was given, by session. */
  readonly prompts: { sessionID: string; body: unknown }[] = [];

  answer(request: BridgeRequest): Omit<Extract<PluginMessage, { type: 'response' }>, 'type' | 'id'> {
    this.calls.push({
      method: request.method,
      url: request.url,
      ...(request.body === undefined ? {} : { body: request.body }),
    });
    const message = /^\/session\/([^/]+)\/(message|prompt_async)(?:\/([^/?]+))?(?:\?limit=(\d+))?$/.exec(request.url);
    if (message?.[1]) return this.sessionRoute(request, decodeURIComponent(message[1]), message);
    if (request.method === 'GET') {
      if (request.url === '/global/health') return { status: 200, data: { healthy: true, version: '1.18.33' } };
      if (request.url === '/question') return { status: 200, data: this.questions };
      if (request.url === '/permission') return { status: 200, data: this.permissions };
      if (request.url === '/session/status') return { status: 200, data: this.status };
      const session = this.sessions.get(decodeURIComponent(request.url.replace(/^\/session\//, '')));
      return session ? { status: 200, data: session } : { status: 404, error: { name: 'NotFoundError' } };
    }
    const match = /^\/(question|permission)\/([^/]+)\/(reply|reject)$/.exec(request.url);
    const id = match?.[2] ? decodeURIComponent(match[2]) : '';
    if (!match || this.answered.has(id))
      return { status: 404, error: { _tag: 'QuestionNotFoundError', requestID: id } };
    this.answered.add(id);
    this.questions = this.questions.filter((question) => question.id !== id);
    this.permissions = this.permissions.filter((permission) => permission.id !== id);
    return { status: 200, data: true };
  }

  /** OpenCode 1.18.33's message routes: a message by id, the last N, and a prompt sent without waiting (204). */
  private sessionRoute(
    request: BridgeRequest,
    sessionID: string,
    [, , route, messageID, limit]: RegExpExecArray,
  ): Omit<Extract<PluginMessage, { type: 'response' }>, 'type' | 'id'> {
    const messages = this.messages.get(sessionID) ?? [];
    if (route === 'prompt_async' && request.method === 'POST') {
      this.prompts.push({ sessionID, body: request.body });
      return { status: 204, data: {} };
    }
    if (messageID) {
      const found = messages.find((item) => item.info.id === decodeURIComponent(messageID));
      return found ? { status: 200, data: found } : { status: 404, error: { name: 'NotFoundError' } };
    }
    return { status: 200, data: limit ? messages.slice(-Number(limit)) : messages };
  }

  posts(): MadeCall[] {
    return this.calls.filter((call) => call.method === 'POST');
  }
}
