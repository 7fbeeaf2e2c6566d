/**
 * Which navigations the worker must leave to the network: the host's live endpoints,
 * never pages of the app. Matched against pathname + search.
 */
export const NAVIGATION_DENYLIST: readonly RegExp[] = [
  /^\/socket\.io(\/|$)/,
  /^\/healthz(\/|\?|$)/,
  /^\/mcp(\/|\?|$)/,
  /^\/hooks(\/|\?|$)/,
  /^\/_askaway(\/|$)/,
];

/** Query parameters that never change a precached file (Next adds `_rsc` to RSC payload fetches). */
export const IGNORED_URL_PARAMETERS: readonly RegExp[] = [/^_rsc$/, /^utm_/, /^fbclid$/];

/**
 * The exported HTML file that renders `pathname`, if the precache has it.
 * A static export writes `/` as `/index.html` and `/history` as `/history.html`;
 * `/history/` and `/history/index.html` are accepted too.
 */
export function precachedPageFor(pathname: string, isPrecached: (url: string) => boolean): string | undefined {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const candidates =
    trimmed === '/' || trimmed === ''
      ? ['/index.html']
      : trimmed.endsWith('.html')
        ? [trimmed]
        : [`${trimmed}.html`, `${trimmed}/index.html`];
  return candidates.find(isPrecached);
}

/** Shown for an unknown path while the network is down. */
export const OFFLINE_FALLBACK_PAGE = '/404.html';
