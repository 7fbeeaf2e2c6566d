import net from 'node:net';

/** A TCP relay to a server, which a test can cut (the server seems gone) and restore on the same port. */
export interface TcpProxy {
  port: number;
  /** Ends every relayed connection and stops accepting: connecting is refused until `restore`. */
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** Relays from `listenHost` (any loopback address) to 127.0.0.1:`targetPort`. */
export async function startTcpProxy(targetPort: number, listenHost = '127.0.0.1'): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, listenHost, () => {
        server.off('error', reject);
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (server.listening) server.close(() => resolve());
      else resolve();
    });
  const port = await listen(0);
  return { port, cut: stop, restore: async () => void (await listen(port)), close: stop };
}
