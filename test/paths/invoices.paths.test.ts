// The console's Invoices page's generated paths in Chromium (./pathRunner.ts), issue 44 §3: machines/operatorInvoices.ts
// on the real console against the real server, signed in as the demo's administrator (or Metro Cars London's desk).
// The invoices the page is answered are the model's (one due, one paid, of the model's account), and so is every
// call's answer, asked of the server (./server.ts faults): a path never marks the demo's invoices nor issues any. What
// a person sees is worked out from what they did and what the server answered (the oracle below), never from the
// machine.
import { INVOICES_NOTICES } from '../../machines/operatorInvoices';
import { issueMonth, paidOnProblem } from '../../src/domain/invoiceDesk';
import { MESSAGES } from '../../src/domain/operatorDesk';
import { ukToday } from '../../src/domain/ukTime';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { ACCOUNT, FUTURE, issue, list, mark, model, OFFICE, PAID, PAST, pdf, UNPAID } from '../machine/models/invoices';
import type { ModelEvent } from '../machine/modelPaths';
import { browserPaths, type PathOracle, type PathPage } from './pathRunner';
import { API_HEADERS } from './server';
import { isWaiting, serviceOf, type Expected, type Seen } from './screens';

type Answer = { type: string; output?: { done?: string; may_bill?: boolean }; error?: Error & { status?: number; field?: string } };
const API = '/api/v1/operator';
const [ADMIN, METRO] = DEMO_STAFF;
const SERVICES = { loadInvoices: list, downloadInvoice: pdf, markInvoicePaid: mark, issueInvoices: issue };
const DOCUMENT = 'INV-000012';
const CALLS = {
  loadInvoices: { method: 'GET', path: `${API}/invoices` },
  downloadInvoice: { method: 'GET', path: `${API}/invoices/${DOCUMENT}` },
  issueInvoices: { method: 'POST', path: `${API}/invoices/run` },
};
const markPath = (number: number) => `${API}/invoices/${number}/paid`;

const is = (e: ModelEvent | undefined, s: { done: (o?: unknown) => { type: string } }) =>
  !!e && (e.type === s.done().type || e.type === s.done().type.replace('done', 'error'));
const answerFrom = (then: ModelEvent[], s: { done: (o?: unknown) => { type: string } }) => then.find((e) => is(e, s)) as Answer | undefined;

/** The accounts the page lists to choose from, as GET /operator/accounts answers them. */
const ACCOUNTS = { accounts: [{ id: ACCOUNT, name: 'Northbridge Consulting' }], companies: [], may_bill: true };

/**
 * The answers of the calls a person's act (or the opening) starts, as the model has them; `number`: the invoice being
 * marked paid or unpaid. A load the path leaves unanswered is held by the server until the path ends.
 */
async function arrange(p: PathPage, then: ModelEvent[], loads: boolean, number?: number) {
  const fail = async (method: string, path: string, error: NonNullable<Answer['error']>) => (error.status
    ? p.server.fault({ method, path, kind: 'status', status: error.status, message: error.message, field: error.field })
    : p.server.fault({ method, path, kind: 'drop' }));
  const loaded = answerFrom(then, list);
  if (loaded?.error) await fail(CALLS.loadInvoices.method, CALLS.loadInvoices.path, loaded.error);
  else if (loaded) {
    const { accounts: _names, ...answer } = loaded.output as typeof OFFICE;
    await p.server.fault({ ...CALLS.loadInvoices, kind: 'answer', body: answer });
    await p.server.fault({ method: 'GET', path: `${API}/accounts`, kind: 'answer', body: ACCOUNTS });
  }
  for (const [service, call] of [[pdf, CALLS.downloadInvoice], [issue, CALLS.issueInvoices], [mark, { method: 'POST', path: markPath(number ?? 0) }]] as const) {
    const answer = answerFrom(then, service);
    if (answer?.error) await fail(call.method, call.path, answer.error);
    else if (answer) await p.server.fault({ ...call, kind: 'answer', body: answer.output ?? {} });
  }
  const reloads = loads || then.some((e) => e.type === mark.done().type || e.type === issue.done().type);
  if (reloads && !loaded) await p.server.fault({ ...CALLS.loadInvoices, kind: 'delay', ms: 120_000 });
}

async function withSession(p: PathPage, who: { email: string; password: string }) {
  const res = await fetch(`${p.server.url}${API}/session`, { method: 'POST', headers: API_HEADERS, body: JSON.stringify(who) });
  const cookie = res.headers.get('set-cookie')!.split(';')[0];
  await p.page.context().addCookies([{ name: cookie.slice(0, cookie.indexOf('=')), value: cookie.slice(cookie.indexOf('=') + 1), url: `${p.server.url}${API}/` }]);
}

