// The one axe check of the browser tests: WCAG 2.0, 2.1 and 2.2 A and AA rules on the page as it is now.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export const WCAG22AA = ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'];

/**
 * The violations on the page, one line each (rule: the first offending elements); [] when there are none.
 * Only violations are described node by node (axe's selectors for every passing element cost time), and axe runs
 * in the page itself (legacy mode): the default opens a blank page per check to merge results across frames, which
 * took more than half of each check, and the site has no frames (the card fields are the page's own inputs).
 */
export async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page: page as never }).withTags(WCAG22AA).options({ resultTypes: ['violations'] })
    .setLegacyMode(true).analyze();
  expect(result.passes.length, 'axe ran its checks').toBeGreaterThan(10);
  expect(page.frames(), 'no frames that a check in the page would miss').toHaveLength(1);
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}
