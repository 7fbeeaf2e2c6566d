import { cleanupOutdatedCaches, getCacheKeyForURL, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { type RouteHandlerCallback } from 'workbox-core';
import { IGNORED_URL_PARAMETERS, NAVIGATION_DENYLIST, OFFLINE_FALLBACK_PAGE, precachedPageFor } from './navigation';
import { precacheManifest } from './worker-scope';

const isPrecached = (url: string) => getCacheKeyForURL(url) !== undefined;

/** App pages come from the precache (the worker's version is the app's version); the rest tries the network. */
const servePage: RouteHandlerCallback = async ({ url, request }) => {
  const page = precachedPageFor(url.pathname, isPrecached);
  const cached = page ? await matchPrecache(page) : undefined;
  if (cached) return cached;
  try {
    return await fetch(request);
  } catch (error) {
    const fallback = await matchPrecache(OFFLINE_FALLBACK_PAGE);
    if (fallback) return fallback;
    throw error;
  }
};

/**
 * In a static export Next's router checks that a route exists with a HEAD request before
 * prefetching it. Answering that from the precache keeps prefetching (and so instant
 * navigation) working offline. HEAD requests with the RSC header are Next's connectivity
 * checks: those must reach the network.
 */
const answerHead: RouteHandlerCallback = async ({ url, request }) => {
  const page = precachedPageFor(url.pathname, isPrecached);
  const cached = page && !request.headers.has('RSC') ? await matchPrecache(page) : undefined;
  if (cached) return new Response(null, { status: cached.status, headers: cached.headers });
  return fetch(request);
};

/**
 * Precaches the whole static export: HTML of every route, its RSC payloads (`.txt`,
 * fetched by client-side navigation), scripts, styles, icons and the manifest.
 */
export function installPrecache(): void {
  cleanupOutdatedCaches();
  // Registered first so that every navigation, with or without a query string, goes through servePage.
  registerRoute(new NavigationRoute(servePage, { denylist: [...NAVIGATION_DENYLIST] }));
  registerRoute(
    ({ url, sameOrigin }) => sameOrigin && !NAVIGATION_DENYLIST.some((re) => re.test(url.pathname)),
    answerHead,
    'HEAD',
  );
  precacheAndRoute(precacheManifest, { ignoreURLParametersMatching: [...IGNORED_URL_PARAMETERS] });
}
