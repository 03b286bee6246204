// The model of machines/operatorAccounts.ts (issue 44 §1, the console's Accounts page) that paths are generated from
// (test/machine/modelPaths.ts): the events a test may send, the addresses it starts from, and the facts each state
// keeps, worked out from the events of the path. The page runs as the console's child: what it tells the console (its
// address, a 401) is part of each step.
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { ACCOUNTS_NOTICES, accountsMachine, type AccountRow, type AccountsAnswer, type AccountsContext, type AccountsEvent, type AccountsSent } from '../../../machines/operatorAccounts';
import type { ConsolePageInput } from '../../../machines/consolePage';
import { accountErrors, fieldErrors, type AccountInput, type FieldInput } from '../../../src/domain/accounts';
import { emailProblem } from '../../../src/domain/fields';
import { MESSAGES } from '../../../src/domain/operatorDesk';
import { answers, callsOpen, type Model, type ModelEvent, type Trail } from '../modelPaths';
import { companyDesk, staff } from './operator';

export type Snapshot = SnapshotFrom<typeof accountsMachine>;

export const load = answers(accountsMachine, 'loadAccounts');
export const add = answers(accountsMachine, 'addAccount');
export const save = answers(accountsMachine, 'saveAccount');
export const field = answers(accountsMachine, 'saveField');
export const booker = answers(accountsMachine, 'setBooker');

export const ID = 12;
export const FIELD_ID = 5;
export const BOOKER = 'charlotte.davies@northbridge-consulting.co.uk';
export const ACCOUNT: AccountRow = {
  id: ID, name: 'Northbridge Consulting', address: '40 Bank Street, London E14 5NR', billing_email: 'accounts@northbridge-consulting.co.uk',
  vat_number: 'GB 284 1190 57', terms_days: 30, credit_limit: '5000.00', exposure: '68.50', status: 'active', status_reason: '', company_id: null,
  company_name: null, fields: [{ id: FIELD_ID, label: 'PO number', required: true, options: [], active: true }],
  bookers: [{ id: 3, name: 'Charlotte Davies', email: BOOKER }],
};
export const ANSWER: AccountsAnswer = { accounts: [ACCOUNT], companies: [{ id: 1, company_name: 'Albion Executive Cars' }], may_bill: true };
/** An account form the domain's rules accept, and one they refuse (no name, a VAT number that is none, suspended saying no reason). */
export const FORM: AccountInput = {
  name: 'Harbour Analytics', address: '12 Quay Street, Bristol BS1 4DJ', billing_email: 'accounts@harbour.example', vat_number: '', terms_days: '30',
  credit_limit: '2500', status: 'active', status_reason: '', company_id: '',
};
export const BAD_FORM: AccountInput = { ...FORM, name: ' ', vat_number: '123', status: 'suspended' };
export const FIELD: FieldInput = { label: 'Cost centre', required: 'no', options: 'Sales\nOperations', active: 'yes' };
export const BAD_FIELD: FieldInput = { ...FIELD, label: '' };

const refusal = (message: string, extra: { status?: number; field?: string } = {}) => Object.assign(new Error(message), extra);
const sessionEnded = refusal(MESSAGES.sessionEnded, { status: 401 });
const down = refusal('We could not reach the booking server. Please check your connection and try again.');
const sameName = refusal('An account with this name is already on the record.', { status: 422, field: 'name' });
const nobody = refusal('Nobody has a sign-in with this e-mail. Ask them to create one (Sign In > Create an account) first.', { status: 422, field: 'email' });
const sameLabel = refusal('The account has a field of this name already.', { status: 422, field: 'label' });
/** Refused for the member of staff, naming no field of the form: above it. */
const gone = refusal('No such account on your record.', { status: 404 });

export const EVENTS: ModelEvent<AccountsEvent>[] = [
  load.done(ANSWER), load.fails(sessionEnded), load.fails(down),
  add.done({ done: 'Harbour Analytics saved.', id: ID }), add.fails(sessionEnded), add.fails(sameName), add.fails(down),
  save.done({ done: 'Northbridge Consulting saved.', id: ID }), save.fails(sessionEnded), save.fails(sameName), save.fails(gone),
  field.done({ done: 'Cost centre saved for Northbridge Consulting.' }), field.fails(sessionEnded), field.fails(sameLabel),
  booker.done({ done: 'Charlotte Davies now books for Northbridge Consulting.' }), booker.fails(sessionEnded), booker.fails(nobody), booker.fails(down),
  { type: 'accounts.open', id: ID },
  { type: 'accounts.new' },
  { type: 'accounts.back' },
  { type: 'account.save', form: FORM },
  { type: 'account.save', form: BAD_FORM },
  { type: 'field.save', id: null, form: FIELD },
  { type: 'field.save', id: FIELD_ID, form: BAD_FIELD },
  { type: 'booker.add', email: ` ${BOOKER} ` },
  { type: 'booker.add', email: 'charlotte' },
  { type: 'booker.remove', email: BOOKER },
  { type: 'retry' },
];

