// The console's Accounts page (issue 44 §1), run by machines/operatorAccounts.ts: the corporate accounts (status and
// why, credit limit, what each owes and has booked, terms, bookers), one account with its form, its booking fields and
// its bookers, and a new account's form (./AccountForms.tsx). What may be sent is the machine's to say (the domain's
// rules); a refusal shows under its field, what was typed kept.
import type { MouseEvent } from 'react';
import { useSelector } from '@xstate/react';
import { useLocation } from 'wouter';
import type { accountsMachine, AccountRow } from '../../../../machines/operatorAccounts';
import { ACCOUNT_STATUS_LABELS } from '../../../domain/accounts';
import { pathOfScreen } from '../../../domain/screens';
import { LoadingOverlay } from '../../components/LoadingOverlay';
import { usePage } from './operatorActor';
import { AccountForm, BookersCard, FieldsCard, type AccountsPage } from './AccountForms';
import { pounds } from './format';
import './accounts.css';

export function AccountsView() {
  const page = usePage<typeof accountsMachine>();
  if (!page) return <LoadingOverlay text="Opening the accounts" />;
  return <Accounts page={page} />;
}

/** A link to another page of the console, followed by the console (a new tab where the person asks for one). */
function useFollow() {
  const [, navigate] = useLocation();
  return (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    const { pathname, search } = new URL(e.currentTarget.href);
    navigate(pathname + search);
  };
}

function Accounts({ page }: { page: AccountsPage }) {
  const answer = useSelector(page, (s) => s.context.answer);
  const id = useSelector(page, (s) => s.context.id);
  const creating = useSelector(page, (s) => s.context.creating);
  const failed = useSelector(page, (s) => s.matches('failed'));
  const loading = useSelector(page, (s) => s.matches('loading'));
  const error = useSelector(page, (s) => s.context.error);
  const notice = useSelector(page, (s) => s.context.notice);
  const account = id === null ? undefined : answer?.accounts.find((a) => a.id === id);
  // The accounts on their way (a new account's among them): nothing shown yet, rather than the list for a moment.
  const waiting = !failed && (!answer || (loading && id !== null && !account));
  return (
    <section className="op-page ac-page" aria-labelledby="ac-title">
      <div aria-live="polite">{notice && <p className="banner-ok">{notice}</p>}</div>
      {error && <p className="banner-error" role="alert">{error.message}</p>}
      {failed && (
        <>
          <h1 id="ac-title" tabIndex={-1}>Accounts</h1>
          <p><button type="button" className="btn btn-secondary" onClick={() => page.send({ type: 'retry' })}>Try again</button></p>
        </>
      )}
      {waiting && <><h1 id="ac-title" tabIndex={-1}>Accounts</h1><p className="op-count" role="status">Loading the accounts...</p></>}
      {!waiting && answer && account && <Account page={page} account={account} />}
      {!waiting && answer && !account && creating && <NewAccount page={page} />}
      {!waiting && answer && !account && !creating && <List page={page} accounts={answer.accounts} />}
    </section>
  );
}

