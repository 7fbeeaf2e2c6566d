// The socket <head> opens (./socket-prefetch.ts: its inline script is the layout's alone) as the first screen and
// the live connection (./early-socket.ts) see it.

/**
 * The socket the inline script in <head> opened, as ./early-socket.ts adopts it. `messages`: what the host sent
 * meanwhile, in order (its pings are answered here, not kept); `sent`: the namespace's connect, with this
 * device's credential, is on its way.
 */
export interface EarlySocket {
  ws: WebSocket;
  hostUrl: string;
  credential: string;
  messages: unknown[];
  sent: boolean;
  closed: boolean;
  /** Told of each message as it is kept (./connection-loader.ts waits for the snapshot with it). */
  listener?: (data: unknown) => void;
}

declare global {
  interface Window {
    __askawaySocket?: EarlySocket;
  }
}

/** socket.io's namespace of remotes (REMOTE_NAMESPACE in lib/contracts/wire.ts, which would bring zod along). */
export const EARLY_NAMESPACE = '/remote';

/** The host has answered the early connect: its snapshot, or its refusal (a revoked device, an old protocol). */
function isAnswer(data: unknown): boolean {
  return (
    typeof data === 'string' &&
    (data.startsWith(`42${EARLY_NAMESPACE},["snapshot"`) || data.startsWith(`44${EARLY_NAMESPACE},`))
  );
}

/**
 * Resolves when the socket <head> opened has the host's answer: on a fast network that comes before anything
 * is painted, and the live connection should load at once. Never resolves without an early socket.
 */
export function whenEarlyAnswer(): Promise<void> {
  const early = typeof window === 'undefined' ? undefined : window.__askawaySocket;
  if (!early) return new Promise(() => undefined);
  if (early.messages.some(isAnswer)) return Promise.resolve();
  return new Promise((resolve) => {
    early.listener = (data) => {
      if (isAnswer(data)) resolve();
    };
  });
}
