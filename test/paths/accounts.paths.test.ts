// The console's Accounts page's generated paths in Chromium (./pathRunner.ts), issue 44 §1: machines/operatorAccounts.ts
// on the real console against the real server, signed in as the demo's administrator (or Metro Cars London's desk).
// The accounts the page is answered are the model's (its account, the demo's Northbridge Consulting, with a PO number
// field and a booker), and so is every change's answer, asked of the server (./server.ts faults): a path never changes
// the demo's accounts, and each sees the account as the model has it. What a person sees is worked out from what they
// did and what the server answered (the oracle below), never from the machine.
import { ACCOUNTS_NOTICES } from '../../machines/operatorAccounts';
import { accountErrors, fieldErrors } from '../../src/domain/accounts';
import { emailProblem } from '../../src/domain/fields';
import { MESSAGES } from '../../src/domain/operatorDesk';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { ACCOUNT, add, ANSWER, BAD_FIELD, BAD_FORM, BOOKER, booker, field, FIELD, FIELD_ID, FORM, ID, load, model, save } from '../machine/models/accounts';
import type { ModelEvent } from '../machine/modelPaths';
import { browserPaths, type PathOracle, type PathPage } from './pathRunner';
import { API_HEADERS } from './server';
import { isWaiting, serviceOf, type Expected, type Seen } from './screens';

type Answer = { type: string; output?: { done: string; id?: number }; error?: Error & { status?: number; field?: string } };
const API = '/api/v1/operator';
const [ADMIN, METRO] = DEMO_STAFF;
const SERVICES = { loadAccounts: load, addAccount: add, saveAccount: save, saveField: field, setBooker: booker };
const CALLS: Record<keyof typeof SERVICES, { method: string; path: string }> = {
  loadAccounts: { method: 'GET', path: `${API}/accounts` },
  addAccount: { method: 'POST', path: `${API}/accounts` },
  saveAccount: { method: 'POST', path: `${API}/accounts` },
  saveField: { method: 'POST', path: `${API}/accounts/${ID}/fields` },
  setBooker: { method: 'POST', path: `${API}/accounts/${ID}/bookers` },
};
const CHANGES = [add, save, field, booker];

const is = (e: ModelEvent | undefined, s: { done: (o?: unknown) => { type: string } }) =>
  !!e && (e.type === s.done().type || e.type === s.done().type.replace('done', 'error'));
const answerFrom = (then: ModelEvent[], s: { done: (o?: unknown) => { type: string } }) => then.find((e) => is(e, s)) as Answer | undefined;

/**
 * The answers of the calls a person's act (or the opening) starts, as the model has them: its accounts, each change's
 * words, or a refusal (its status, message and field, or a dropped call). A load the path leaves unanswered is held by
 * the server until the path ends, as the model leaves it waiting.
 */
async function arrange(p: PathPage, then: ModelEvent[], loads: boolean) {
  for (const [name, service] of Object.entries(SERVICES)) {
    const answer = answerFrom(then, service);
    if (!answer) continue;
    const { method, path } = CALLS[name as keyof typeof SERVICES];
    if (answer.error?.status) await p.server.fault({ method, path, kind: 'status', status: answer.error.status, message: answer.error.message, field: answer.error.field });
    else if (answer.error) await p.server.fault({ method, path, kind: 'drop' });
    else await p.server.fault({ method, path, kind: 'answer', body: name === 'loadAccounts' ? ANSWER : answer.output });
  }
  const reloads = loads || CHANGES.some((c) => then.some((e) => e.type === c.done().type));
  if (reloads && !answerFrom(then, load)) await p.server.fault({ ...CALLS.loadAccounts, kind: 'delay', ms: 120_000 });
}

/** Signs the page's browser in as a member of staff: the cookie the sign-in gives. */
async function withSession(p: PathPage, who: { email: string; password: string }) {
  const res = await fetch(`${p.server.url}${API}/session`, { method: 'POST', headers: API_HEADERS, body: JSON.stringify(who) });
  const cookie = res.headers.get('set-cookie')!.split(';')[0];
  await p.page.context().addCookies([{ name: cookie.slice(0, cookie.indexOf('=')), value: cookie.slice(cookie.indexOf('=') + 1), url: `${p.server.url}${API}/` }]);
}

/** A call answered 401: the console signs out, saying so. */
const SIGNED_OUT = { screen: 'opLogin', addr: '', alerts: [MESSAGES.sessionEnded] } as Expected & { addr: string };
/** The labels of the forms' inputs, by the field their messages name. */
const LABELS: Record<string, string> = {
  name: 'Company name *', billing_email: 'Billing e-mail *', vat_number: 'VAT number', credit_limit: 'Credit limit (£) *', status_reason: 'Reason the bookers are shown *',
  label: 'Name *', email: "Booker's e-mail *",
};
const onFields = (errors: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(errors).filter(([k, m]) => m && LABELS[k]).map(([k, m]) => [LABELS[k], m!]));

