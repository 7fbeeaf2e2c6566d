/**
 * Resolves once the next frame is drawn: a requestAnimationFrame callback runs just before that frame's style,
 * layout and paint, and a task posted from it runs after them (a message to itself, not a timer: background tabs
 * throttle those). A hidden page draws no frames: it resolves at once, or as soon as the page is hidden or shown
 * again before that frame (a page hidden meanwhile would hold its animation frame until it is shown).
 */
export function afterNextPaint(): Promise<void> {
  if (typeof document === 'undefined' || document.visibilityState === 'hidden') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      document.removeEventListener('visibilitychange', done);
      resolve();
    };
    document.addEventListener('visibilitychange', done);
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        done();
      };
      channel.port2.postMessage(null);
    });
  });
}
