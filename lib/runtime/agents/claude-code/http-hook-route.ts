import { parseDuration } from '../../duration';
import { type HubRouteHandler, type HubServices } from '../../hub-contribution';
import { sendJson } from '../../../http/http-replies';
import { readJsonBody } from '../../../http/json-body';
import { type FollowOptions } from './follow-transcript';
import { handleClaudeCodeHook, type HookDeadline } from './handle-hook';
import { HOOK_HTTP_PATH } from './install';

const MAX_BODY_BYTES = 2 * 1024 * 1024;

/**
 * Claude Code's HTTP hook (R11.2): POST the hook JSON to `/hooks/claude-code` with the agent
 * token as `Authorization: Bearer` (Claude Code sends it from ASKAWAY_TOKEN, R16.6); the 2xx
 * JSON reply is the hook's output. `?timeout=540s`, `?formWait=30s` and `?allTools=1` as for the command hook.
 */
export function createClaudeCodeHookHandler(options: {
  /** The runtime connection of the caller's machine (R17.3). */
  runtimeFor: HubServices['runtimeFor'];
  log?: (line: string) => void;
  /** How each hook's fallback deadline is kept (tests); a real timer by default. */
  deadline?: HookDeadline;
  /** How each hook follows its transcript (tests poll by hand). */
  follow?: FollowOptions;
  /** This host's own machine, as the phone names it: where a local Claude Code's form moves to (R11.11). */
  localMachineName?: string;
}): HubRouteHandler {
  return async (req, res, context) => {
    // Claude Code sent the request as it showed its own dialog: a terminal answer dated before then is not this call's.
    const receivedAt = Date.now();
    const query = new URL(req.url ?? '/', 'http://host.invalid').searchParams;
    if (query.has('token')) {
      // URLs end up in logs and shell history; the token goes in a header only (R16.6).
      sendJson(res, 400, {
        error:
          "A token in the URL is not accepted: send it as 'Authorization: Bearer <token>' (askaway hook install --http)",
      });
      return;
    }
    const credential = context.bearerToken();
    const auth = await context.authenticateAgent(credential);
    if (!auth.ok || credential === undefined) {
      const message = auth.ok ? 'no token' : auth.message;
      sendJson(res, 401, { error: `Unauthorized: ${message} Send it as 'Authorization: Bearer <token>'.` });
      return;
    }
    if (context.pathname !== HOOK_HTTP_PATH) {
      sendJson(res, 404, { error: `Not found: the Claude Code hook endpoint is ${HOOK_HTTP_PATH}` });
      return;
    }
    const timeoutParam = query.get('timeout');
    // Without one, each path has its own (handle-hook.ts).
    const timeoutMs = timeoutParam === null ? undefined : parseDuration(timeoutParam);
    if (timeoutMs === null) {
      sendJson(res, 400, { error: 'timeout must be a duration such as 540s or 9m' });
      return;
    }
    const formWaitParam = query.get('formWait');
    const formWaitMs = formWaitParam === null ? undefined : parseDuration(formWaitParam);
    if (formWaitMs === null) {
      sendJson(res, 400, { error: 'formWait must be a duration such as 30s or 2m' });
      return;
    }
    let payload: unknown;
    try {
      payload = await readJsonBody(req, MAX_BODY_BYTES);
    } catch (error) {
      sendJson(res, 400, { error: error instanceof Error ? error.message : 'Invalid body' });
      return;
    }
    // Claude Code closing the request (its own timeout, Ctrl-C) withdraws the question.
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableEnded) gone.abort(new Error('Claude Code closed the hook request'));
    });
    const output = await handleClaudeCodeHook(payload, {
      runtime: options.runtimeFor({ principal: auth.principal, credential }),
      timeoutMs,
      formWaitMs,
      machineName: auth.principal.kind === 'machine' ? auth.principal.name : options.localMachineName,
      allTools: query.get('allTools') === '1' || query.get('allTools') === 'true',
      signal: gone.signal,
      deadline: options.deadline,
      follow: options.follow,
      startedAt: receivedAt,
      log: options.log,
      // A joined machine's paths are that machine's: the hub opens no file it names.
      localFiles: auth.principal.kind !== 'machine',
    });
    sendJson(res, 200, output);
  };
}
