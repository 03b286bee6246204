// Decision 30: what does not belong to the first view (chunks for later steps, the address list, below-the-fold
// parts) waits until that view is on screen: its content has committed and the browser has painted a frame after.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Hooks = typeof import('../../src/web/hooks');
let frames: (() => void)[];

beforeEach(() => {
  vi.useFakeTimers();
  vi.resetModules();
  frames = [];
  vi.stubGlobal('requestAnimationFrame', (cb: () => void) => { frames.push(cb); return frames.length; });
});
afterEach(() => { vi.useRealTimers(); vi.unstubAllGlobals(); });

async function settled(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => { done = true; });
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('afterFirstPaint', () => {
  it('waits for the content, then for the frame that paints it, then resolves at once for every later call', async () => {
    const { afterFirstPaint, contentShown }: Hooks = await import('../../src/web/hooks');
    const first = afterFirstPaint();
    await vi.advanceTimersByTimeAsync(1000);
    expect(await settled(first), 'a loading screen is not the content').toBe(false);
    contentShown();
    expect(await settled(first), 'committed, not yet painted').toBe(false);
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(await settled(first), 'the task after the frame runs after its paint').toBe(true);
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
    expect(await settled(p)).toBe(true);
  });
});
