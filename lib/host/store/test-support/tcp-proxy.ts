import net from 'node:net';

/**
 * A TCP relay to a server, which a test can cut (the server seems gone), restore on the same port, or freeze
 * (the peer goes silent: a network partition, a frozen VM).
 */
export interface TcpProxy {
  port: number;
  /**
   * Relays the first chunk a client sends that holds `text`, then nothing more either way, keeping every
   * connection open. Resolves once that chunk went through.
   */
  freezeAfter(text: string): Promise<void>;
  /** Ends every relayed connection and stops accepting: connecting is refused until `restore`. */
  cut(): Promise<void>;
  /** Stops accepting, keeping the connections it relays: a new connection is refused until `restore`. */
  refuseNew(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** Relays from `listenHost` (any loopback address) to 127.0.0.1:`targetPort`. */
export async function startTcpProxy(targetPort: number, listenHost = '127.0.0.1'): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let freeze: { text: string; frozen: () => void } | undefined;
  let frozen = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.on('data', (chunk: Buffer) => {
      if (frozen) return;
      upstream.write(chunk);
      if (freeze && chunk.includes(freeze.text)) {
        frozen = true;
        freeze.frozen();
      }
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!frozen) client.write(chunk);
    });
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
  return {
    port,
    freezeAfter: (text) => new Promise((resolve) => (freeze = { text, frozen: resolve })),
    cut: stop,
    // close() stops the listener at once; its callback would wait for the relayed connections to end.
    refuseNew: () => Promise.resolve(void (server.listening && server.close())),
    restore: async () => void (await listen(port)),
    close: stop,
  };
}
