// Read-only operator data: settings, companies, fleet, known addresses (SPEC 7),
// and the site's text pages (terms, privacy, accessibility; src/domain/sitePages.ts).
import { Hono } from 'hono';
import { loadSettings, type AppDeps } from '../deps';
import { DomainError } from '../errors';
import {
  DEFAULT_PAGE_TEXT, PAGE_TEXT_SETTINGS, SITE_PAGES, fillPlaceholders, isSitePageSlug, pageBlocks,
} from '../../domain/sitePages';

export function catalogRoutes({ db }: AppDeps) {
  return new Hono()
    .get('/setting', async (c) => {
      // The pages' long texts are served with their pages, not to every first visit.
      const rows = await db.query(
        'SELECT setting_name, setting_value FROM settings WHERE setting_name <> ALL($1) ORDER BY setting_name', [PAGE_TEXT_SETTINGS],
      );
      return c.json(rows);
    })
    .get('/page/:slug', async (c) => {
      const slug = c.req.param('slug');
      if (!isSitePageSlug(slug)) throw new DomainError('notFound', 'There is no such page.', 'slug');
      const page = SITE_PAGES[slug];
      const s = await loadSettings(db);
      const text = s[page.setting]?.trim() || DEFAULT_PAGE_TEXT[slug];
      const operator = { company: s.Company_Name ?? '', phone: s.Company_Contact_Info ?? '', email: s.Company_Email ?? '', address: s.Company_Address ?? '' };
      return c.json({ success: true, slug, title: page.title, blocks: pageBlocks(fillPlaceholders(text, operator)) });
    })
    .get('/fetch_companies', async (c) => {
      const rows = await db.query<{ id: number; company_name: string }>(
        'SELECT id, company_name FROM companies WHERE active ORDER BY company_name',
      );
      return c.json(rows.map((r) => ({ id: r.id, company: { company_name: r.company_name } })));
    })
    .get('/fetch_vehicles', async (c) => {
      const rows = await db.query(
        `SELECT id AS tbms_vid, image AS vehicle_img, category_name, seats, hand_luggage, luggage
           FROM vehicle_types ORDER BY sort_order, id`,
      );
      return c.json(rows);
    })
    .get('/ai-addresses', async (c) => {
      const rows = await db.query('SELECT id, address FROM addresses ORDER BY address');
      return c.json(rows);
    });
}
