// The site's text pages (src/domain/sitePages.ts, issue 10): the operator's plain text as headings, paragraphs and
// lists; the operator's details filled in; the default texts say what the issue asks of them.
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_TEXT, fillPlaceholders, isSitePageSlug, PAGE_TEXT_SETTINGS, pageBlocks, SITE_PAGES } from '../../src/domain/sitePages';

const operator = { company: 'Albion Executive Cars', phone: '+44 20 7946 0321', email: 'bookings@albion.example', address: '27 Old Gloucester Street' };

describe('a page of plain text', () => {
  it("reads '## ' as a heading, '- ' as a list item, and other lines as a paragraph a blank line ends", () => {
    expect(pageBlocks('Intro line one\nline two\n\n## Paying\n- In the car\n- By card\nAfter the list\n\nLast')).toEqual([
      { kind: 'paragraph', text: 'Intro line one line two' },
      { kind: 'heading', text: 'Paying' },
      { kind: 'list', items: ['In the car', 'By card'] },
      { kind: 'paragraph', text: 'After the list' },
      { kind: 'paragraph', text: 'Last' },
    ]);
  });

  it('ends a paragraph where a list starts, takes Windows and old Mac line ends, and drops empty lines and spaces', () => {
    expect(pageBlocks('Before\n- one\r\n-  two \r\n\r\n  ##   Title  \rText\n\n\n\n')).toEqual([
      { kind: 'paragraph', text: 'Before' },
      { kind: 'list', items: ['one', 'two'] },
      { kind: 'heading', text: 'Title' },
      { kind: 'paragraph', text: 'Text' },
    ]);
    expect(pageBlocks('')).toEqual([]);
    expect(pageBlocks('   \n\n  ')).toEqual([]);
  });

  it("keeps '-' or '##' without a space as text", () => {
    expect(pageBlocks('-not a list\n##not a heading')).toEqual([{ kind: 'paragraph', text: '-not a list ##not a heading' }]);
  });

  it("fills the operator's company, phone, e-mail and address, and nothing else in braces", () => {
    expect(fillPlaceholders('{company}, {phone}, {email}, {address}, {other}', operator))
      .toBe('Albion Executive Cars, +44 20 7946 0321, bookings@albion.example, 27 Old Gloucester Street, {other}');
    expect(fillPlaceholders('Call {phone}.', { ...operator, phone: '' })).toBe('Call .');
  });
});

describe('the three pages', () => {
  it('are Terms, Privacy and Accessibility, each with its setting', () => {
    expect(SITE_PAGES).toEqual({
      terms: { setting: 'TERMS_AND_CONDITIONS', title: 'Terms and Conditions' },
      privacy: { setting: 'PRIVACY_POLICY', title: 'Privacy Policy' },
      accessibility: { setting: 'ACCESSIBILITY_STATEMENT', title: 'Accessibility statement' },
    });
    expect(PAGE_TEXT_SETTINGS).toEqual(['TERMS_AND_CONDITIONS', 'PRIVACY_POLICY', 'ACCESSIBILITY_STATEMENT']);
    expect(['terms', 'privacy', 'accessibility'].every(isSitePageSlug)).toBe(true);
    expect(['toString', 'constructor', 'cookies', ''].some(isSitePageSlug)).toBe(false);
  });

  it('say by default how to reach the operator, and what the issue asks of each', () => {
    const text = (slug: keyof typeof DEFAULT_PAGE_TEXT) => fillPlaceholders(DEFAULT_PAGE_TEXT[slug], operator);
    for (const slug of ['terms', 'privacy', 'accessibility'] as const) {
      expect(text(slug)).toContain(operator.company);
      expect(text(slug)).toContain(operator.email);
      expect(text(slug)).not.toMatch(/\{(company|phone|email|address)\}/);
    }
    // Privacy: what is stored, why, for how long, and no tracking cookies.
    expect(text('privacy')).toMatch(/no cookies and no tracking/);
    expect(text('privacy')).toMatch(/six years/);
    expect(text('privacy')).toMatch(/never your password/);
    // Accessibility: WCAG 2.2 AA and how to report a problem.
    expect(text('accessibility')).toMatch(/WCAG\) 2\.2 at level AA/);
    expect(text('accessibility')).toContain(`call ${operator.phone}`);
    // Terms: the price shown is the price paid; how to cancel.
    expect(text('terms')).toMatch(/The price shown before you book is the price you pay/);
    expect(text('terms')).toContain(`Call ${operator.phone}`);
  });

  it('read as headings, paragraphs and lists', () => {
    for (const slug of ['terms', 'privacy', 'accessibility'] as const) {
      const blocks = pageBlocks(DEFAULT_PAGE_TEXT[slug]);
      expect(blocks[0].kind).toBe('paragraph');
      expect(blocks.filter((b) => b.kind === 'heading').length).toBeGreaterThanOrEqual(2);
      expect(blocks.some((b) => b.kind === 'list')).toBe(true);
    }
    expect(pageBlocks(DEFAULT_PAGE_TEXT.terms).filter((b) => b.kind === 'heading').map((b) => (b as { text: string }).text)).toEqual([
      'Your booking', 'Paying', 'Changes and cancellations', 'Waiting and meeting you', 'Luggage and passengers', 'Licensing and complaints',
    ]);
  });
});