type Shown = { screen: 'list' } | { screen: 'account'; id: number } | { screen: 'new' };
/** The addresses a test opens the page at, who is signed in, and what each shows once the accounts are loaded. */
const ADDRESSES: { name: string; search: string; as?: typeof companyDesk; shows: Shown; missing?: boolean }[] = [
  { name: 'the Accounts link', search: '', shows: { screen: 'list' } },
  { name: 'an account', search: `?id=${ID}`, shows: { screen: 'account', id: ID } },
  { name: 'a new account', search: '?new=1', shows: { screen: 'new' } },
  { name: "a company's staff on the Accounts link", search: '', as: companyDesk, shows: { screen: 'list' } },
  // Addresses no link makes (typed, or an account since closed to them): what the page cannot show is said.
  { name: 'an account not on their record', search: '?id=99', shows: { screen: 'list' }, missing: true },
  { name: 'an id with letters, and new', search: `?id=${ID}x&new=1`, shows: { screen: 'new' } },
];
const MAIN_INPUTS = 3;

export const INPUTS: Record<string, ConsolePageInput> = Object.fromEntries(ADDRESSES.map((a) => [a.name, { location: { path: '/operator/accounts', search: a.search }, staff: a.as ?? staff }]));
const addressOf = (input: ConsolePageInput) => ADDRESSES.find((a) => a.search === input.location.search && (a.as ?? staff) === input.staff)!;

type Answer = { type: string; output?: { done: string; id?: number }; error?: { message: string; status?: number; field?: string } };
const is = (e: ModelEvent | undefined, a: { type: string }) => e?.type === a.type;
const failure = (e: ModelEvent | undefined) => (/^xstate\.error\.actor\./.test(e?.type ?? '') ? (e as Answer).error! : null);
type Said = Pick<AccountsContext, 'error' | 'notice' | 'fieldErrors'>;
const CLEARED: Said = { error: null, notice: null, fieldErrors: {} };
const saidIn = (c: AccountsContext): Said => ({ error: c.error, notice: c.notice, fieldErrors: c.fieldErrors });
/** A refusal as the page shows it: a 422 naming a field under that field, any other above the form with its words and status. */
function refusalShown(error: NonNullable<Answer['error']>): Said {
  if (error.field && error.status === 422) return { error: null, notice: null, fieldErrors: { [error.field]: error.message } };
  return { error: { message: error.message, ...(error.field ? { field: error.field } : {}), ...(error.status ? { status: error.status } : {}) }, notice: null, fieldErrors: {} };
}
const problems = (errors: Record<string, string | undefined>) => Object.fromEntries(Object.entries(errors).filter((x): x is [string, string] => Boolean(x[1])));
/** What an event sends (the domain's rules decide whether it may: unit-tested), and the messages that stop it. */
function sendOf(e: AccountsEvent): { sent: AccountsSent; problems: Record<string, string> } | null {
  if (e.type === 'account.save') return { sent: { form: 'account', values: e.form }, problems: problems(accountErrors(e.form)) };
  if (e.type === 'field.save') return { sent: { form: 'field', id: e.id, values: e.form }, problems: problems(fieldErrors(e.form)) };
  if (e.type === 'booker.add') return { sent: { form: 'booker', email: e.email.trim(), join: true }, problems: emailProblem(e.email) ? { email: emailProblem(e.email)! } : {} };
  if (e.type === 'booker.remove') return { sent: { form: 'booker', email: e.email, join: false }, problems: {} };
  return null;
}

