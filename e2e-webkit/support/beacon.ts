import http from 'node:http';
import { type AddressInfo } from 'node:net';

export interface Beacon {
  url: string;
  /** Every request it got, as `METHOD /path`. */
  readonly requests: string[];
  close(): Promise<void>;
}

/** A loopback HTTP server that records every request: a page that loads what it should not shows up here. */
export async function startBeacon(): Promise<Beacon> {
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    requests.push(`${request.method ?? '?'} ${request.url ?? ''}`);
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
