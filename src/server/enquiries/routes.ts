// Quote requests (POST /send-instant-email) and contact messages (POST /contact-us): stored, then e-mailed to the
// operator (./enquiries.ts). A filled honeypot is answered as sent and dropped; otherwise each is counted per client
// address first (limits.ts).
import { Hono, type Context } from 'hono';
import { ContactForm, QuoteRequest } from '../../domain/schemas';
import { readBody } from '../http/body';
import { QUOTE_SENT } from '../../domain/messages';
import { isHoneypotFilled } from '../../domain/contactSchemas';
import { takeAllowance } from '../limits';
import { clientAddress } from '../http/clientAddress';
import { operatorEmail } from '../../domain/settings';
import { loadSettings, type AppEnv } from '../deps';
import { saveContactMessage, saveQuoteRequest } from './enquiries';

const CONTACT_SENT = 'Your form has been submitted successfully!. Thank You for Contacting';

function count(c: Context<AppEnv>, limit: 'quoteRequests' | 'contactMessages') {
  const { db, security } = c.var.deps;
  return takeAllowance(db, security.limits, [{ limit, key: clientAddress(c, security.trustProxy) }]);
}

export const enquiryRoutes = new Hono<AppEnv>()
  .post('/send-instant-email', async (c) => {
    const q = await readBody(c, QuoteRequest);
    if (isHoneypotFilled(q)) return c.json({ success: true, message: QUOTE_SENT });
    await count(c, 'quoteRequests');
    const { db, mail } = c.var.deps;
    await saveQuoteRequest(db, q, operatorEmail(await loadSettings(db)));
    mail.kick();
    return c.json({ success: true, message: QUOTE_SENT });
  })
  .post('/contact-us', async (c) => {
    const m = await readBody(c, ContactForm);
    if (isHoneypotFilled(m)) return c.json({ success: true, message: CONTACT_SENT });
    await count(c, 'contactMessages');
    const { db, mail } = c.var.deps;
    await saveContactMessage(db, m, operatorEmail(await loadSettings(db)));
    mail.kick();
    return c.json({ success: true, message: CONTACT_SENT });
  });
