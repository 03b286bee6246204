// The Accounts page's forms (./AccountsView.tsx, machines/operatorAccounts.ts): an account's details, its booking
// fields (a list of values one per line, or free text) and its bookers. Each sends its event; the machine says what is
// wrong (the domain's rules, or the server's refusal of a field), under the field of the form that was sent.
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { accountsMachine, AccountRow } from '../../../../machines/operatorAccounts';
import { ACCOUNT_STATUSES, ACCOUNT_STATUS_LABELS, type AccountInput, type FieldInput } from '../../../domain/accounts';
import { Input } from './dataForm';

export type AccountsPage = ActorRefFrom<typeof accountsMachine>;

/** The messages on a form's fields: the form sent last's (the account's, a field's by id, the booker's). */
function useErrors(page: AccountsPage, form: 'account' | 'field' | 'booker', fieldId: number | null = null) {
  return useSelector(page, (s) => {
    const sent = s.context.sent;
    if (!sent || sent.form !== form || (sent.form === 'field' && sent.id !== fieldId) || (sent.form === 'booker' && !sent.join)) return {};
    return s.context.fieldErrors;
  });
}
const useBusy = (page: AccountsPage) => useSelector(page, (s) => s.hasTag('busy') || s.matches('loading'));

const formOf = (a: AccountRow | null): AccountInput => ({
  name: a?.name ?? '', address: a?.address ?? '', billing_email: a?.billing_email ?? '', vat_number: a?.vat_number ?? '',
  terms_days: String(a?.terms_days ?? 30), credit_limit: a?.credit_limit ?? '', status: a?.status ?? 'active', status_reason: a?.status_reason ?? '',
  company_id: a?.company_id === null || a?.company_id === undefined ? '' : String(a.company_id),
});