function List({ page, accounts }: { page: AccountsPage; accounts: AccountRow[] }) {
  const follow = useFollow();
  const open = (e: MouseEvent<HTMLAnchorElement>, id: number) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    page.send({ type: 'accounts.open', id });
  };
  return (
    <>
      <div className="op-page-head ac-head">
        <h1 id="ac-title" tabIndex={-1}>Accounts</h1>
        <div className="op-row-buttons">
          <a className="btn btn-secondary" href={pathOfScreen('operatorInvoices')} onClick={follow}>Invoices</a>
          <button type="button" className="btn btn-primary" onClick={() => page.send({ type: 'accounts.new' })}>New account</button>
        </div>
      </div>
      <p className="op-muted ac-intro">
        Companies that book on account and pay monthly on one invoice. Their bookers are passengers with a sign-in; a suspended or closed account&apos;s
        bookers are shown the reason, and pay another way.
      </p>
      {accounts.length === 0 ? <p className="op-count">No accounts yet.</p> : (
        <table className="op-table ac-table">
          <caption className="sr-only">Accounts</caption>
          <thead>
            <tr><th scope="col">Account</th><th scope="col">Status</th><th scope="col">Credit limit</th><th scope="col">Owed and booked</th>
              <th scope="col">Terms</th><th scope="col">Bookers</th></tr>
          </thead>
          <tbody>
            {accounts.map((a) => (
              <tr key={a.id}>
                <td data-label="Account"><div>
                  <a href={`${pathOfScreen('operatorAccounts')}?id=${a.id}`} onClick={(e) => open(e, a.id)}>{a.name}</a>
                  {a.company_name && <><br /><span className="op-muted">Looked after by {a.company_name}</span></>}
                </div></td>
                <td data-label="Status"><div><StatusBadge account={a} />{a.status_reason && <><br /><span className="op-muted">{a.status_reason}</span></>}</div></td>
                <td data-label="Credit limit"><span className="op-amount">{pounds(a.credit_limit)}</span></td>
                <td data-label="Owed and booked"><Exposure account={a} /></td>
                <td data-label="Terms">{a.terms_days} days</td>
                <td data-label="Bookers">{a.bookers.length}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function StatusBadge({ account }: { account: AccountRow }) {
  return <span className={`op-status ac-${account.status}`}>{ACCOUNT_STATUS_LABELS[account.status]}</span>;
}

/** What the account owes and has booked, marked when it is past the credit limit. */
function Exposure({ account }: { account: AccountRow }) {
  const over = Number(account.exposure) > Number(account.credit_limit);
  return <span className={over ? 'op-amount ac-over' : 'op-amount'}>{pounds(account.exposure)}{over && <span className="ac-over-tag"> over the limit</span>}</span>;
}

function Back({ page }: { page: AccountsPage }) {
  // Not while a change is on its way: its answer is waited for.
  const busy = useSelector(page, (s) => s.hasTag('busy'));
  return <p className="op-back"><button type="button" className="btn-link" disabled={busy} onClick={() => page.send({ type: 'accounts.back' })}>← Accounts</button></p>;
}

function NewAccount({ page }: { page: AccountsPage }) {
  return (
    <>
      <Back page={page} />
      <div className="op-page-head"><h1 id="ac-title" tabIndex={-1}>New account</h1></div>
      <section className="op-card" aria-labelledby="ac-details"><h2 id="ac-details">The account</h2><AccountForm page={page} account={null} /></section>
    </>
  );
}

function Account({ page, account }: { page: AccountsPage; account: AccountRow }) {
  const follow = useFollow();
  return (
    <>
      <Back page={page} />
      <div className="op-page-head ac-head">
        <h1 id="ac-title" tabIndex={-1}>{account.name}</h1>
        <StatusBadge account={account} />
        <a className="btn btn-secondary ac-invoices" href={`${pathOfScreen('operatorInvoices')}?account=${account.id}`} onClick={follow}>Invoices of this account</a>
      </div>
      <div className="op-card">
        <dl className="op-dl">
          <div className="op-dl-row"><dt>Owed and booked</dt><dd><Exposure account={account} /> of {pounds(account.credit_limit)}</dd></div>
          <div className="op-dl-row"><dt>Terms</dt><dd>{account.terms_days} days from the invoice</dd></div>
          {account.status_reason && <div className="op-dl-row"><dt>Bookers are told</dt><dd>{account.status_reason}</dd></div>}
        </dl>
      </div>
      <section className="op-card" aria-labelledby="ac-details"><h2 id="ac-details">The account</h2><AccountForm page={page} account={account} /></section>
      <FieldsCard page={page} account={account} />
      <BookersCard page={page} account={account} />
    </>
  );
}
