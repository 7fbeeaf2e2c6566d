// How long the page spends on each socket.io message the host sends: from the socket's message
// event (before the app's handler) to the end of that task (the app's handler, the store update
// and React's synchronous re-render and commit in its microtasks), grouped by event name. Layout
// and paint come after and are not counted. Installed as an init script, before the app's code.

export interface MessageCost {
  event: string;
  ms: number;
}

declare global {
  interface Window {
    __messageCosts?: MessageCost[];
  }
}

/** An init script that wraps WebSocket so every socket.io event message (any namespace) is timed. */
export const MESSAGE_TIMING_SCRIPT = `(() => {
  const costs = (window.__messageCosts = []);
  const Native = window.WebSocket;
  const channel = new MessageChannel();
  const open = [];
  channel.port1.onmessage = () => {
    const end = performance.now();
    for (const entry of open.splice(0)) costs.push({ event: entry.event, ms: end - entry.start });
  };
  class Timed extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (message) => {
        if (typeof message.data !== 'string') return;
        const match = /^42(?:\\/[^,]*,)?\\d*\\["([^"]+)"/.exec(message.data);
        if (!match) return;
        open.push({ event: match[1], start: performance.now() });
        // A new task: it runs after this one's handlers and microtasks (React's commit) are done.
        channel.port2.postMessage(0);
      });
    }
  }
  window.WebSocket = Timed;
})();`;
