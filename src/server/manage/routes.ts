// Manage my booking (issue 27): GET /manage/{reference} with the link's key in the X-Manage-Key header (the page
// reads it from the link's fragment, which no browser sends to a server), and POST /manage/find.
import { Hono } from 'hono';
import { readJson } from '../http/body';
import { clientAddress } from '../http/clientAddress';
import { loadSettings, type AppEnv } from '../deps';
import { findBooking, manageReceipt, manageView } from './manage';

export const manageRoutes = new Hono<AppEnv>()
  .get('/manage/:reference', async (c) => {
    const { db, now } = c.var.deps;
    return c.json(await manageView(db, c.req.param('reference'), c.req.header('X-Manage-Key') ?? '', await loadSettings(db), now()));
  })
  .get('/manage/:reference/receipt', async (c) => {
    const { db, now } = c.var.deps;
    const { pdf, fileName } = await manageReceipt(db, c.req.param('reference'), c.req.header('X-Manage-Key') ?? '', await loadSettings(db), now());
    c.header('Content-Type', 'application/pdf');
    c.header('Content-Disposition', `attachment; filename="${fileName}"`);
    return c.body(new Uint8Array(pdf));
  })
  .post('/manage/find', async (c) => {
    const { db, security, siteUrl, mail } = c.var.deps;
    const body = (await readJson(c)) as { reference?: unknown; email?: unknown } | null;
    const message = await findBooking(
      { db, limits: security.limits, client: clientAddress(c, security.trustProxy), siteUrl, settings: await loadSettings(db) },
      typeof body?.reference === 'string' ? body.reference : '', typeof body?.email === 'string' ? body.email : '');
    mail.kick();
    return c.json({ success: true, message });
  });