/** The account open and the form being made, by the path's events. */
function given(trail: Trail<Snapshot>, input: ConsolePageInput) {
  const shown = addressOf(input).shows;
  let id: number | null = shown.screen === 'account' ? shown.id : addressOf(input).missing ? 99 : null;
  let creating = shown.screen === 'new';
  let sent: AccountsSent | null = null;
  for (const { event: e } of trail) {
    if (is(e, load.done()) && id !== null && !(e as unknown as { output: AccountsAnswer }).output.accounts.some((a) => a.id === id)) id = null;
    if (e.type === 'accounts.open') [id, creating] = [e.id, false];
    if (e.type === 'accounts.new') creating = true;
    if (e.type === 'accounts.back') [id, creating] = [null, false];
    if (is(e, add.done())) [id, creating] = [(e as Answer).output!.id!, false];
    const s = sendOf(e as AccountsEvent);
    if (s) sent = s.sent;
    // Saved, or the person moved on: done with.
    if ([add, save, field, booker].some((x) => is(e, x.done())) || ['retry', 'accounts.open', 'accounts.new', 'accounts.back'].includes(e.type)) sent = null;
  }
  return { id, creating, sent };
}

const ANSWERS: Record<string, { answer: ReturnType<typeof answers>; output: unknown }> = {
  loadAccounts: { answer: load, output: ANSWER }, addAccount: { answer: add, output: { done: 'Saved.', id: ID } }, saveAccount: { answer: save, output: { done: 'Saved.', id: ID } },
  saveField: { answer: field, output: { done: 'Saved.' } }, setBooker: { answer: booker, output: { done: 'Saved.' } },
};
const SAVING: Record<string, string> = { 'account.save': 'savingAccount', 'field.save': 'savingField', 'booker.add': 'savingBooker', 'booker.remove': 'savingBooker' };

export function facts(s: Snapshot, trail: Trail<Snapshot>, input: ConsolePageInput) {
  const last = trail.at(-1);
  const e = last?.event;
  const c = s.context;
  const before = trail.at(-2)?.state;
  const saidBefore = before ? saidIn(before.context) : CLEARED;
  const at = (search: string) => ({ type: 'page.location', location: { path: '/operator/accounts', search } });
  const want = given(trail, input);
  // A company's staff keep their own company's accounts: the company is the office's to choose.
  expect(c.office, 'the office chooses the company').toBe(input.staff.role !== 'company');

  const error = failure(e);
  let value: unknown;
  let said: Said;
  let told: unknown[] = [];
  if (!e) [value, said] = ['loading', CLEARED];
  else if (error?.status === 401) [value, said, told] = [before?.value ?? 'loading', saidBefore, [{ type: 'page.sessionEnded' }]];
  else if (error) {
    said = refusalShown(error);
    value = is(e, load.fails(null)) ? 'failed' : is(e, add.fails(null)) ? { creating: 'editing' } : { account: 'idle' };
  } else if (is(e, load.done())) {
    // Loaded: the account asked for (one they may not see: the list, saying so), the new account's form, or the list.
    const asked = given(trail.slice(0, -1), input).id;
    const missing = asked !== null && !ANSWER.accounts.some((a) => a.id === asked);
    if (missing) [value, said, told] = ['list', { ...saidBefore, error: { message: ACCOUNTS_NOTICES.notFound, status: 404 } }, [at('')]];
    else [value, said] = [want.id !== null ? { account: 'idle' } : want.creating ? { creating: 'editing' } : 'list', saidBefore];
    expect(c.answer, 'the accounts answered').toEqual(ANSWER);
  } else if (e.type === 'retry') [value, said] = ['loading', CLEARED];
  else if (e.type === 'accounts.open') [value, said, told] = [{ account: 'idle' }, CLEARED, [at(`?id=${e.id}`)]];
  else if (e.type === 'accounts.new') [value, said, told] = [{ creating: 'editing' }, CLEARED, [at('?new=1')]];
  else if (e.type === 'accounts.back') [value, said, told] = ['list', CLEARED, [at('')]];
  else if (sendOf(e as AccountsEvent)) {
    // The forms' rules: what they refuse is not sent, and their messages show on the fields; the rest is sent.
    const { problems: found } = sendOf(e as AccountsEvent)!;
    const creating = before ? before.matches({ creating: 'editing' }) : addressOf(input).shows.screen === 'new';
    said = { error: null, notice: null, fieldErrors: found };
    value = Object.keys(found).length ? (creating ? { creating: 'editing' } : { account: 'idle' }) : creating ? { creating: 'sending' } : { account: SAVING[e.type] };
  } else if ([add, save, field, booker].some((x) => is(e, x.done()))) {
    // Saved: the server's words, the accounts loaded again (a new account's page, the console told its address).
    const { done, id } = (e as Answer).output!;
    [value, said, told] = ['loading', { error: null, notice: done, fieldErrors: {} }, is(e, add.done()) ? [at(`?id=${id}`)] : []];
  } else throw new Error(`no fact for ${e.type}`);
  const where = e ? `after ${e.type}` : 'on opening';
  expect(s.value, `${where}: the state`).toEqual(value);
  expect(saidIn(c), `${where}: what the page says`).toEqual(said);
  if (last) expect(last.effects.toParent, `${where}: what the console is told`).toEqual(told);
  if (error?.status === 401) return;

  // The account open is the address's or the last opened (or added); none on the list.
  if (s.matches('account')) expect(c.id, 'the account open').toBe(want.id);
  if (s.matches('list')) expect([c.id, c.creating], 'nothing open on the list').toEqual([null, false]);
  // What was sent is kept through a refusal (what was typed is never lost); once saved, or left, it is done with.
  expect(c.sent, 'what was sent, kept').toEqual(want.sent);
  // Each call asks for exactly what the person gave, and the state waits for no other.
  const calls: Record<string, unknown> = {};
  const sent = want.sent;
  if (s.matches('loading')) calls.loadAccounts = undefined;
  if (s.matches({ creating: 'sending' }) && sent?.form === 'account') calls.addAccount = { form: sent.values };
  if (s.matches({ account: 'savingAccount' }) && sent?.form === 'account') calls.saveAccount = { id: want.id, form: sent.values };
  if (s.matches({ account: 'savingField' }) && sent?.form === 'field') calls.saveField = { accountId: want.id, id: sent.id, form: sent.values };
  if (s.matches({ account: 'savingBooker' }) && sent?.form === 'booker') calls.setBooker = { accountId: want.id, email: sent.email, join: sent.join };
  const open = callsOpen(s);
  expect(open, 'the calls open, with what they ask').toEqual(calls);
  for (const src of Object.keys(open)) {
    const { answer, output } = ANSWERS[src];
    for (const a of [answer.done(output), answer.fails(down), answer.fails(sessionEnded)]) expect(s.can(a as never), `${src}: ${a.type} is heard`).toBe(true);
  }
  // Nothing is sent twice: while a change is on its way, no other is started and the page is not left.
  if (s.hasTag('busy')) {
    for (const ev of [{ type: 'account.save', form: FORM }, { type: 'field.save', id: null, form: FIELD }, { type: 'booker.add', email: BOOKER }, { type: 'accounts.back' }] as const) {
      expect(s.can(ev), `${ev.type} waits for the change on its way`).toBe(false);
    }
  }
}

