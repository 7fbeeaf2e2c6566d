// The floor for R13.8 and R13.9: the smallest page that does what the inbox does — connects to the host's remote
// namespace with a device credential, takes the snapshot and renders one row per pending question (each with its
// `data-request-id`), adds and removes rows as questions come and go. When its rows are on screen is read from
// outside, the same way as the app's (./row-watch.ts). Plain HTML and socket.io-client's own browser build,
// served from this process with a day's HTTP cache, as a browser that opened it before finds it.
import fs from 'node:fs';
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import path from 'node:path';
import { REMOTE_NAMESPACE, REMOTE_PROTOCOL_VERSION } from '../../lib/contracts';
import { ROOT } from './figures';

const CLIENT = path.join(ROOT, 'node_modules', 'socket.io-client', 'dist', 'socket.io.min.js');

export interface PlainPage {
  /** Its origin, to give the host as `--allow-origin` before the page connects. */
  origin: string;
  /** The page's address for one host and device credential. */
  url(hostUrl: string, credential: string): string;
  close(): Promise<void>;
}

/** The page itself: everything it needs is in its fragment (`host`, `credential`). */
function html(): string {
  const script = `
const params = new URLSearchParams(location.hash.slice(1));
const socket = io(params.get('host') + ${JSON.stringify(REMOTE_NAMESPACE)}, {
  auth: { credential: params.get('credential'), protocolVersion: ${REMOTE_PROTOCOL_VERSION} },
  transports: ['websocket'],
});
const list = document.getElementById('rows');
const row = (view) => {
  const item = document.createElement('li');
  item.dataset.requestId = view.requestId;
  item.textContent = view.kind === 'question' ? view.input.questions[0].question : view.toolName;
  return item;
};
socket.on('snapshot', (snapshot) => {
  list.replaceChildren(...snapshot.pending.map(row));
});
// A live inbox: a new question is a new row, an answered or withdrawn one goes.
socket.on('events', (batch) => {
  for (const event of batch.events) {
    if (event.type === 'interaction.requested') list.append(row(event.interaction));
    else if (event.type === 'interaction.resolved' || event.type === 'interaction.withdrawn') {
      const id = event.type === 'interaction.resolved' ? event.resolution.requestId : event.requestId;
      for (const item of list.children) if (item.dataset.requestId === id) item.remove();
    }
  }
});`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>plain</title><script src="/socket.io.min.js"></script></head>
<body><ul id="rows"></ul><script>${script}</script></body></html>`;
}

/** Serves the page on a free loopback port. */
export async function startPlainPage(): Promise<PlainPage> {
  const client = fs.readFileSync(CLIENT);
  const page = html();
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
