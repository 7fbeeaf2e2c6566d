import { describe, expect, it } from 'vitest';
import { deferChunkScripts, inlineStylesheets, loaderChunks, loaderScript } from '../scripts/build-pwa/paint-first.mjs';

// What Next 16 writes into an exported page's <head> (shortened).
const HEAD =
  '<head><meta charSet="utf-8"/>' +
  '<link rel="stylesheet" href="/_next/static/chunks/a.css" data-precedence="next"/>' +
  '<link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/runtime.js"/>' +
  '<script src="/_next/static/chunks/react.js" async=""></script>' +
  '<script src="/_next/static/chunks/page.js" async=""></script>' +
  '<link rel="manifest" href="/manifest.webmanifest"/><link rel="icon" href="/icons/favicon.svg" type="image/svg+xml"/>' +
  '<script>/* boot */</script><script src="/_next/static/chunks/polyfills.js" noModule=""></script></head>';
const BODY = '<body><p>Pair this device</p><script src="/_next/static/chunks/runtime.js" async=""></script></body>';

interface Loaded {
  added: string[];
  paint(): void;
  timers: (() => void)[];
}

/** Runs the loader against a page whose <html> says `device`; `added`: the scripts it put in <head>, in order. */
function runLoader(device: string | null, options: { paintEntries?: boolean; hidden?: boolean } = {}): Loaded {
  const added: string[] = [];
  const timers: (() => void)[] = [];
  let observer: (() => void) | undefined;
  const document = {
    visibilityState: options.hidden ? 'hidden' : 'visible',
    documentElement: { getAttribute: (name: string) => (name === 'data-boot-device' ? device : null) },
    createElement: () => ({ src: '', async: false }),
    head: { appendChild: (element: { src: string }) => added.push(element.src) },
  };
  class PerformanceObserver {
    static supportedEntryTypes = options.paintEntries === false ? [] : ['paint'];
    constructor(callback: (list: unknown, self: { disconnect(): void }) => void) {
      observer = () => callback([], { disconnect: () => undefined });
    }
    observe() {}
  }
  const script = loaderScript(['/_next/static/chunks/runtime.js', '/_next/static/chunks/react.js']);
  // The loader is a string for a <script> tag: evaluating it is the point of this test.
  new Function('window', 'document', 'PerformanceObserver', 'requestAnimationFrame', 'setTimeout', script)(
    { PerformanceObserver },
    document,
    PerformanceObserver,
    (callback: () => void) => timers.push(callback),
    (callback: () => void) => timers.push(callback),
  );
  return { added, paint: () => observer?.(), timers };
}

describe('every page paints from its HTML alone (R9.14, R13.7)', () => {
  it('[R13.7] inlines each stylesheet where it was linked, and keeps the link disabled for React', async () => {
    const html = await inlineStylesheets(HEAD, (href) => Promise.resolve(`/* ${href} */p{color:red}`));
    expect(html).toContain(
      '<style>/* /_next/static/chunks/a.css */p{color:red}</style><link rel="stylesheet" href="/_next/static/chunks/a.css" data-precedence="next" disabled=""/>',
    );
    await expect(inlineStylesheets(HEAD, () => Promise.resolve('a{}</style><script>'))).rejects.toThrow('</style');
  });

  it('[R13.7] takes the chunk scripts, their preloads and the metadata links out of the HTML; one loader adds the chunks', () => {
    const html = deferChunkScripts(`<html>${HEAD}${BODY}</html>`);
    expect(html).not.toMatch(/<script src="\/_next\/static\/chunks\/(runtime|react|page)\.js"/);
    expect(html).not.toContain('rel="preload"');
    expect(html).not.toContain('rel="manifest"');
    expect(html).not.toContain('rel="icon"');
    // The polyfills stay (browsers with ES modules skip them), and the loader closes <head>.
    expect(html).toContain('<script src="/_next/static/chunks/polyfills.js" noModule=""></script>');
    expect(html).toMatch(/<script>\(function\(\)\{var u=.*<\/script><\/head>/);
    expect(loaderChunks(html)).toEqual([
      '/_next/static/chunks/react.js',
      '/_next/static/chunks/page.js',
      '/_next/static/chunks/runtime.js',
    ]);
    expect(deferChunkScripts('<html><head></head><body></body></html>')).toBe(
      '<html><head></head><body></body></html>',
    );
    expect(loaderChunks('<html></html>')).toEqual([]);
  });

  it('[R9.13] a paired device runs the chunks at once: its inbox comes from IndexedDB through them', () => {
    const loaded = runLoader('paired');
    expect(loaded.added).toEqual(['/_next/static/chunks/runtime.js', '/_next/static/chunks/react.js']);
  });

  it('[R9.14] any other device runs them once the page has painted, and only once', () => {
    const loaded = runLoader('unpaired');
    expect(loaded.added).toEqual([]);
    loaded.paint();
    expect(loaded.added).toHaveLength(2);
    for (const timer of loaded.timers) timer();
    expect(loaded.added).toHaveLength(2);
  });

  it('[R9.14] without paint entries, the frame after next; a hidden tab at once; nothing waits past its timeout', () => {
    const noEntries = runLoader(null, { paintEntries: false });
    expect(noEntries.added).toEqual([]);
    // requestAnimationFrame → requestAnimationFrame → run; the timeout is the other callback.
    noEntries.timers.shift()?.();
    noEntries.timers.pop()?.();
    expect(noEntries.added).toHaveLength(2);
    expect(runLoader('unpaired', { hidden: true }).added).toHaveLength(2);
    const neverPainted = runLoader('removed');
    for (const timer of neverPainted.timers) timer();
    expect(neverPainted.added).toHaveLength(2);
  });
});
