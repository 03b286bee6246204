// The console's Invoices page (issue 44 §3), run by machines/operatorInvoices.ts: the accounts' monthly invoices, all
// or one account's, each with its PDF and its credit and debit notes'; for the office (the server's may_bill), "Mark
// paid" with the day it was paid (or "Mark unpaid"), and "Issue invoices now" for a month and one account or all.
import { useEffect, useState, type FormEvent, type MouseEvent } from 'react';
import { useSelector } from '@xstate/react';
import { useLocation } from 'wouter';
import type { invoicesMachine, InvoiceRow } from '../../../../machines/operatorInvoices';
import { pathOfScreen } from '../../../domain/screens';
import { formatDateLong, ukToday } from '../../../domain/ukTime';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { LoadingOverlay } from '../../components/LoadingOverlay';
import { usePage } from './operatorActor';
import { Input } from './dataForm';
import { pounds } from './format';
import './accounts.css';

type Page = NonNullable<ReturnType<typeof usePage<typeof invoicesMachine>>>;

export function InvoicesView() {
  const page = usePage<typeof invoicesMachine>();
  if (!page) return <LoadingOverlay text="Opening the invoices" />;
  return <Invoices page={page} />;
}

const idOf = (v: string) => (v === '' ? null : Number(v));

function Invoices({ page }: { page: Page }) {
  const [, navigate] = useLocation();
  const answer = useSelector(page, (s) => s.context.answer);
  const account = useSelector(page, (s) => s.context.account);
  const error = useSelector(page, (s) => s.context.error);
  const notice = useSelector(page, (s) => s.context.notice);
  const loading = useSelector(page, (s) => s.matches('loading'));
  const failed = useSelector(page, (s) => s.matches('failed'));
  const busy = useSelector(page, (s) => s.hasTag('busy'));
  const paying = useSelector(page, (s) => (s.matches('paying') || s.matches('marking') ? s.context.paying : null));
  const [shown, setShown] = useState(account === null ? '' : String(account));
  useEffect(() => setShown(account === null ? '' : String(account)), [account]);
  const name = answer?.accounts.find((a) => a.id === account)?.name;
  const show = (e: FormEvent) => { e.preventDefault(); page.send({ type: 'invoices.show', account: idOf(shown) }); };
  const toAccounts = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    const { pathname, search } = new URL(e.currentTarget.href);
    navigate(pathname + search);
  };
  const invoice = paying === null ? undefined : answer?.invoices.find((i) => i.number === paying);
  const fieldErrors = useSelector(page, (s) => s.context.fieldErrors);
  return (
    <section className="op-page ac-page" aria-labelledby="iv-title">
      <p className="op-back">
        <a href={`${pathOfScreen('operatorAccounts')}${account === null ? '' : `?id=${account}`}`} onClick={toAccounts}>← {name ?? 'Accounts'}</a>
      </p>
      <div className="op-page-head"><h1 id="iv-title" tabIndex={-1}>{name ? `Invoices of ${name}` : 'Invoices'}</h1></div>
      <p className="op-muted ac-intro">
        Each account&apos;s invoice for the month before, issued on the first of the month and e-mailed to its billing address: its completed and no-show
        journeys, with the credit and debit notes carried onto it.
      </p>
      <div aria-live="polite">{notice && <p className="banner-ok">{notice}</p>}</div>
      {error && paying === null && <p className="banner-error" role="alert">{error.message}</p>}
      {/* A day paid refused when no window is open (marked unpaid): said above the list. */}
      {fieldErrors.paid_on && paying === null && <p className="banner-error" role="alert">{fieldErrors.paid_on}</p>}
      {(answer || failed) && (
        <form className="op-filters iv-filters" onSubmit={show} aria-label="Invoices to show">
          <div className="field">
            <label htmlFor="iv-account">Account</label>
            <select id="iv-account" value={shown} onChange={(e) => setShown(e.target.value)}>
              <option value="">All accounts</option>
              {(answer?.accounts ?? []).map((a) => <option key={a.id} value={String(a.id)}>{a.name}</option>)}
            </select>
          </div>
          <button type="submit" className="btn op-search-button" disabled={loading || busy}>Show</button>
        </form>
      )}
      {failed && <p><button type="button" className="btn btn-secondary" onClick={() => page.send({ type: 'retry' })}>Try again</button></p>}
      {loading && <p className="op-count" role="status">Loading the invoices...</p>}
      {answer && !loading && <Rows page={page} rows={answer.invoices} mayBill={answer.may_bill} />}
      {answer?.may_bill && <IssueForm page={page} />}
      {invoice && <PaidDialog page={page} invoice={invoice} />}
    </section>
  );
}

