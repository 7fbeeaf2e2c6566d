// What a person sees, read the same way on the app and on the plain page: every animation frame, the rows in
// the DOM; a row counts as on screen at the end of the first frame drawn with it (the rAF callback runs before
// that frame's style, layout and paint; the task posted from it runs after them). Times are wall-clock
// milliseconds (performance.timeOrigin + performance.now()), so the script that announced a question or started
// a reload compares them with its own clock on the same machine.

declare global {
  interface Window {
    /** requestId → when its row was first on screen. */
    __rowsSeenAt?: Record<string, number>;
    /** When `total` rows were first on screen together (set once per page load). */
    __allRowsAt?: number;
  }
}

/** `selector` matches one element per row carrying `data-request-id`; `total` rows end the reload's wait. */
export function rowWatchScript(selector: string, total: number): { content: string } {
  return {
    content: `(() => {
  const seen = (window.__rowsSeenAt = {});
  const channel = new MessageChannel();
  let fresh = [];
  let whole = false;
  channel.port1.onmessage = () => {
    const at = performance.timeOrigin + performance.now();
    for (const id of fresh) seen[id] ??= at;
    fresh = [];
    if (whole && window.__allRowsAt === undefined) window.__allRowsAt = at;
  };
  const frame = () => {
    const rows = document.querySelectorAll(${JSON.stringify(selector)});
    let added = false;
    for (const row of rows) {
      const id = row.getAttribute('data-request-id');
      if (id && seen[id] === undefined && !fresh.includes(id)) { fresh.push(id); added = true; }
    }
    const all = window.__allRowsAt === undefined && rows.length >= ${total};
    if (all) whole = true;
    if (added || all) channel.port2.postMessage(0);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();`,
  };
}

/** Wall-clock ms, as the page's marks are. */
export const wallClock = (): number => performance.timeOrigin + performance.now();
