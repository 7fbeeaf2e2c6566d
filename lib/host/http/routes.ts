import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type AuthResult } from '../auth/principal';

/** What a mounted route gets besides the request: how to check who is calling. */
export interface HttpRouteContext {
  /** The request path without the query string. */
  pathname: string;
  /** The agent side's check (R16.1): the agent token passes; a device credential is named and refused. */
  authenticateAgent(candidate: string | undefined): Promise<AuthResult>;
  /** The bearer token from `Authorization: Bearer …`, if any. */
  bearerToken(): string | undefined;
}

/** May return a promise; a rejection becomes a 500 (unless the handler already answered). */
export type HttpRouteHandler = (req: IncomingMessage, res: ServerResponse, context: HttpRouteContext) => unknown;

/** `method` is an HTTP method or '*'; `pathPrefix` matches itself and anything below it. */
export interface HttpRoute {
  method: string;
  pathPrefix: string;
  handler: HttpRouteHandler;
}

/** Extra HTTP endpoints mounted next to the PWA (e.g. `/mcp`, `/hooks/claude-code`). */
export class HttpRouteRegistry {
  private readonly routes: HttpRoute[] = [];

  /** Returns a function that unmounts the route. */
  register(method: string, pathPrefix: string, handler: HttpRouteHandler): () => void {
    if (!pathPrefix.startsWith('/')) throw new Error(`Route prefix must start with '/': ${pathPrefix}`);
    const route: HttpRoute = {
      method: method.toUpperCase(),
      pathPrefix: pathPrefix.replace(/\/+$/, '') || '/',
      handler,
    };
    this.routes.push(route);
    return () => {
      const index = this.routes.indexOf(route);
      if (index >= 0) this.routes.splice(index, 1);
    };
  }

  /** The longest matching prefix wins, so `/hooks/claude-code` beats `/hooks`. */
  match(method: string, pathname: string): HttpRoute | undefined {
    let best: HttpRoute | undefined;
    for (const route of this.routes) {
      if (route.method !== '*' && route.method !== method) continue;
      const prefix = route.pathPrefix;
      const hit = prefix === '/' || pathname === prefix || pathname.startsWith(`${prefix}/`);
      if (hit && (!best || prefix.length > best.pathPrefix.length)) best = route;
    }
    return best;
  }
}