/** What the page offers: New account and each account on the list; Back and the three forms on an account; Try again. */
export const offers = (s: Snapshot): ModelEvent<AccountsEvent>[] => {
  if (s.matches('list')) return [{ type: 'accounts.new' }, ...(s.context.answer?.accounts ?? []).map((a) => ({ type: 'accounts.open', id: a.id }) as const)];
  if (s.matches({ account: 'idle' })) {
    return [{ type: 'accounts.back' }, { type: 'account.save', form: FORM }, { type: 'field.save', id: null, form: FIELD }, { type: 'booker.add', email: BOOKER }, { type: 'booker.remove', email: BOOKER }];
  }
  if (s.matches({ creating: 'editing' })) return [{ type: 'accounts.back' }, { type: 'account.save', form: FORM }];
  if (s.matches('failed')) return [{ type: 'retry' }];
  return [];
};

export const model: Model<typeof accountsMachine> = {
  name: 'accounts page machine',
  machine: accountsMachine,
  events: EVENTS,
  inputs: INPUTS,
  serialize: (s) => JSON.stringify([
    s.value, s.context.id, s.context.creating, s.context.answer !== null, s.context.office, s.context.sent?.form ?? null,
    Object.keys(s.context.fieldErrors), s.context.error?.status ?? null, s.context.error !== null, s.context.notice !== null,
  ]),
  facts,
  factsTitle: "issue 44's accounts: the addresses, the forms' rules, the server's refusals on their fields",
  offers,
  deciding: ['addAccount', 'saveAccount', 'saveField', 'setBooker'],
  services: ['loadAccounts', 'addAccount', 'saveAccount', 'saveField', 'setBooker'],
  describeState: (s) => JSON.stringify(s.value).replace(/[{}"]/g, '').replace(/:/g, '.'),
  depth: (_, i) => (i < MAIN_INPUTS ? 5 : 2),
};