/**
 * What the oracle keeps besides the screen: whether the office may bill (the last answer said), the invoice whose
 * window is open, and while a call is on its way the screen it was sent from.
 */
type InvoicesExpected = Expected & { mayBill: boolean; paying: number | null; was?: InvoicesExpected };
const label = (number: number) => (number === UNPAID.number ? UNPAID.label : PAID.label);
const listed = (mayBill: boolean, more: Partial<Seen> = {}): InvoicesExpected => ({
  screen: 'opInvoices', mayBill, paying: null,
  buttons: [`Download ${UNPAID.label} (PDF)`, ...(mayBill ? [`Mark ${UNPAID.label} paid`, `Mark ${PAID.label} unpaid`, 'Issue invoices'] : [])],
  noButtons: mayBill ? [] : ['Issue invoices'], ...more,
} as InvoicesExpected);
const dialogFor = (mayBill: boolean, number: number, more: Partial<Seen> = {}): InvoicesExpected => ({
  screen: 'opInvoices', mayBill, paying: number, dialog: { title: `Mark ${label(number)} paid`, role: 'dialog' }, fields: ['Paid on *'], ...more,
} as InvoicesExpected);

/**
 * Issue 44 §3's Invoices page, by what the member of staff did and what the server answered, written apart from
 * machines/operatorInvoices.ts: the invoices of every account or one (the address says which), each PDF; for the office
 * alone, Mark paid in its window with the day (never one to come), Mark unpaid, and Issue invoices now for a month that
 * is over; each change's words once the invoices are loaded again; a refusal naming a field under it, any other said.
 */
const oracle: PathOracle<unknown, InvoicesExpected> = {
  calls: {
    loadInvoices: CALLS.loadInvoices,
    downloadInvoice: CALLS.downloadInvoice,
    markInvoicePaid: { method: 'POST', path: /^\/api\/v1\/operator\/invoices\/\d+\/paid$/ },
    issueInvoices: CALLS.issueInvoices,
  },
  services: SERVICES,
  opens: () => ({ screen: 'opInvoices', awaits: 'loadInvoices', mayBill: false, paying: null }) as InvoicesExpected,
  after(before, e) {
    const service = serviceOf(e, SERVICES);
    if (service) {
      const awaited = isWaiting(before) ? before.waiting : before.awaits;
      if (awaited !== service) return undefined;
      const a = e as Answer;
      if (a.error?.status === 401) return { screen: 'opLogin', alerts: [MESSAGES.sessionEnded], mayBill: false, paying: null } as InvoicesExpected;
      if (service === 'loadInvoices') {
        if (a.error) return { screen: 'opInvoices', mayBill: before.mayBill, paying: null, alerts: [a.error.message], buttons: ['Try again'] } as InvoicesExpected;
        return listed(a.output!.may_bill!, { texts: (before as Seen).texts ?? [] });
      }
      if (a.error) {
        // A field refused: under it (the day paid in its window, the month of the issuing form); anything else said.
        const inWindow = Boolean((before.was as Seen | undefined)?.dialog);
        const field = a.error.status === 422 ? ({ paid_on: inWindow ? 'Paid on *' : '', month: 'Month *' } as Record<string, string>)[a.error.field ?? ''] : undefined;
        return { ...before.was!, ...(field ? { fieldErrors: { [field]: a.error.message } } : { alerts: [a.error.message] }) } as InvoicesExpected;
      }
      if (service === 'downloadInvoice') return listed(before.mayBill, { texts: [INVOICES_NOTICES.downloaded(DOCUMENT)] });
      return { screen: 'opInvoices', mayBill: before.mayBill, paying: null, awaits: 'loadInvoices', texts: [a.output!.done!] } as InvoicesExpected;
    }
    if (isWaiting(before) || before.awaits) return undefined;
    const ev = e as unknown as { type: string; account?: number | null; number?: number; paid_on?: string; month?: string };
    const ready = !(before as Seen).dialog && !(before as Seen).buttons?.includes('Try again');
    const waitFor = (waiting: string) => ({ waiting, mayBill: before.mayBill, paying: before.paying, was: before }) as InvoicesExpected;
    switch (ev.type) {
      case 'retry': return (before as Seen).buttons?.includes('Try again') ? { screen: 'opInvoices', awaits: 'loadInvoices', mayBill: before.mayBill, paying: null } as InvoicesExpected : undefined;
      case 'invoices.show': return (before as Seen).dialog ? undefined
        : { screen: 'opInvoices', awaits: 'loadInvoices', mayBill: before.mayBill, paying: null, search: ev.account === null ? '' : `?account=${ev.account}` } as InvoicesExpected;
      case 'invoices.download': return ready ? waitFor('downloadInvoice') : undefined;
      case 'invoices.pay': return ready && before.mayBill && ev.number === UNPAID.number ? dialogFor(true, ev.number) : undefined;
      case 'invoices.cancel': return (before as Seen).dialog ? listed(before.mayBill) : undefined;
      case 'invoices.paid': {
        if (!(before as Seen).dialog) return undefined;
        const problem = paidOnProblem(ev.paid_on!, ukToday());
        return problem ? dialogFor(true, before.paying!, { fieldErrors: { 'Paid on *': problem } }) : { ...waitFor('markInvoicePaid'), was: dialogFor(true, before.paying!) };
      }
      case 'invoices.unpay': return ready && before.mayBill && ev.number === PAID.number ? { ...waitFor('markInvoicePaid'), was: listed(true) } : undefined;
      case 'invoices.issue': {
        if (!ready || !before.mayBill) return undefined;
        const month = issueMonth(ev.month!, ukToday());
        return 'problem' in month ? listed(true, { fieldErrors: { 'Month *': month.problem } }) : { ...waitFor('issueInvoices'), was: listed(true) };
      }
      default: return undefined;
    }
  },
};

