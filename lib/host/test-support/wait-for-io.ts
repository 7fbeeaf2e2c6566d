import { setTimeout as delay } from 'node:timers/promises';

/**
 * Waits until `assertion` passes, as vi.waitFor does, but leaves fake time where it is: vi.waitFor
 * advances fake timers on every try, which would move a clock the test steps by hand. For what real
 * I/O (sockets, HTTP) delivers while the test's fake clock stands still.
 */
export async function waitForIo(assertion: () => void, timeoutMs = 5_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      assertion();
      return;
    } catch (error) {
      if (performance.now() > deadline) throw error;
    }
    await delay(5);
  }
}
