// The site around the wizard (issue 10): the text pages (terms, privacy, accessibility) from operator settings
// with defaults, kept out of GET /setting; and the retention times the privacy policy promises.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from './setup';
import { setSetting } from '../../src/server/operator/operator';
import { purgeExpiredRecords } from '../../src/server/operator/retention';
import { pageBlocks } from '../../src/domain/sitePages';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => { t = await testApp(); });
afterAll(async () => { await t.db.close(); });

const text = (blocks: { kind: string; text?: string; items?: string[] }[]) =>
  blocks.map((b) => b.text ?? b.items!.join(' ')).join('\n');

describe('GET /page/:slug', () => {
  it.each([
    ['terms', 'Terms and Conditions', /cancelled at least 24 hours before pickup/],
    ['privacy', 'Privacy Policy', /no cookies and no tracking/],
    ['accessibility', 'Accessibility statement', /WCAG\) 2\.2 at level AA/],
  ])('answers the demo operator\'s %s page by default, with its details filled in', async (slug, title, sentence) => {
    const { status, body } = await t.call('GET', `/page/${slug}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, slug, title });
    const all = text(body.blocks);
    expect(all).toMatch(sentence);
    expect(all).toContain('bookings@albion-executive.co.uk');
    expect(all).not.toMatch(/\{(company|phone|email|address)\}/);
    expect(body.blocks.some((b: { kind: string }) => b.kind === 'heading')).toBe(true);
  });

  it('uses the operator\'s own text when the setting is given, and never sends it with the settings', async () => {
    await setSetting(t.db, 'PRIVACY_POLICY', '## Who we are\n{company} keeps your data safe.\n\n- Item one\n- Item two');
    try {
      const { body } = await t.call('GET', '/page/privacy');
      expect(body.blocks).toEqual([
        { kind: 'heading', text: 'Who we are' },
        { kind: 'paragraph', text: 'Albion Executive Cars keeps your data safe.' },
        { kind: 'list', items: ['Item one', 'Item two'] },
      ]);
      const settings = (await t.call('GET', '/setting')).body as { setting_name: string }[];
      expect(settings.map((s) => s.setting_name)).not.toContain('PRIVACY_POLICY');
      expect(settings.map((s) => s.setting_name)).toContain('Company_Name');
    } finally {
      await setSetting(t.db, 'PRIVACY_POLICY', '');
    }
  });

  it('answers 404 naming the slug for any other page', async () => {
    const { status, body } = await t.call('GET', '/page/secrets');
    expect(status).toBe(404);
    expect(body).toMatchObject({ success: false, field: 'slug' });
  });
});

describe('page text', () => {
  it('reads headings, paragraphs joined across lines, and lists, whatever the line endings', () => {
    expect(pageBlocks('## A\r\nline one\r\nline two\r\n\r\n- x\n- y\nafter')).toEqual([
      { kind: 'heading', text: 'A' }, { kind: 'paragraph', text: 'line one line two' },
      { kind: 'list', items: ['x', 'y'] }, { kind: 'paragraph', text: 'after' },
    ]);
  });
});

describe('retention (the privacy policy\'s times)', () => {
  it('deletes contact messages and quote requests after 12 months, sent e-mails 90 days after sending, and keeps the rest', async () => {
    const now = new Date('2026-11-22T12:00:00Z');
    const insertContact = (at: string) => t.db.query<{ id: number }>(
      `INSERT INTO contact_messages (first_name, last_name, email, telephone, query_reason, booking_number, comments, created_at)
       VALUES ('A', 'B', 'a@example.com', '', 'Booking', '', 'x', $1) RETURNING id`, [at]);
    const [oldContact] = await insertContact('2025-11-21T11:00:00Z');
    const [recentContact] = await insertContact('2025-11-23T12:00:00Z');
    const insertMail = (status: string, sentAt: string | null) => t.db.query<{ id: number }>(
      `INSERT INTO outbound_emails (kind, to_address, subject, body_text, body_html, status, sent_at, created_at)
       VALUES ('contact_message', 'x@example.com', 's', 'b', '<p>b</p>', $1, $2, '2020-01-01T00:00:00Z') RETURNING id`, [status, sentAt]);
    const [oldSent] = await insertMail('sent', '2026-08-23T11:00:00Z');
    const [recentSent] = await insertMail('sent', '2026-08-24T13:00:00Z');
    const [failed] = await insertMail('failed', null);

    const removed = await purgeExpiredRecords(t.db, now);
    expect(removed.contact_messages).toBeGreaterThanOrEqual(1);
    const left = async (table: string, id: number) => (await t.db.query(`SELECT id FROM ${table} WHERE id = $1`, [id])).length;
    expect([await left('contact_messages', oldContact.id), await left('contact_messages', recentContact.id)]).toEqual([0, 1]);
    expect([await left('outbound_emails', oldSent.id), await left('outbound_emails', recentSent.id), await left('outbound_emails', failed.id)])
      .toEqual([0, 1, 1]);
  });
});