const act = (run: (p: PathPage) => Promise<void>, options: { loads?: boolean; number?: number } = {}) => async (p: PathPage, { then }: { then: ModelEvent[] }) => {
  await arrange(p, then, options.loads ?? false, options.number);
  await run(p);
};
const table = (p: PathPage) => p.page.getByRole('table', { name: 'Invoices' });
const show = (account: number | null) => act(async (p) => {
  const form = p.page.getByRole('form', { name: 'Invoices to show' });
  await form.getByLabel('Account').selectOption(account === null ? { label: 'All accounts' } : { value: String(account) });
  await form.getByRole('button', { name: 'Show' }).click();
}, { loads: true });
const issueFor = (month: string, account: number | null) => act(async (p) => {
  const form = p.page.getByRole('form', { name: 'Issue invoices now' });
  await form.getByLabel('Month').fill(month);
  await form.getByLabel('Account').selectOption(account === null ? { label: 'Every account' } : { value: String(account) });
  await form.getByRole('button', { name: 'Issue invoices' }).click();
});
// The day paid, typed in the window (the date input takes it as a day; the machine's rule compares it with today's).
const paidOn = (day: string) => act(async (p) => {
  const dialog = p.page.getByRole('dialog');
  await dialog.getByLabel('Paid on').fill(day);
  await dialog.getByRole('button', { name: 'Mark paid' }).click();
}, { number: UNPAID.number });

browserPaths({
  model,
  width: 1280,
  async open(p, _name, input, { then }) {
    await withSession(p, input.staff.role === 'company' ? METRO : ADMIN);
    await arrange(p, then, true);
    await p.typeUrl(`${input.location.path}${input.location.search}`);
  },
  acts: {
    retry: act(async (p) => { await p.page.getByRole('button', { name: 'Try again' }).click(); }, { loads: true }),
    [`invoices.show ${ACCOUNT}`]: show(ACCOUNT),
    'invoices.show no account': show(null),
    [`invoices.download ${DOCUMENT}`]: act(async (p) => { await table(p).getByRole('button', { name: `Download ${DOCUMENT} (PDF)` }).click(); }),
    [`invoices.pay ${UNPAID.number}`]: act(async (p) => { await table(p).getByRole('button', { name: `Mark ${UNPAID.label} paid` }).click(); }),
    [`invoices.paid  ${PAST} `]: paidOn(PAST),
    [`invoices.paid ${FUTURE}`]: paidOn(FUTURE),
    'invoices.cancel': act(async (p) => { await p.page.getByRole('dialog').getByRole('button', { name: 'Go back' }).click(); }),
    [`invoices.unpay ${PAID.number}`]: act(async (p) => { await table(p).getByRole('button', { name: `Mark ${PAID.label} unpaid` }).click(); }, { number: PAID.number }),
    'invoices.issue 2020-05 no account': issueFor('2020-05', null),
    [`invoices.issue 2099-01 ${ACCOUNT}`]: issueFor('2099-01', ACCOUNT),
  },
  // What a person can do: Mark paid on an invoice not paid yet and Mark unpaid on a paid one (the page offers no other).
  allows: (s, e) => {
    const ev = e as { type: string; number?: number };
    if (ev.type === 'invoices.pay') return ev.number === UNPAID.number;
    if (ev.type === 'invoices.unpay') return ev.number === PAID.number;
    // The address the page is at is not asked for again by a person.
    // (Before any answer the page knows no account to choose: every account's invoices alone.)
    if (ev.type === 'invoices.show') {
      const { account } = ev as { account?: number | null };
      return account !== s.context.account && (account === null || s.context.answer !== null);
    }
    return true;
  },
  oracle,
});
