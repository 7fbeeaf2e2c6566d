// The floor for R13.8: the smallest page that does what the inbox does on a reload — connects to the host's
// remote namespace with a device credential, takes the snapshot and renders one row per pending question —
// and marks the end of the first frame drawn with all of them (`window.__plainPaintedAt`, performance.now()
// since its navigation began). Plain HTML and socket.io-client's own browser build, served from this process
// with a day's HTTP cache, as a browser that opened it before finds it.
import fs from 'node:fs';
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import path from 'node:path';
import { REMOTE_NAMESPACE, REMOTE_PROTOCOL_VERSION } from '../../lib/contracts';
import { ROOT } from './figures';

declare global {
  interface Window {
    __plainPaintedAt?: number;
  }
}

const CLIENT = path.join(ROOT, 'node_modules', 'socket.io-client', 'dist', 'socket.io.min.js');

export interface PlainPage {
  /** Its origin, to give the host as `--allow-origin` before the page connects. */
  origin: string;
  /** The page's address for one host and device credential. */
  url(hostUrl: string, credential: string): string;
  close(): Promise<void>;
}

/** The page itself: everything it needs is in its fragment (`host`, `credential`); `total` rows end the wait. */
function html(total: number): string {
  const script = `
const params = new URLSearchParams(location.hash.slice(1));
const socket = io(params.get('host') + ${JSON.stringify(REMOTE_NAMESPACE)}, {
  auth: { credential: params.get('credential'), protocolVersion: ${REMOTE_PROTOCOL_VERSION} },
  transports: ['websocket'],
});
socket.on('snapshot', (snapshot) => {
  const list = document.getElementById('rows');
  list.replaceChildren(...snapshot.pending.map((view) => {
    const row = document.createElement('li');
    row.textContent = view.kind === 'question' ? view.input.questions[0].question : view.toolName;
    return row;
  }));
  if (list.children.length !== ${total}) return;
  // The rows are in before this frame's style, layout and paint: the task after it follows them.
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { window.__plainPaintedAt = performance.now(); };
    channel.port2.postMessage(0);
  });
});`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>plain</title><script src="/socket.io.min.js"></script></head>
<body><ul id="rows"></ul><script>${script}</script></body></html>`;
}

/** Serves the page on a free loopback port. */
export async function startPlainPage(total: number): Promise<PlainPage> {
  const client = fs.readFileSync(CLIENT);
  const page = html(total);
  const server = http.createServer((request, response) => {
    if (request.url === '/socket.io.min.js') {
      response.writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': 'max-age=86400' });
      response.end(client);
      return;
    }
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' });
    response.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (hostUrl, credential) => `${origin}/#${new URLSearchParams({ host: hostUrl, credential }).toString()}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
