// Preloaded into the host child (`node --import`): answers usage queries over the IPC
// channel, so the benchmark reads the host's own process.cpuUsage() and memory.
export interface UsageReport {
  type: 'usage';
  id: number;
  cpuMicros: number;
  rssBytes: number;
  heapUsedBytes: number;
  at: number;
}

if (typeof process.send === 'function') {
  process.on('message', (message: unknown) => {
    if (typeof message !== 'object' || message === null || (message as { type?: unknown }).type !== 'usage') return;
    const cpu = process.cpuUsage();
    const memory = process.memoryUsage();
    const report: UsageReport = {
      type: 'usage',
      id: Number((message as { id?: unknown }).id),
      cpuMicros: cpu.user + cpu.system,
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      at: performance.now(),
    };
    process.send?.(report);
  });
  // The channel must not keep a host alive that would otherwise exit.
  process.channel?.unref();
}
