// What a person sees, read the same way on the app and on the plain page: every animation frame, the rows in
// the DOM; a row counts as on screen at the end of the first frame drawn with it. The rAF callback runs before
// that frame's style, layout and paint, so the end is read twice, and the earlier kept: when the task posted from
// that callback runs (after them, unless the page had other tasks queued, such as a script to evaluate), and the
// next frame's own time (its rAF timestamp: that frame starts once this one is drawn). Times are wall-clock
// milliseconds (performance.timeOrigin + performance.now()), so the script that announced a question or started a
// reload compares them with its own clock on the same machine. Read a value a frame or two after it appears: the
// second reading may still lower it.
// "All rows on screen" (a reload's end) is read as a person would read them: every row visible (not hidden by an
// ancestor) and its text, read with innerText, holding the question; innerText lays out what it reads, so a row
// that `content-visibility` skipped is paid for when read, as scrolling to it would pay (issue 40 §2).

declare global {
  interface Window {
    /** requestId → when its row was first on screen. */
    __rowsSeenAt?: Record<string, number>;
    /** When `total` rows were first on screen together (set once per page load). */
    __allRowsAt?: number;
    /** Set once both readings of `__allRowsAt` are in: it no longer changes. */
    __allRowsFinal?: boolean;
  }
}

/** After a value appears, how long until both of its readings are in (`__allRowsFinal` says so for a reload's). */
export const ROW_WATCH_SETTLE_MS = 100;

/**
 * `selector` matches one element per row carrying `data-request-id`; `total` rows, each visible and showing
 * `text`, end the reload's wait.
 */
export function rowWatchScript(selector: string, total: number, text: string): { content: string } {
  return {
    content: `(() => {
  const seen = (window.__rowsSeenAt = {});
  const marked = new Set();
  // What the last frame drew first: its rows, and whether all ${total} were there.
  let last = { ids: [], all: false };
  const settle = (batch, at) => {
    for (const id of batch.ids) seen[id] = Math.min(seen[id] ?? Infinity, at);
    if (!batch.all) return;
    window.__allRowsAt = Math.min(window.__allRowsAt ?? Infinity, at);
    batch.readings = (batch.readings ?? 0) + 1;
    if (batch.readings === 2) window.__allRowsFinal = true;
  };
  let allSeen = false;
  // Every row read, none skipped after the first that fails: each frame pays for reading the whole list.
  const allRead = (rows) => {
    let all = rows.length >= ${total};
    for (const row of rows)
      if (!row.checkVisibility({ visibilityProperty: true }) || !row.innerText.includes(${JSON.stringify(text)})) all = false;
    return all;
  };
  const frame = (timestamp) => {
    settle(last, performance.timeOrigin + timestamp);
    const batch = { ids: [], all: false };
    const rows = document.querySelectorAll(${JSON.stringify(selector)});
    for (const row of rows) {
      const id = row.getAttribute('data-request-id');
      if (id && !marked.has(id)) { marked.add(id); batch.ids.push(id); }
    }
    if (!allSeen && allRead(rows)) { allSeen = true; batch.all = true; }
    if (batch.ids.length > 0 || batch.all) {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => settle(batch, performance.timeOrigin + performance.now());
      channel.port2.postMessage(0);
    }
    last = batch;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();`,
  };
}

/** Wall-clock ms, as the page's marks are. */
export const wallClock = (): number => performance.timeOrigin + performance.now();
