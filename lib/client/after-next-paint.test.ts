import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterNextPaint } from './after-next-paint';

/** A page as afterNextPaint sees it: its visibility, its listeners, and the frame callbacks it was given. */
function stubPage(visibilityState: 'visible' | 'hidden') {
  const frames: FrameRequestCallback[] = [];
  const listeners = new Set<() => void>();
  const page = {
    visibilityState,
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal('document', page);
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
  return {
    page,
    listeners,
    /** Draws a frame: its callbacks run; the task one of them posts runs after. */
    drawFrame: () => {
      for (const callback of frames.splice(0)) callback(0);
    },
  };
}

/** Resolves after the tasks queued before it have run (a MessageChannel message is a task, as afterNextPaint's is). */
function tasksRun(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** Whether `promise` has settled once the tasks queued so far, and the one each of them posts, have run. */
async function settledNow(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await tasksRun();
  await tasksRun();
  return done;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('afterNextPaint (R13.8)', () => {
  it('[R13.8] waits for the next frame, then for a task after it: the live code loads once the cached rows are drawn', async () => {
    const { drawFrame, listeners } = stubPage('visible');
    const painted = afterNextPaint();
    expect(await settledNow(painted)).toBe(false);
    drawFrame();
    await painted;
    expect(listeners.size).toBe(0);
  });

  it('[R13.8] a hidden page draws no frame: it does not wait', async () => {
    stubPage('hidden');
    expect(await settledNow(afterNextPaint())).toBe(true);
  });

  it('[R13.8] a page hidden before its frame stops waiting for it (a hidden tab holds its animation frames)', async () => {
    const { page, listeners } = stubPage('visible');
    const painted = afterNextPaint();
    expect(await settledNow(painted)).toBe(false);
    page.visibilityState = 'hidden';
    for (const listener of [...listeners]) listener();
    await painted;
    expect(listeners.size).toBe(0);
  });
});
