// The corporate area's Invoices: machines/accountInvoices.ts's generated paths in Chromium (./pathRunner.ts), issue 44
// §3. Each path has a passenger of its own, made as the site makes one (a booking as a new client), whose sign-in
// belongs to no company account: the server's real answer is then that invoices are for company accounts. An
// account's invoices and their PDFs are asked of the server (the model's invoice and credit note; the demo's own
// invoice and its real PDF are e2e/journeys-and-invoices.test.ts's), as are a dropped call and a 401.
import type { AnyEventObject } from 'xstate';
import { INVOICES_NOTICES } from '../../machines/accountInvoices';
import { listedDocuments, type InvoicesAnswer } from '../../src/domain/expenses';
import { downloadDocument, fetchInvoices, model } from '../machine/models/accountInvoices';
import type { ModelEvent } from '../machine/modelPaths';
import { browserPaths, type PathOracle, type PathPage } from './pathRunner';
import { isWaiting, type Expected } from './screens';
import { openAsReturningVisitor } from './storage';
import { newAccount, signIn } from './data';

const API = '/api/v1';
const LIST = { method: 'GET', path: `${API}/account/invoices` };
const documentCall = (document: string) => ({ method: 'GET', path: `${API}/account/invoices/${document}` });
const SIGN_IN_AGAIN = `?redirect=${encodeURIComponent('/bookings/invoices')}`;

type Answer = { type: string; output?: InvoicesAnswer; error?: Error & { status?: number } };
const answerOf = (then: readonly ModelEvent[], service: typeof fetchInvoices | typeof downloadDocument) =>
  then.find((e) => e.type === service.done().type || e.type === service.fails(null).type) as Answer | undefined;

/** The answers to the calls a person's act starts: the real "no company account", else asked of the server. */
async function arrange(p: PathPage, then: ModelEvent[], document?: string) {
  const list = answerOf(then, fetchInvoices);
  if (list?.error) {
    const { status, message } = list.error;
    await p.server.fault(status ? { ...LIST, kind: 'status', status, message } : { ...LIST, kind: 'drop' });
  } else if (list?.output?.account) await p.server.fault({ ...LIST, kind: 'answer', body: list.output });
  const file = answerOf(then, downloadDocument);
  if (file && document) {
    const call = documentCall(document);
    if (file.error) {
      const { status, message } = file.error;
      await p.server.fault(status ? { ...call, kind: 'status', status, message } : { ...call, kind: 'drop' });
    } else await p.server.fault({ ...call, kind: 'answer', body: { document } });
  }
}

type InvoicesExpected = Expected & { list: InvoicesAnswer | null; document?: string };

/**
 * Issue 44 §3: what the Invoices page shows after each act and answer, written apart from the machine: each invoice
 * with its month and its notes, each with its download; a passenger of no account told why there are none; a
 * failure with Try again; a download said done, or why not; a 401 back to sign in, to come back here.
 */
const oracle: PathOracle<unknown, InvoicesExpected> = {
  calls: { fetchInvoices: { ...LIST }, downloadDocument: { method: 'GET', path: /^\/api\/v1\/account\/invoices\/(INV|CN|DN)-\d{6}$/ } },
  opens: () => ({ waiting: 'fetchInvoices', list: null }),
  after(before, e) {
    const { list } = before;
    const page = (more: Partial<InvoicesExpected>): InvoicesExpected => ({ screen: 'invoices', search: '', list, ...more } as InvoicesExpected);
    const answer = e as unknown as Answer;
    const service = answerOf([e], fetchInvoices) ? 'fetchInvoices' : answerOf([e], downloadDocument) ? 'downloadDocument' : null;
    if (service) {
      if (!isWaiting(before) || before.waiting !== service) return undefined;
      if (answer.error?.status === 401) return { screen: 'login', search: SIGN_IN_AGAIN, list } as InvoicesExpected;
      if (service === 'downloadDocument') {
        return answer.error ? page({ alerts: [answer.error.message] }) : page({ statuses: [INVOICES_NOTICES.downloaded(before.document!)] });
      }
      if (answer.error) return page({ alerts: ['We could not load your invoices.', answer.error.message], buttons: ['Try again'] });
      const shown = answer.output!;
      if (!shown.account) return page({ list: shown, texts: ['Invoices are for company accounts'] });
      return page({
        list: shown, texts: shown.invoices.flatMap((i) => [`Invoice ${i.label}`, i.month]),
        buttons: listedDocuments(shown).map((d) => `Download ${d} (PDF)`),
      });
    }
    if (isWaiting(before) || before.screen !== 'invoices') return undefined;
    if (e.type === 'invoices.download') {
      const { document } = e as unknown as { document: string };
      return list && listedDocuments(list).includes(document) ? { waiting: 'downloadDocument', list, document } : undefined;
    }
    if (e.type === 'invoices.retry') return { waiting: 'fetchInvoices', list };
    return undefined;
  },
};

browserPaths({
  model,
  // A document's button is on the page only when the list shows it.
  allows: (s, e) => {
    const ev = e as AnyEventObject;
    if (ev.type === 'invoices.download') return s.context.answer !== null && listedDocuments(s.context.answer).includes(ev.document);
    return true;
  },
  async open(p, _name, _input, { then }) {
    const account = await newAccount(p.server);
    const session = await signIn(p.server, account.email, account.password);
    await arrange(p, then);
    await openAsReturningVisitor(p, '/bookings/invoices', { session });
  },
  acts: {
    ...Object.fromEntries(model.events.filter((e) => e.type === 'invoices.download').map((e) => {
      const { document } = e as unknown as { document: string };
      return [`invoices.download ${document}`, async (p: PathPage, { then }: { then: ModelEvent[] }) => {
        await arrange(p, then, document);
        await p.page.getByRole('button', { name: `Download ${document} (PDF)` }).click();
      }];
    })),
    'invoices.retry': async (p, { then }) => {
      await arrange(p, then);
      await p.page.getByRole('button', { name: 'Try again' }).click();
    },
  },
  oracle,
});
