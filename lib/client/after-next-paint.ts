/**
 * Resolves once the next frame is drawn: a requestAnimationFrame callback runs just before that frame's style,
 * layout and paint, and a task posted from it runs after them (a message to itself, not a timer: background tabs
 * throttle those). A hidden page draws no frames: it resolves at once.
 */
export function afterNextPaint(): Promise<void> {
  if (typeof document === 'undefined' || document.visibilityState === 'hidden') return Promise.resolve();
  return new Promise((resolve) => {
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
  });
}
