import { describe, expect, it, vi } from 'vitest';

const evaluated = vi.hoisted(() => ({ count: 0 }));
vi.mock('./pair-request', () => {
  evaluated.count += 1;
  return { redeemPairingCode: vi.fn() };
});

const { preloadPairRequestOnIntent } = await import('./pair-request-loader');

describe('the pair page loads its request code on intent', () => {
  it('[R13.7] a page that has gone takes its listeners with it', () => {
    const target = { addEventListener: vi.fn(), removeEventListener: vi.fn() };
    preloadPairRequestOnIntent(target)();
    expect(target.addEventListener.mock.calls.map(([type]) => type)).toEqual(['pointerdown', 'keydown', 'focusin']);
    expect(target.removeEventListener.mock.calls).toEqual(target.addEventListener.mock.calls);
  });

  it('[R13.7] not before the first press, once at it', async () => {
    const page = new EventTarget();
    preloadPairRequestOnIntent(page);
    expect(evaluated.count).toBe(0);
    page.dispatchEvent(new Event('pointerdown'));
    page.dispatchEvent(new Event('keydown'));
    await vi.waitFor(() => expect(evaluated.count).toBe(1));
  });
});