function Select({ id, label, value, onChange, error, hint, children }: {
  id: string; label: string; value: string; onChange: (v: string) => void; error?: string; hint?: string; children: ReactNode;
}) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={described}>{children}</select>
      {hint && <p className="field-hint" id={`${id}-hint`}>{hint}</p>}
      {error && <p className="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}

/** An account's details: new (account null) or as on record; the company that looks after it is the office's to choose. */
export function AccountForm({ page, account }: { page: AccountsPage; account: AccountRow | null }) {
  const errors = useErrors(page, 'account');
  const busy = useBusy(page);
  const office = useSelector(page, (s) => s.context.office);
  const companies = useSelector(page, (s) => s.context.answer?.companies ?? []);
  const [form, setForm] = useState(() => formOf(account));
  // Loaded again after a save: the form shows the account as it now is.
  useEffect(() => setForm(formOf(account)), [account]);
  const set = (k: keyof AccountInput) => (v: string) => setForm((f) => ({ ...f, [k]: v }));
  const submit = (e: FormEvent) => { e.preventDefault(); page.send({ type: 'account.save', form }); };
  return (
    <form className="op-form" onSubmit={submit} noValidate aria-label={account ? 'The account' : 'New account'}>
      {/* Nothing is typed while a change is on its way or the accounts load again (the form then shows them as they are). */}
      <fieldset className="ac-fieldset" disabled={busy}>
        <div className="ac-grid">
          <div className="ac-span2"><Input id="ac-name" label="Company name" value={form.name} onChange={set('name')} error={errors.name} required /></div>
          <div className="ac-span2">
            <Input id="ac-billing_email" label="Billing e-mail" type="email" value={form.billing_email} onChange={set('billing_email')} error={errors.billing_email}
              hint="Invoices are e-mailed here." required />
          </div>
          <div className="ac-wide"><Input id="ac-address" label="Address" type="textarea" value={form.address} onChange={set('address')} error={errors.address} hint="As the invoices show it." /></div>
          <Input id="ac-vat_number" label="VAT number" value={form.vat_number} onChange={set('vat_number')} error={errors.vat_number} hint="If the company has one, e.g. GB 123 4567 89." />
          <Input id="ac-terms_days" label="Payment terms (days)" value={form.terms_days} onChange={set('terms_days')} error={errors.terms_days} hint="Days from the invoice to its due date." required />
          <Input id="ac-credit_limit" label="Credit limit (£)" value={form.credit_limit} onChange={set('credit_limit')} error={errors.credit_limit}
            hint="What it may owe and have booked at once." required />
          <Select id="ac-status" label="Status" value={form.status} onChange={set('status')} error={errors.status}>
            {ACCOUNT_STATUSES.map((s) => <option key={s} value={s}>{ACCOUNT_STATUS_LABELS[s]}</option>)}
          </Select>
          <div className={office ? 'ac-span3' : 'ac-wide'}>
            <Input id="ac-status_reason" label="Reason the bookers are shown" value={form.status_reason} onChange={set('status_reason')} error={errors.status_reason}
              hint="When suspended or closed, e.g. Invoice INV-000123 is overdue." required={form.status !== 'active'} />
          </div>
          {office && (
            <Select id="ac-company_id" label="Company that looks after it" value={form.company_id} onChange={set('company_id')} error={errors.company_id}
              hint="Its staff see and keep the account.">
              <option value="">The office</option>
              {companies.map((c) => <option key={c.id} value={String(c.id)}>{c.company_name}</option>)}
            </Select>
          )}
        </div>
        <p><button type="submit" className="btn btn-primary">{account ? 'Save changes' : 'Add account'}</button></p>
      </fieldset>
    </form>
  );
}

const NEW_FIELD: FieldInput = { label: '', required: 'no', options: '', active: 'yes' };
const fieldForm = (f: AccountRow['fields'][number]): FieldInput => ({ label: f.label, required: f.required ? 'yes' : 'no', options: f.options.join('\n'), active: f.active ? 'yes' : 'no' });

/** The fields the account's bookers fill in on every booking, and the form that adds one or changes the one chosen. */
export function FieldsCard({ page, account }: { page: AccountsPage; account: AccountRow }) {
  const [editing, setEditing] = useState<number | null>(null);
  // Saved and loaded again: back to adding a field.
  useEffect(() => setEditing(null), [account.fields]);
  const field = account.fields.find((f) => f.id === editing) ?? null;
  return (
    <section className="op-card" aria-labelledby="ac-fields">
      <h2 id="ac-fields">Booking fields</h2>
      <p className="op-muted">What the bookers fill in on every booking (a PO number, a cost centre...): shown on the invoice&apos;s lines and the bookers&apos; CSV.</p>
      {account.fields.length === 0 ? <p className="op-count">None yet.</p> : (
        <ul className="op-list ac-fields">
          {account.fields.map((f) => (
            <li key={f.id}>
              <span>
                <strong>{f.label}</strong> <span className="op-muted">{f.required ? 'Required' : 'Optional'}{f.active ? '' : ', no longer asked'}</span><br />
                <span className="op-muted">{f.options.length ? `One of: ${f.options.join(', ')}` : 'Free text'}</span>
              </span>
              <button type="button" className="btn btn-secondary op-small" aria-label={`Change ${f.label}`} onClick={() => setEditing(f.id)}>Change</button>
            </li>
          ))}
        </ul>
      )}
      <FieldForm key={field ? `field-${field.id}` : `new-${account.fields.length}`} page={page} field={field} onCancel={() => setEditing(null)} />
    </section>
  );
}

function FieldForm({ page, field, onCancel }: { page: AccountsPage; field: AccountRow['fields'][number] | null; onCancel: () => void }) {
  const errors = useErrors(page, 'field', field?.id ?? null);
  const busy = useBusy(page);
  const [form, setForm] = useState(() => (field ? fieldForm(field) : NEW_FIELD));
  const set = (k: keyof FieldInput) => (v: string) => setForm((f) => ({ ...f, [k]: v }));
  const submit = (e: FormEvent) => { e.preventDefault(); page.send({ type: 'field.save', id: field?.id ?? null, form }); };
  const title = field ? `Change ${field.label}` : 'Add a field';
  return (
    <form className="op-form ac-field-form" onSubmit={submit} noValidate aria-label={title}>
      <h3>{title}</h3>
      <fieldset className="ac-fieldset" disabled={busy}>
        <div className="ac-grid">
          <div className="ac-span2">
            <Input id="af-label" label="Name" value={form.label} onChange={set('label')} error={errors.label} hint="e.g. PO number, Cost centre, Project code." required />
          </div>
          <label className="op-radio"><input type="checkbox" checked={form.required === 'yes'} onChange={(e) => set('required')(e.target.checked ? 'yes' : 'no')} />
            Required on every booking</label>
          <label className="op-radio"><input type="checkbox" checked={form.active === 'yes'} onChange={(e) => set('active')(e.target.checked ? 'yes' : 'no')} />
            Asked on bookings</label>
          <div className="ac-wide">
            <Input id="af-options" label="Values allowed" type="textarea" value={form.options} onChange={set('options')} error={errors.options}
              hint="One per line. Leave empty for free text." />
          </div>
        </div>
        <p className="op-row-buttons">
          <button type="submit" className="btn btn-primary">{field ? 'Save field' : 'Add field'}</button>
          {field && <button type="button" className="btn btn-secondary" onClick={onCancel}>Cancel</button>}
        </p>
      </fieldset>
    </form>
  );
}

/** The passengers with a sign-in who book for the account: added by their e-mail, removed by a button. */
export function BookersCard({ page, account }: { page: AccountsPage; account: AccountRow }) {
  const errors = useErrors(page, 'booker');
  const busy = useBusy(page);
  // A removal refused (no longer a booker of it, say): said over the list.
  const removal = useSelector(page, (s) => (s.context.sent?.form === 'booker' && !s.context.sent.join ? s.context.fieldErrors.email ?? null : null));
  const [email, setEmail] = useState('');
  // Added and loaded again: the form is empty for the next one.
  useEffect(() => setEmail(''), [account.bookers]);
  const submit = (e: FormEvent) => { e.preventDefault(); page.send({ type: 'booker.add', email }); };
  return (
    <section className="op-card" aria-labelledby="ac-bookers">
      <h2 id="ac-bookers">Bookers</h2>
      <p className="op-muted">Passengers with a sign-in (Sign In, then Create an account) who book on the account.</p>
      {removal && <p className="banner-error" role="alert">{removal}</p>}
      {account.bookers.length === 0 ? <p className="op-count">None yet.</p> : (
        <ul className="op-list">
          {account.bookers.map((b) => (
            <li key={b.id}>
              <span><strong>{b.name}</strong><br /><span className="op-muted">{b.email}</span></span>
              <button type="button" className="btn op-danger op-small" disabled={busy} aria-label={`Remove ${b.name}`}
                onClick={() => page.send({ type: 'booker.remove', email: b.email })}>Remove</button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit} noValidate aria-label="Add a booker">
        <fieldset className="ac-fieldset op-form ac-booker-form" disabled={busy}>
          <Input id="ab-email" label="Booker's e-mail" type="email" value={email} onChange={setEmail} error={errors.email} required />
          <p><button type="submit" className="btn btn-primary">Add booker</button></p>
        </fieldset>
      </form>
    </section>
  );
}
