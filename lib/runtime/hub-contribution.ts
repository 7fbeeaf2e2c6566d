import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type RuntimeClientProvider } from './runtime-client-provider';

// What an agent adds to the hub (R18.29): the host mounts, starts and reports what each agent's
// `hub-contribution.ts` gives it, and names no agent itself. The CLI composes the list (bin/commands/).
// The shapes below are what the host hands over; TypeScript checks they fit where the host mounts them.

/** Who is calling a route, as the host's agent check found it (R16.1). */
export interface HubPrincipal {
  kind: 'local-agent' | 'device' | 'machine';
  /** `local` for the agent token; the machine's (or device's) id otherwise. */
  id: string;
  name: string;
}

/** The outcome of the host's agent check; a refusal's message says what the credential is and what to do. */
export type HubAuthResult = { ok: true; principal: HubPrincipal } | { ok: false; message: string };

/** A caller the host accepted, and the credential that proved it. */
export interface HubCaller {
  principal: HubPrincipal;
  credential: string;
}

/** What a route gets besides the request: how to check who is calling. */
export interface HubRouteContext {
  /** The request path without the query string. */
  pathname: string;
  /** The agent side's check: the agent token or a joined machine's credential passes; a device's is refused. */
  authenticateAgent(candidate: string | undefined): Promise<HubAuthResult>;
  /** The bearer token from `Authorization: Bearer …`, if any. */
  bearerToken(): string | undefined;
}

/** May return a promise; a rejection becomes a 500 (unless the handler already answered). */
export type HubRouteHandler = (req: IncomingMessage, res: ServerResponse, context: HubRouteContext) => unknown;

/** An HTTP endpoint the hub serves for an agent; `path` matches itself and anything below it. */
export interface HubRoute {
  /** An HTTP method or '*'. */
  method: string;
  path: string;
  handler: HubRouteHandler;
}

/** What the running hub offers a contribution. */
export interface HubServices {
  /** The host's own address and agent token: a bridge reaches it over loopback like any runtime. */
  url: string;
  token: string;
  /** Set when the host serves HTTPS with a certificate a loopback connection cannot verify. */
  insecureTls: boolean;
  dataDir: string;
  /** The hub's own machine, as the phone names it. */
  localMachineName: string;
  /** The runtime connection for a route's caller: a joined machine asks as itself (R17.3). */
  runtimeFor(caller: HubCaller): RuntimeClientProvider;
  log(line: string): void;
}

/** A bridge the hub runs for as long as it runs (e.g. the Codex bridge, R18.14). */
export interface HubBridge {
  stop(): Promise<void> | void;
}

/** What one agent adds to `askaway status` (R17.8). */
export interface AgentStatus {
  /** Fields of `askaway status --json`, under names the agent owns (e.g. `codex`). */
  json: Record<string, unknown>;
  /** Lines `askaway status` prints, after the hub's own. */
  lines: string[];
}

/** One agent's part of the hub; every part is optional. */
export interface HubContribution {
  /** The agent's folder name, for logs. */
  agent: string;
  /** Endpoints the hub serves for it (e.g. Claude Code's HTTP hook). */
  routes?(hub: HubServices): HubRoute[];
  /** Starts what `askaway start` runs for it, once the routes are mounted. */
  start?(hub: HubServices): HubBridge;
  /** What `askaway status` says about it on this machine; `env` as the command sees it. */
  status?(env: Record<string, string | undefined>, dataDir: string): AgentStatus;
}