type On = 'list' | 'account' | 'new';
/**
 * What the oracle keeps besides the screen: which of the page's views it is (`on`), the address the page is at (`addr`:
 * what it loads the accounts for), and while a change is on its way the screen it was sent from and whether it removes
 * a booker (whose refusal is said over the list of bookers, not under the e-mail of the form that adds one).
 */
type AccountsExpected = Expected & { on?: On; addr: string; was?: AccountsExpected; removing?: boolean };

const SCREEN = { list: 'opAccounts', account: 'opAccount', new: 'opNewAccount' } as const;
const shown = (on: On, addr: string, more: Partial<Seen> = {}): AccountsExpected => ({ screen: SCREEN[on], on, addr, ...more } as AccountsExpected);
const on = (e: AccountsExpected) => (isWaiting(e) ? undefined : e.on);
/** Where an address leads once the accounts are loaded: the account (the model's, or one not there), a new one's form, the list. */
function routeOf(at: string): { on: On; missing?: boolean } {
  const p = new URLSearchParams(at);
  const id = /^\d{1,9}$/.test(p.get('id') ?? '') ? Number(p.get('id')) : null;
  if (id !== null) return id === ID ? { on: 'account' } : { on: 'list', missing: true };
  return { on: p.get('new') === '1' ? 'new' : 'list' };
}

/**
 * Issue 44 §1's Accounts page, by what the member of staff did and what the server answered, written apart from
 * machines/operatorAccounts.ts: the list, an account with its form, fields and bookers, a new account's form; each
 * form's rules said under its fields before anything is sent; a change's words once it is saved and the accounts
 * loaded again; a refusal naming a field under it, any other above the page; an ended session signs the console out.
 */
const oracle: PathOracle<{ location: { search: string } }, AccountsExpected> = {
  calls: Object.fromEntries(Object.entries(CALLS).map(([name, c]) => [name, name === 'saveField' || name === 'setBooker'
    ? { method: c.method, path: new RegExp(`^${API}/accounts/\\d+/${name === 'saveField' ? 'fields' : 'bookers'}$`) } : c])),
  services: SERVICES,
  opens: (_name, input) => ({ screen: 'opAccounts', awaits: 'loadAccounts', on: 'list', addr: input.location.search }) as AccountsExpected,
  after(before, e) {
    const at = before.addr;
    const service = serviceOf(e, SERVICES);
    if (service) {
      const awaited = isWaiting(before) ? before.waiting : before.awaits;
      if (awaited !== service) return undefined;
      const a = e as Answer;
      if (a.error?.status === 401) return SIGNED_OUT as AccountsExpected;
      if (service === 'loadAccounts') {
        if (a.error) return { screen: 'opAccounts', on: 'list', addr: at, alerts: [a.error.message], buttons: ['Try again'] } as AccountsExpected;
        // The account asked for (or saved), the new account's form, or the list (saying so when the account is not there).
        // (A change's words stay said once the accounts are loaded again.)
        const said = (before as Seen).texts ?? [];
        const route = routeOf(at);
        if (route.missing) return shown('list', '', { alerts: [ACCOUNTS_NOTICES.notFound], search: '', texts: said });
        if (route.on === 'account') return shown('account', at, { texts: [ACCOUNT.name, ...said] });
        if (route.on === 'new') return shown('new', at, { texts: said });
        return shown('list', at, { links: [ACCOUNT.name], buttons: ['New account'], texts: said });
      }
      // A change refused: a field's under it (what was typed kept), anything else above the form (a booker's removal:
      // over the list of bookers).
      if (a.error) {
        const field = a.error.status === 422 && a.error.field && !before.removing && LABELS[a.error.field];
        return { ...before.was!, ...(field ? { fieldErrors: { [field]: a.error.message } } : { alerts: [a.error.message] }) } as AccountsExpected;
      }
      // Saved: the server's words, and the accounts loaded again (a new account's own page once they come).
      // (A new account: its page once the accounts come; meanwhile the page shows it if it knows it already, else waits.)
      if (service === 'addAccount') {
        const search = `?id=${a.output!.id}`;
        const known = a.output!.id === ID;
        return { screen: known ? 'opAccount' : 'opAccounts', on: known ? 'account' : 'list', addr: search, awaits: 'loadAccounts', texts: [a.output!.done], search } as AccountsExpected;
      }
      return { screen: 'opAccount', on: 'account', addr: at, awaits: 'loadAccounts', texts: [a.output!.done] } as AccountsExpected;
    }
    if (isWaiting(before) || before.awaits) return undefined;
    const ev = e as unknown as { type: string; id?: number; form?: Record<string, string>; email?: string };
    const where = on(before);
    const waitFor = (service: string, more: Partial<AccountsExpected> = {}) => ({ waiting: service, addr: at, was: shown(where!, at), ...more }) as AccountsExpected;
    switch (ev.type) {
      case 'retry': return (before as Seen).buttons?.includes('Try again') ? { screen: 'opAccounts', on: 'list', addr: at, awaits: 'loadAccounts' } as AccountsExpected : undefined;
      case 'accounts.open': return where === 'list' ? shown('account', `?id=${ev.id}`, { search: `?id=${ev.id}` }) : undefined;
      case 'accounts.new': return where === 'list' ? shown('new', '?new=1', { search: '?new=1' }) : undefined;
      case 'accounts.back': return where === 'account' || where === 'new' ? shown('list', '', { search: '' }) : undefined;
      case 'account.save': {
        if (where !== 'account' && where !== 'new') return undefined;
        const problems = onFields(accountErrors(ev.form!));
        if (Object.keys(problems).length) return shown(where, at, { fieldErrors: problems });
        return waitFor(where === 'new' ? 'addAccount' : 'saveAccount');
      }
      case 'field.save': {
        if (where !== 'account') return undefined;
        const problems = onFields(fieldErrors(ev.form!));
        return Object.keys(problems).length ? shown('account', at, { fieldErrors: problems }) : waitFor('saveField');
      }
      case 'booker.add': {
        if (where !== 'account') return undefined;
        const problem = emailProblem(ev.email!);
        return problem ? shown('account', at, { fieldErrors: { [LABELS.email]: problem } }) : waitFor('setBooker');
      }
      case 'booker.remove': return where === 'account' ? waitFor('setBooker', { removing: true }) : undefined;
      default: return undefined;
    }
  },
};

