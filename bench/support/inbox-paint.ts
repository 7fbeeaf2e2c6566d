// When the whole inbox was first on screen: the app's test hook marks the React commit (R13.2);
// this init script also marks the end of the first frame drawn after it, as a person sees it
// (style, layout and paint of the rows, and any message handled before that frame, included).

declare global {
  interface Window {
    __inboxPaintedAt?: number;
  }
}

/** `total`: the item count of the whole inbox. Reset on each page load. */
export function inboxPaintScript(total: number): { content: string } {
  return {
    content: `(() => {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => { window.__inboxPaintedAt = performance.now(); };
  const frame = () => {
    const commits = window.__askaway ? window.__askaway.inboxCommits : [];
    // The commit is in before this frame's style, layout and paint: the task after it follows them.
    if (commits.some((commit) => commit.count === ${total})) channel.port2.postMessage(0);
    else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();`,
  };
}