function Rows({ page, rows, mayBill }: { page: Page; rows: InvoiceRow[]; mayBill: boolean }) {
  const busy = useSelector(page, (s) => s.hasTag('busy'));
  if (!rows.length) return <p className="op-count">No invoices here yet.</p>;
  const download = (document: string) => page.send({ type: 'invoices.download', document });
  return (
    <>
      <p className="op-count">{rows.length} invoice{rows.length === 1 ? '' : 's'}</p>
      <table className="op-table iv-table">
        <caption className="sr-only">Invoices</caption>
        <thead>
          <tr><th scope="col">Invoice</th><th scope="col">Account</th><th scope="col">Month</th><th scope="col">Issued</th><th scope="col">Due</th>
            <th scope="col">Status</th><th scope="col">Journeys</th><th scope="col">Total</th><th scope="col">Amount due</th><th scope="col">Notes</th></tr>
        </thead>
        <tbody>
          {rows.map((i) => (
            <tr key={i.number}>
              <td data-label="Invoice"><div>
                <strong>{i.label}</strong>
                <div className="op-row-buttons">
                  <button type="button" className="btn btn-secondary op-small" disabled={busy} aria-label={`Download ${i.label} (PDF)`} onClick={() => download(i.label)}>PDF</button>
                  {mayBill && i.paid_on === null && (
                    <button type="button" className="btn btn-primary op-small" disabled={busy} aria-label={`Mark ${i.label} paid`}
                      onClick={() => page.send({ type: 'invoices.pay', number: i.number })}>Mark paid</button>
                  )}
                  {mayBill && i.paid_on !== null && (
                    <button type="button" className="btn btn-secondary op-small" disabled={busy} aria-label={`Mark ${i.label} unpaid`}
                      onClick={() => page.send({ type: 'invoices.unpay', number: i.number })}>Mark unpaid</button>
                  )}
                </div>
              </div></td>
              <td data-label="Account">{i.account_name}</td>
              <td data-label="Month">{i.month}</td>
              <td data-label="Issued">{formatDateLong(i.issued_on)}</td>
              <td data-label="Due">{formatDateLong(i.due_on)}</td>
              <td data-label="Status"><div>
                <span className={`op-status iv-${i.status}`}>{i.status_label}</span>
                {i.paid_on && <><br /><span className="op-muted">on {formatDateLong(i.paid_on)}{i.paid_by ? `, by ${i.paid_by}` : ''}</span></>}
              </div></td>
              <td data-label="Journeys">{i.journeys}</td>
              <td data-label="Total"><span className="op-amount">{pounds(i.gross)}</span></td>
              <td data-label="Amount due"><strong className="op-amount">{pounds(i.amount_due)}</strong></td>
              <td data-label="Notes">
                {i.notes.length === 0 ? <span className="op-muted">None</span> : (
                  <ul className="iv-notes">
                    {i.notes.map((n) => (
                      <li key={n.label}>
                        <button type="button" className="btn-link" disabled={busy} aria-label={`Download ${n.label} (PDF)`} onClick={() => download(n.label)}>{n.label}</button>
                        {' '}{n.kind === 'credit' ? 'credit' : 'debit'} {pounds(n.amount)}, {n.booking_number}
                        {n.carried ? `, from ${n.invoice}` : ', carried onto the next invoice'}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** "Mark paid": the day it was paid, today unless changed (never a day to come). */
function PaidDialog({ page, invoice }: { page: Page; invoice: InvoiceRow }) {
  const fieldErrors = useSelector(page, (s) => s.context.fieldErrors);
  const error = useSelector(page, (s) => s.context.error);
  const marking = useSelector(page, (s) => s.matches('marking'));
  const [paidOn, setPaidOn] = useState(() => ukToday());
  const close = () => page.send({ type: 'invoices.cancel' });
  const submit = (e: FormEvent) => { e.preventDefault(); page.send({ type: 'invoices.paid', paid_on: paidOn }); };
  return (
    <ConfirmDialog title={`Mark ${invoice.label} paid`} onClose={close}>
      <p>{invoice.account_name}, {invoice.month}: <strong>{pounds(invoice.amount_due)}</strong> due.</p>
      <form className="op-form" onSubmit={submit} noValidate aria-label="The day it was paid">
        <Input id="iv-paid_on" label="Paid on" type="date" value={paidOn} onChange={setPaidOn} error={fieldErrors.paid_on} required />
        {error && <p className="banner-error" role="alert">{error.message}</p>}
        <div className="op-dialog-buttons">
          <button type="submit" className="btn btn-primary" disabled={marking} aria-busy={marking || undefined}>{marking ? 'Saving...' : 'Mark paid'}</button>
          <button type="button" className="btn btn-secondary" onClick={close} disabled={marking}>Go back</button>
        </div>
      </form>
    </ConfirmDialog>
  );
}

/** "Issue invoices now": a month that is over (the month before by default), for every account or one. */
function IssueForm({ page }: { page: Page }) {
  const lastMonth = useSelector(page, (s) => s.context.answer?.last_month ?? '');
  const accounts = useSelector(page, (s) => s.context.answer?.accounts ?? []);
  const shownAccount = useSelector(page, (s) => s.context.account);
  const fieldErrors = useSelector(page, (s) => s.context.fieldErrors);
  const issuing = useSelector(page, (s) => s.matches('issuing'));
  const busy = useSelector(page, (s) => s.hasTag('busy') || s.matches('loading'));
  const [month, setMonth] = useState(lastMonth);
  const [account, setAccount] = useState(shownAccount === null ? '' : String(shownAccount));
  const submit = (e: FormEvent) => { e.preventDefault(); page.send({ type: 'invoices.issue', month, account: idOf(account) }); };
  return (
    <section className="op-card" aria-labelledby="iv-issue-title">
      <h2 id="iv-issue-title">Issue invoices now</h2>
      <p className="op-muted">The server issues them on the first of each month. Each account&apos;s invoice is issued once: what is invoiced already is left as it is.</p>
      <form className="iv-issue" onSubmit={submit} noValidate aria-label="Issue invoices now">
        <Input id="iv-month" label="Month" type="month" value={month} onChange={setMonth} error={fieldErrors.month} hint="A month that is over." required />
        <div className="field">
          <label htmlFor="iv-issue-account">Account</label>
          <select id="iv-issue-account" value={account} onChange={(e) => setAccount(e.target.value)}
            aria-invalid={fieldErrors.account_id ? true : undefined} aria-describedby={fieldErrors.account_id ? 'iv-issue-account-error' : undefined}>
            <option value="">Every account</option>
            {accounts.map((a) => <option key={a.id} value={String(a.id)}>{a.name}</option>)}
          </select>
          {fieldErrors.account_id && <p className="field-error" id="iv-issue-account-error">{fieldErrors.account_id}</p>}
        </div>
        <button type="submit" className="btn btn-primary op-search-button" disabled={busy} aria-busy={issuing || undefined}>{issuing ? 'Issuing...' : 'Issue invoices'}</button>
      </form>
    </section>
  );
}
