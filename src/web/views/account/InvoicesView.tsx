// Invoices (issue 44 §3, machines/accountInvoices.ts): the booker's company account's monthly invoices, newest first,
// each with its month, dates, status, journeys and amounts, and the credit and debit notes carried onto it or issued
// against it; each downloads as a PDF. A booker of no company account is told that invoices are for company accounts.
import { useSelector } from '@xstate/react';
import type { invoicesMachine } from '../../../../machines/accountInvoices';
import { noteTitle, type InvoiceNote, type InvoiceSummary } from '../../../domain/expenses';
import { formatExactPrice } from '../../../domain/money';
import { formatDateLong } from '../../../domain/ukTime';
import { useSettings } from '../../appActor';
import { RouteLink } from '../../components/RouteLink';
import { AccountNotice, useAccountPage } from './pageActor';
import { invoicesPage } from './livePages';
import '../../screens.css';

type InvoicesRef = NonNullable<ReturnType<typeof useAccountPage<typeof invoicesMachine>>>;

export function InvoicesView() {
  const page = useAccountPage('invoices', invoicesPage);
  return (
    <div className="account-page">
      <div className="account-head">
        <div>
          <h1>Invoices</h1>
          <p className="muted account-sub">Your company account&apos;s monthly invoices, with their credit and debit notes.</p>
        </div>
      </div>
      <AccountNotice />
      {page ? <Invoices page={page} /> : <Loading />}
    </div>
  );
}

function Loading() {
  return (
    <div className="account-loading" role="status" aria-live="polite">
      <span className="spinner spinner-small" aria-hidden="true" /> Loading your invoices...
    </div>
  );
}

function Invoices({ page }: { page: InvoicesRef }) {
  const answer = useSelector(page, (s) => s.context.answer);
  const error = useSelector(page, (s) => s.context.error);
  const notice = useSelector(page, (s) => s.context.notice);
  const loading = useSelector(page, (s) => s.matches('loading'));
  const failed = useSelector(page, (s) => s.matches('failed'));
  const settings = useSettings();
  const phone = settings.Company_Contact_Info;

  if (loading) return <Loading />;
  if (failed) {
    return (
      <div className="account-failed panel" role="alert">
        <p><strong>We could not load your invoices.</strong> {error?.message}</p>
        <p><button type="button" className="btn btn-secondary" onClick={() => page.send({ type: 'invoices.retry' })}>Try again</button></p>
      </div>
    );
  }
  if (!answer) return null;
  if (!answer.account) {
    return (
      <div className="account-empty panel">
        <h2>Invoices are for company accounts</h2>
        <p className="muted">
          Your sign-in does not belong to a company account, so there are no invoices to show: each journey you book is paid
          on its own, and its receipt is on the booking&apos;s page.
          {phone && <> To open an account for your company, call us on <span className="nowrap">{phone}</span>.</>}
        </p>
        <RouteLink to="bookings" className="btn btn-secondary">Back to your bookings</RouteLink>
      </div>
    );
  }
  return (
    <>
      {notice && <p className="banner-ok" role="status">{notice}</p>}
      {error && <p className="banner-error" role="alert">{error.message}</p>}
      {answer.invoices.length === 0 ? (
        <div className="account-empty panel">
          <h2>No invoices yet</h2>
          <p className="muted">
            {answer.account.name}&apos;s journeys paid on account are invoiced once a month: each month&apos;s invoice is issued on the first
            day of the next and listed here.
          </p>
        </div>
      ) : (
        <ul className="invoice-list" aria-label={`${answer.account.name}'s invoices, newest first`}>
          {answer.invoices.map((i) => <li key={i.number}><InvoiceCard invoice={i} page={page} /></li>)}
        </ul>
      )}
    </>
  );
}

/** A document's download button: it stays focusable while a file is prepared (aria-disabled), and says which. */
function DownloadButton({ page, document, label }: { page: InvoicesRef; document: string; label: string }) {
  const busy = useSelector(page, (s) => s.context.document);
  return (
    <button type="button" className="btn btn-secondary btn-small" aria-disabled={busy !== null || undefined}
      onClick={() => page.send({ type: 'invoices.download', document })}>
      {busy === document ? `Preparing ${document}...` : label}
    </button>
  );
}

function InvoiceCard({ invoice: i, page }: { invoice: InvoiceSummary; page: InvoicesRef }) {
  const titleId = `invoice-${i.label}`;
  const discounted = i.amount_due !== i.gross;
  return (
    <article className="invoice-card panel" aria-labelledby={titleId}>
      <header className="invoice-head">
        <div>
          <h2 id={titleId} className="invoice-title">Invoice {i.label}</h2>
          <p className="invoice-month">{i.month}</p>
        </div>
        <span className={`invoice-status invoice-${i.status}`}>{i.status_label}</span>
      </header>
      <dl className="detail-grid invoice-facts">
        <div className="detail-item"><dt>Issued</dt><dd>{formatDateLong(i.issued_on)}</dd></div>
        <div className="detail-item"><dt>{i.paid_on ? 'Paid' : 'Due by'}</dt><dd>{formatDateLong(i.paid_on ?? i.due_on)}</dd></div>
        <div className="detail-item"><dt>Journeys</dt><dd>{i.journeys}</dd></div>
        <div className="detail-item"><dt>Total</dt><dd>{formatExactPrice(i.gross)}</dd></div>
        <div className="detail-item"><dt>Amount due</dt><dd className="invoice-amount-due">{formatExactPrice(i.amount_due)}{discounted && <span className="muted"> with the notes carried onto it</span>}</dd></div>
      </dl>
      <div className="invoice-actions">
        <DownloadButton page={page} document={i.label} label={`Download ${i.label} (PDF)`} />
      </div>
      {i.notes.length > 0 && (
        <section className="invoice-notes" aria-label={`Notes of invoice ${i.label}`}>
          <h3>Credit and debit notes</h3>
          <ul>{i.notes.map((n) => <NoteLine key={n.label} note={n} page={page} />)}</ul>
        </section>
      )}
    </article>
  );
}

function NoteLine({ note: n, page }: { note: InvoiceNote; page: InvoicesRef }) {
  const amount = `${n.kind === 'credit' ? '-' : ''}${formatExactPrice(n.amount)}`;
  const where = n.carried ? `against invoice ${n.invoice}, carried onto this one` : 'against this invoice, carried onto the next';
  return (
    <li className="invoice-note">
      <span>
        <strong>{noteTitle(n)} {n.label}</strong>{n.booking_number && <> for <span className="nowrap">{n.booking_number}</span></>}, {where}: <strong className="nowrap">{amount}</strong>
      </span>
      <DownloadButton page={page} document={n.label} label={`Download ${n.label} (PDF)`} />
    </li>
  );
}