/** What a person does: clicks, and fills each form as the model's event has it. */
const act = (run: (p: PathPage) => Promise<void>, loads = false) => async (p: PathPage, { then }: { then: ModelEvent[] }) => {
  await arrange(p, then, loads);
  await run(p);
};
async function fillAccount(p: PathPage, form: typeof FORM, name: 'New account' | 'The account') {
  const f = p.page.getByRole('form', { name });
  await f.getByLabel('Company name').fill(form.name);
  await f.getByLabel('Billing e-mail').fill(form.billing_email);
  await f.getByLabel('Address').fill(form.address);
  await f.getByLabel('VAT number').fill(form.vat_number);
  await f.getByLabel('Payment terms (days)').fill(form.terms_days);
  await f.getByLabel('Credit limit (£)').fill(form.credit_limit);
  await f.getByLabel('Status').selectOption(form.status);
  await f.getByLabel('Reason the bookers are shown').fill(form.status_reason);
  await f.getByRole('button', { name: name === 'New account' ? 'Add account' : 'Save changes' }).click();
}
const saveAccount = (form: typeof FORM) => act(async (p) => {
  const creating = await p.page.getByRole('form', { name: 'New account' }).count();
  await fillAccount(p, form, creating ? 'New account' : 'The account');
});

browserPaths({
  model,
  width: 1280,
  async open(p, _name, input, { then }) {
    await withSession(p, input.staff.role === 'company' ? METRO : ADMIN);
    await arrange(p, then, true);
    await p.typeUrl(`${input.location.path}${input.location.search}`);
  },
  acts: {
    retry: act(async (p) => { await p.page.getByRole('button', { name: 'Try again' }).click(); }, true),
    [`accounts.open ${ID}`]: act(async (p) => { await p.page.getByRole('table', { name: 'Accounts' }).getByRole('link', { name: ACCOUNT.name }).click(); }),
    'accounts.new': act(async (p) => { await p.page.getByRole('button', { name: 'New account' }).click(); }),
    'accounts.back': act(async (p) => { await p.page.getByRole('button', { name: '← Accounts' }).click(); }),
    [`account.save ${FORM.status}`]: saveAccount(FORM),
    [`account.save ${BAD_FORM.status}`]: saveAccount(BAD_FORM),
    'field.save no id': act(async (p) => {
      const f = p.page.getByRole('form', { name: 'Add a field' });
      await f.getByLabel('Name').fill(FIELD.label);
      await f.getByLabel('Values allowed').fill(FIELD.options);
      await f.getByRole('button', { name: 'Add field' }).click();
    }),
    [`field.save ${FIELD_ID}`]: act(async (p) => {
      await p.page.getByRole('button', { name: 'Change PO number' }).click();
      const f = p.page.getByRole('form', { name: 'Change PO number' });
      await f.getByLabel('Name').fill(BAD_FIELD.label);
      await f.getByRole('button', { name: 'Save field' }).click();
    }),
    [`booker.add  ${BOOKER} `]: act(async (p) => {
      await p.page.getByRole('form', { name: 'Add a booker' }).getByLabel("Booker's e-mail").fill(BOOKER);
      await p.page.getByRole('button', { name: 'Add booker' }).click();
    }),
    'booker.add charlotte': act(async (p) => {
      await p.page.getByRole('form', { name: 'Add a booker' }).getByLabel("Booker's e-mail").fill('charlotte');
      await p.page.getByRole('button', { name: 'Add booker' }).click();
    }),
    [`booker.remove ${BOOKER}`]: act(async (p) => {
      await p.page.getByRole('button', { name: `Remove ${ACCOUNT.bookers[0].name}` }).click();
    }),
  },
  oracle,
});

