// Decisions 30 and 32: what does not belong to the first view (chunks for later steps, the address list, below-the-fold
// parts) waits until that view is on screen: its content has committed and the browser has shown the paint after.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Hooks = typeof import('../../src/web/hooks');
let frames: (() => void)[];

/** A browser's PerformanceObserver for paint entries: `emit` reports a paint shown at `startTime`. */
class PaintObserver {
  static supportedEntryTypes = ['mark', 'paint', 'largest-contentful-paint'];
  static watching = new Set<PaintObserver>();
  static emit(startTime: number) {
    for (const o of [...PaintObserver.watching]) o.report({ getEntries: () => [{ startTime }] });
  }
  constructor(private report: (list: { getEntries(): { startTime: number }[] }) => void) {}
  observe() { PaintObserver.watching.add(this); }
  disconnect() { PaintObserver.watching.delete(this); }
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.resetModules();
  frames = [];
  vi.stubGlobal('requestAnimationFrame', (cb: () => void) => { frames.push(cb); return frames.length; });
});
afterEach(() => { vi.useRealTimers(); vi.unstubAllGlobals(); PaintObserver.watching.clear(); });

async function settled(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => { done = true; });
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('afterFirstPaint where the browser reports paints', () => {
  beforeEach(() => { vi.stubGlobal('PerformanceObserver', PaintObserver); });

  it('waits for the content, then for a paint shown after it committed, then resolves at once for every later call', async () => {
    const { afterFirstPaint, contentShown }: Hooks = await import('../../src/web/hooks');
    const first = afterFirstPaint();
    await vi.advanceTimersByTimeAsync(1000);
    expect(await settled(first), 'a loading screen is not the content').toBe(false);
    contentShown();
    const committed = performance.now();
    PaintObserver.emit(committed - 1);
    expect(await settled(first), 'a paint from before the content committed').toBe(false);
    PaintObserver.emit(committed + 16);
    expect(await settled(first), 'the frame with the content is on screen').toBe(true);
    expect(PaintObserver.watching.size, 'stops watching').toBe(0);
    expect(await settled(afterFirstPaint())).toBe(true);
    expect(frames, 'no frames needed').toHaveLength(0);
  });

  it('goes on after 500 ms when no paint is reported (content no larger than what was already shown)', async () => {
    const { afterFirstPaint, contentShown }: Hooks = await import('../../src/web/hooks');
    const p = afterFirstPaint();
    contentShown();
    await vi.advanceTimersByTimeAsync(490);
    expect(await settled(p)).toBe(false);
    await vi.advanceTimersByTimeAsync(20);
    expect(await settled(p)).toBe(true);
    expect(PaintObserver.watching.size).toBe(0);
  });
});

describe('afterFirstPaint where the browser reports no paints', () => {
  it('waits for the content, then two frames (the first one is on screen by the second)', async () => {
    const { afterFirstPaint, contentShown }: Hooks = await import('../../src/web/hooks');
    const first = afterFirstPaint();
    contentShown();
    expect(await settled(first), 'committed, not yet painted').toBe(false);
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(await settled(first), 'painting, not yet shown').toBe(false);
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(await settled(first)).toBe(true);
    expect(await settled(afterFirstPaint())).toBe(true);
    expect(frames).toHaveLength(0);
  });

  it('goes on after 1.5 s when no content says it is shown (a page without the marker, a hidden tab)', async () => {
    const { afterFirstPaint }: Hooks = await import('../../src/web/hooks');
    const p = afterFirstPaint();
    await vi.advanceTimersByTimeAsync(1499);
    expect(frames).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    frames.shift()!();
    frames.shift()!();
    expect(await settled(p)).toBe(true);
  });
});
