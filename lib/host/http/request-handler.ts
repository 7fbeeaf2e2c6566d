import { type IncomingMessage, type ServerResponse } from 'node:http';
import { PROTOCOL_VERSION, REMOTE_PROTOCOL_VERSION } from '../../contracts';
import { type AuthResult } from '../auth/principal';
import { sendApiError } from '../auth/api-replies';
import { type MessageIncidents } from '../message-incidents';
import { LogContendedError } from '../log-contended-error';
import { StorageUnavailableError } from '../store/storage-health';
import { HOST_VERSION } from '../version';
import { type HttpRouteRegistry } from './routes';
import { type ClientAddressOf } from './client-address';
import { type SecurityHeaders } from './security-headers';
import { createStaticHandler } from './static-files';

export interface RequestHandlerOptions {
  staticDir: string;
  routes: HttpRouteRegistry;
  headers: SecurityHeaders;
  authenticateAgent(candidate: string | undefined): Promise<AuthResult>;
  incidents: MessageIncidents;
  clientAddress: ClientAddressOf;
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
    // Whatever a route throws becomes an error reply and a log line (R10.4), never a stopped host.
    handle().catch((error: unknown) => {
      if (error instanceof StorageUnavailableError) {
        sendApiError(res, 503, 'storage-unavailable', error.message, { 'Retry-After': '30' });
        return;
      }
      options.incidents.failed(`a client at ${options.clientAddress(req)}`, `${method} ${pathname}`, error);
      // Nothing was saved and a retry may pass (R20.3): said like a full disk, so a client keeps what it sent.
      if (error instanceof LogContendedError) {
        sendApiError(res, 503, 'storage-unavailable', error.message, { 'Retry-After': '1' });
        return;
      }
      sendApiError(res, 500, 'internal', 'The host could not process this request');
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
