import net from 'node:net';

/**
 * A loopback TCP proxy that can cut the link (reset connections, refuse new ones)
 * or stall it (stop reading both ways, as a dead Wi-Fi does, then deliver).
 */
export async function startProxy(targetPort: number) {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let mode: 'open' | 'cut' | 'stalled' = 'open';
  const server = net.createServer((client) => {
    if (mode === 'cut') {
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, '127.0.0.1');
    const pair = { client, upstream };
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    if (mode === 'stalled') {
      client.pause();
      upstream.pause();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      mode = 'cut';
      for (const pair of pairs) {
        pair.client.resetAndDestroy();
        pair.upstream.destroy();
      }
      pairs.clear();
    },
    stall() {
      mode = 'stalled';
      for (const pair of pairs) {
        pair.client.unpipe(pair.upstream);
        pair.upstream.unpipe(pair.client);
        pair.client.pause();
        pair.upstream.pause();
      }
    },
    restore() {
      const wasStalled = mode === 'stalled';
      mode = 'open';
      if (!wasStalled) return;
      for (const pair of pairs) {
        pair.client.pipe(pair.upstream);
        pair.upstream.pipe(pair.client);
        pair.client.resume();
        pair.upstream.resume();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const pair of pairs) {
          pair.client.destroy();
          pair.upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
