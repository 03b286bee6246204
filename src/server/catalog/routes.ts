// Read-only operator data: settings, companies, fleet, known addresses (SPEC 7),
// and the site's text pages (terms, privacy, accessibility; src/domain/sitePages.ts).
import { Hono } from 'hono';
import { loadSettings, type AppEnv } from '../deps';
import { DomainError } from '../errors';
import { DEFAULT_PAGE_TEXT, SITE_PAGES, fillPlaceholders, isSitePageSlug, pageBlocks } from '../../domain/sitePages';
import { activeCompanies, knownAddresses, publicSettings, vehicleTypes } from './queries';

export const catalogRoutes = new Hono<AppEnv>()
  .get('/setting', async (c) => c.json(await publicSettings(c.var.deps.db)))
  .get('/page/:slug', async (c) => {
    const slug = c.req.param('slug');
    if (!isSitePageSlug(slug)) throw new DomainError('notFound', 'There is no such page.', 'slug');
    const page = SITE_PAGES[slug];
    const s = await loadSettings(c.var.deps.db);
    const text = s[page.setting]?.trim() || DEFAULT_PAGE_TEXT[slug];
    const operator = { company: s.Company_Name ?? '', phone: s.Company_Contact_Info ?? '', email: s.Company_Email ?? '', address: s.Company_Address ?? '' };
    return c.json({ success: true, slug, title: page.title, blocks: pageBlocks(fillPlaceholders(text, operator)) });
  })
  .get('/fetch_companies', async (c) => {
    const rows = await activeCompanies(c.var.deps.db);
    return c.json(rows.map((r) => ({ id: r.id, company: { company_name: r.company_name } })));
  })
  .get('/fetch_vehicles', async (c) => c.json(await vehicleTypes(c.var.deps.db)))
  .get('/ai-addresses', async (c) => c.json(await knownAddresses(c.var.deps.db)));
