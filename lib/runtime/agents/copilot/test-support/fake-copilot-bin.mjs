#!/usr/bin/env node
// A stand-in `copilot` for tests and drills that run `askaway copilot` as a real process (COPILOT_BIN): plain
// JavaScript, so it starts in a few tenths of a second. It takes `--ui-server --port N` as Copilot 1.0.102 does
// and answers the bridge's calls as fake-copilot.ts does, then sends what FAKE_COPILOT_SEND lists once a client
// resumed the session: `permission` (a normal command prompt), `deep-args` (tool arguments 5,000 deep),
// `deep-schema` (an ask_user form whose schema is 5,000 deep), `huge:<MiB>` (one event that size).
//   FAKE_COPILOT_LISTEN=0     do not listen (as Copilot does when its port is taken: the TUI runs on, no server)
//   FAKE_COPILOT_PORT_FILE    written with the port once started (an impostor test reads it, as one could /proc)
//   FAKE_COPILOT_PID_FILE     written with its pid (a drill signals it)
//   FAKE_COPILOT_SEND_LATER   what SIGUSR2 sends (a drill times it)
//   FAKE_COPILOT_CALLS        each JSON-RPC call received, one JSON line each
// It runs until SIGTERM (exit 0) or SIGKILL, like the real one, or until its parent is gone.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';

const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
const list = (value) => (value ?? '').split(',').filter(Boolean);
const send = list(process.env.FAKE_COPILOT_SEND);
/** Sockets that resumed the session: SIGUSR2 sends them FAKE_COPILOT_SEND_LATER (numbered from 100). */
const resumed = new Set();
const session = 'session-1';
const DEPTH = 5_000;

const frame = (text) => {
  const body = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
};
const event = (type, dataJson, id) =>
  `{"jsonrpc":"2.0","method":"session.event","params":{"sessionId":"${session}","event":{"type":"${type}",` +
  `"id":"${id}","timestamp":"${new Date().toISOString()}","parentId":null,"data":${dataJson}}}}`;

/** The frames each FAKE_COPILOT_SEND entry stands for, built as text: JSON.stringify would overflow on them. */
function frames(what, index) {
  if (what === 'permission')
    return event(
      'permission.requested',
      JSON.stringify({
        requestId: `plain-${index}`,
        permissionRequest: { kind: 'shell', toolCallId: `call-${index}` },
        promptRequest: {
          kind: 'commands',
          toolCallId: `call-${index}`,
          fullCommandText: 'touch plain.txt',
          intention: 'Runs touch plain.txt',
          commandIdentifiers: ['touch'],
          canOfferSessionApproval: true,
        },
      }),
      `e-${index}`,
    );
  if (what === 'deep-args')
    return event(
      'permission.requested',
      `{"requestId":"deep-args-${index}","promptRequest":{"kind":"mcp","toolCallId":"call-deep","serverName":"db",` +
        `"toolName":"query","args":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}}`,
      `e-${index}`,
    );
  if (what === 'deep-schema')
    return event(
      'elicitation.requested',
      `{"requestId":"deep-schema-${index}","message":"Which?","toolCallId":"call-form","requestedSchema":` +
        `{"type":"object","properties":{"a":${'{"type":"object","properties":{"a":'.repeat(DEPTH)}{"type":"string"}` +
        `${'}}'.repeat(DEPTH)}}}}`,
      `e-${index}`,
    );
  const huge = /^huge:(\d+)$/.exec(what);
  if (huge) {
    const bytes = Number(huge[1]) * 1024 * 1024;
    return event('assistant.message', `{"content":"${'x'.repeat(bytes)}"}`, `e-${index}`);
  }
  throw new Error(`fake copilot: unknown FAKE_COPILOT_SEND entry ${what}`);
}

function serve(socket) {
  let buffer = Buffer.alloc(0);
  socket.on('error', () => undefined);
  socket.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length:\s*(\d+)/i.exec(buffer.subarray(0, end).toString('ascii'))?.[1]);
      if (buffer.length < end + 4 + length) return;
      const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString('utf8'));
      buffer = buffer.subarray(end + 4 + length);
      if (process.env.FAKE_COPILOT_CALLS)
        appendFileSync(process.env.FAKE_COPILOT_CALLS, `${JSON.stringify({ method: message.method })}\n`);
      const result = (value) => socket.write(frame(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: value })));
      switch (message.method) {
        case 'connect':
          result({ ok: true, protocolVersion: 3, version: '1.0.102' });
          break;
        case 'session.getForeground':
          result({ sessionId: session });
          break;
        case 'session.resume':
          result({ sessionId: session });
          resumed.add(socket);
          socket.on('close', () => resumed.delete(socket));
          send.forEach((what, index) => socket.write(frame(frames(what, index))));
          break;
        case 'session.permissions.pendingRequests':
          result({ items: [] });
          break;
        default:
          result({ success: true });
      }
    }
  });
}

if (process.env.FAKE_COPILOT_LISTEN !== '0') net.createServer(serve).listen(port, '127.0.0.1');
if (process.env.FAKE_COPILOT_PORT_FILE) writeFileSync(process.env.FAKE_COPILOT_PORT_FILE, String(port));
if (process.env.FAKE_COPILOT_PID_FILE) writeFileSync(process.env.FAKE_COPILOT_PID_FILE, String(process.pid));
process.on('SIGUSR2', () => {
  for (const socket of resumed)
    list(process.env.FAKE_COPILOT_SEND_LATER).forEach((what, index) => socket.write(frame(frames(what, 100 + index))));
});
process.on('SIGTERM', () => process.exit(0));
// Left behind (its parent or the wrapper's parent gone), it goes too: a test's SIGKILL must leave nothing running.
const parentOf = (pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
};
const parent = process.ppid;
const grandparent = parentOf(parent);
setInterval(() => {
  if (process.ppid !== parent || parentOf(parent) !== grandparent) process.exit(0);
}, 200);
