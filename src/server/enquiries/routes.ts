// Quote requests (POST /send-instant-email) and contact messages (POST /contact-us): stored, then e-mailed to the
// operator (./enquiries.ts). A filled honeypot is answered as sent and dropped; otherwise each is counted per client
// address first (limits.ts).
import { Hono, type Context } from 'hono';
import { ContactForm, QuoteRequest } from '../../domain/schemas';
import { readBody } from '../http/body';
import { QUOTE_SENT } from '../../domain/messages';
import { isHoneypotFilled } from '../../domain/contactSchemas';
import { withAllowance } from '../limits';
import { clientAddress } from '../http/clientAddress';
import { operatorEmail } from '../../domain/settings';
import { loadSettings, type AppEnv } from '../deps';
import { saveContactMessage, saveQuoteRequest } from './enquiries';

const CONTACT_SENT = 'Your form has been submitted successfully!. Thank You for Contacting';

/** Saves with the client address's allowance counted first, and given back if the message could not be saved. */
function counted(c: Context<AppEnv>, limit: 'quoteRequests' | 'contactMessages', save: () => Promise<void>) {
  const { db, security } = c.var.deps;
  return withAllowance(db, security.limits, [{ limit, key: clientAddress(c, security.trustProxy) }], async () => ({ done: true, value: await save() }));
}

export const enquiryRoutes = new Hono<AppEnv>()
  .post('/send-instant-email', async (c) => {
    const q = await readBody(c, QuoteRequest);
    if (isHoneypotFilled(q)) return c.json({ success: true, message: QUOTE_SENT });
    const { db, mail } = c.var.deps;
    await counted(c, 'quoteRequests', async () => saveQuoteRequest(db, q, operatorEmail(await loadSettings(db))));
    mail.kick();
    return c.json({ success: true, message: QUOTE_SENT });
  })
  .post('/contact-us', async (c) => {
    const m = await readBody(c, ContactForm);
    if (isHoneypotFilled(m)) return c.json({ success: true, message: CONTACT_SENT });
    const { db, mail, now } = c.var.deps;
    await counted(c, 'contactMessages', async () => saveContactMessage(db, m, operatorEmail(await loadSettings(db)), now()));
    mail.kick();
    return c.json({ success: true, message: CONTACT_SENT });
  });
