import { type IncomingMessage, type ServerResponse } from 'node:http';
import { PROTOCOL_VERSION, REMOTE_PROTOCOL_VERSION } from '../../contracts';
import { type AuthResult } from '../auth/principal';
import { HOST_VERSION } from '../version';
import { type HttpRouteRegistry } from './routes';
import { type SecurityHeaders } from './security-headers';
import { createStaticHandler } from './static-files';

export interface RequestHandlerOptions {
  staticDir: string;
  routes: HttpRouteRegistry;
  headers: SecurityHeaders;
  authenticateAgent(candidate: string | undefined): AuthResult;
  onError(error: unknown): void;
}

/** Every HTTP request that is not socket.io: health, mounted routes, then the PWA. */
export function createRequestHandler(options: RequestHandlerOptions) {
  const serveStatic = createStaticHandler(options.staticDir);

  return (req: IncomingMessage, res: ServerResponse): void => {
    options.headers.apply(res);
    const pathname = pathnameOf(req.url);
    const method = (req.method ?? 'GET').toUpperCase();
    const handle = async () => {
      if (pathname === '/healthz' && (method === 'GET' || method === 'HEAD')) {
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(
          JSON.stringify({
            status: 'ok',
            version: HOST_VERSION,
            protocolVersion: PROTOCOL_VERSION,
            remoteProtocolVersion: REMOTE_PROTOCOL_VERSION,
          }),
        );
        return;
      }
      const route = options.routes.match(method, pathname);
      if (route) {
        await route.handler(req, res, {
          pathname,
          authenticateAgent: options.authenticateAgent,
          bearerToken: () => /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim(),
        });
        return;
      }
      await serveStatic(req, res);
    };
    handle().catch((error: unknown) => {
      options.onError(error);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Internal error');
    });
  };
}

function pathnameOf(url: string | undefined): string {
  try {
    return new URL(url ?? '/', 'http://host.invalid').pathname;
  } catch {
    return '/';
  }
}
