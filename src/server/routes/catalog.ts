// Read-only operator data: settings, companies, fleet, known addresses (SPEC 7).
import { Hono } from 'hono';
import type { AppDeps } from '../deps';

export function catalogRoutes({ db }: AppDeps) {
  return new Hono()
    .get('/setting', async (c) => {
      const rows = await db.query('SELECT setting_name, setting_value FROM settings ORDER BY setting_name');
      return c.json(rows);
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
