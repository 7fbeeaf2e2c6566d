import { describe, expect, it, vi } from 'vitest';

const evaluated = vi.hoisted(() => ({ count: 0 }));
vi.mock('./pair-request', () => {
  evaluated.count += 1;
  return { redeemPairingCode: vi.fn() };
});

const { preloadPairRequestOnIntent } = await import('./pair-request-loader');

describe('the pair page loads its request code on intent', () => {
  it('[R13.7] not before the first press, once at it, and not at all once the page has gone', async () => {
    const gone = new EventTarget();
    preloadPairRequestOnIntent(gone)();
    gone.dispatchEvent(new Event('pointerdown'));
    const page = new EventTarget();
    preloadPairRequestOnIntent(page);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(evaluated.count).toBe(0);
    page.dispatchEvent(new Event('pointerdown'));
    page.dispatchEvent(new Event('keydown'));
    await vi.waitFor(() => expect(evaluated.count).toBe(1));
  });
});
