import { describe, expect, it } from 'vitest';
import { NAVIGATION_DENYLIST, precachedPageFor } from './navigation';

const precached = new Set(['/index.html', '/history.html', '/settings/index.html', '/404.html']);
const has = (url: string) => precached.has(url);

describe('service worker navigation', () => {
  it('[R9.1] maps every exported route to its precached page', () => {
    expect(precachedPageFor('/', has)).toBe('/index.html');
    expect(precachedPageFor('/history', has)).toBe('/history.html');
    expect(precachedPageFor('/history/', has)).toBe('/history.html');
    expect(precachedPageFor('/history.html', has)).toBe('/history.html');
    expect(precachedPageFor('/settings', has)).toBe('/settings/index.html');
  });

  it('[R9.1] leaves unknown paths to the network', () => {
    expect(precachedPageFor('/nope', has)).toBeUndefined();
    expect(precachedPageFor('/nope.html', has)).toBeUndefined();
  });

  it('[R9.1] never answers host endpoints from the cache', () => {
    const denied = (path: string) => NAVIGATION_DENYLIST.some((re) => re.test(path));
    for (const path of [
      '/socket.io/?EIO=4',
      '/healthz',
      '/mcp',
      '/mcp/x',
      '/hooks/pre-tool-use',
      '/_askaway/csp-header.txt',
    ]) {
      expect(denied(path), path).toBe(true);
    }
    for (const path of ['/', '/history', '/hooksettings', '/mcpx', '/settings?tab=1']) {
      expect(denied(path), path).toBe(false);
    }
  });
});
