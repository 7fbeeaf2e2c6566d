// The R13.1 baseline: a bare socket.io relay of the same hops and payload shapes
// as the host (announce → remotes, respond → the announcing runtime), with no
// validation, no log and no registry. Prints `Local: <url>` like the host.
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import { Server } from 'socket.io';

const server = http.createServer();
const io = new Server(server, { serveClient: false });
const runtimes = io.of('/runtime');
const remotes = io.of('/remote');
const owners = new Map<string, { socketId: string; protocolRequestId: string }>();
let seq = 0;

type Ack = (result: unknown) => void;
const isAck = (value: unknown): value is Ack => typeof value === 'function';

runtimes.on('connection', (socket) => {
  socket.on('announce', (request: { requestId: string; protocolRequestId: string }, ack: unknown) => {
    owners.set(request.requestId, { socketId: socket.id, protocolRequestId: request.protocolRequestId });
    const at = new Date().toISOString();
    seq += 1;
    remotes.emit('events', {
      events: [{ seq, at, type: 'interaction.requested', interaction: request }],
      serverTime: at,
    });
    if (isAck(ack)) ack({ ok: true, status: 'pending', autoResolution: { status: 'disabled' } });
  });
  socket.on('resolution:ack', (_command: unknown, ack: unknown) => {
    if (isAck(ack)) ack({ ok: true });
  });
});

remotes.on('connection', (socket) => {
  socket.on('respond', (command: { requestId: string; clientResponseId: string; response: unknown }, ack: unknown) => {
    const resolution = {
      requestId: command.requestId,
      response: command.response,
      resolvedBy: 'user',
      resolvedAt: new Date().toISOString(),
      clientResponseId: command.clientResponseId,
      device: { id: 'bench-remote' },
    };
    if (isAck(ack)) ack({ ok: true, status: 'accepted', resolution });
    const owner = owners.get(command.requestId);
    owners.delete(command.requestId);
    if (owner)
      runtimes
        .to(owner.socketId)
        .emit('resolved', { requestId: command.requestId, protocolRequestId: owner.protocolRequestId, resolution });
  });
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`  Local:    http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => {
  io.close();
  process.exit(0);
});
