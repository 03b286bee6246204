// Issue 28: a "nothing happened" check waits first for a positive signal that the page has handled what the person
// did: the page's machines, watched through XState's inspection API (src/web/main.tsx passes the hook on), received
// the event. Only then is the absence of a dialog, a call or a move asserted.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

type Seen = { type: string; path?: string };

/** Records each event the page's machines receive (installed before the page's own scripts run). */
export async function watchMachines(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __events: Seen[]; __xstateInspect: (ev: Record<string, any>) => void };
    w.__events = [];
    w.__xstateInspect = (ev) => {
      if (ev.type === '@xstate.event' && ev.event?.type) w.__events.push({ type: ev.event.type, path: ev.event.path });
    };
  });
}

/** How many events of this type (and path) the page's machines have received. */
export const eventCount = (page: Page, type: string, path?: string) =>
  page.evaluate(([t, p]) => (window as unknown as { __events: Seen[] }).__events.filter((e) => e.type === t && (p === undefined || e.path === p)).length,
    [type, path] as const);

/** Waits until the page's machines have received one more event of this type (and path) than `before`. */
export async function machinesReceived(page: Page, type: string, before: number, path?: string): Promise<void> {
  await expect.poll(() => eventCount(page, type, path), { timeout: 10_000 }).toBeGreaterThan(before);
}
