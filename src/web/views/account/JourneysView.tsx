// Journeys and expenses (issue 44 §3, machines/accountJourneys.ts): the booker's own journeys filtered by pickup date
// and by a value of one of their company account's fields, with each journey's payment, status, amount, fields and
// invoice, and the same list as a CSV file for an expenses claim. Beside the SPEC's Bookings table, never instead of it.
import { useState, type FormEvent, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { journeysMachine } from '../../../../machines/accountJourneys';
import {
  fieldColumns, isNoFilter, journeyDestination, journeyField, journeyInvoice, journeyPayment, journeyStatus, NO_FILTER,
  type JourneyFilter, type JourneysAnswer,
} from '../../../domain/expenses';
import { formatDateUK, formatTime12 } from '../../../domain/ukTime';
import { AccountNotice, useAccountPage } from './pageActor';
import { journeysPage } from './livePages';
import { formatExactPrice } from '../../../domain/money';
import '../../screens.css';

type JourneysRef = NonNullable<ReturnType<typeof useAccountPage<typeof journeysMachine>>>;

export function JourneysView() {
  const page = useAccountPage('journeys', journeysPage);
  return (
    <div className="account-page">
      <div className="account-head">
        <div>
          <h1>Journeys and expenses</h1>
          <p className="muted account-sub">Find your journeys by date or by your company&apos;s references, and download them for an expenses claim.</p>
        </div>
      </div>
      <AccountNotice />
      {page ? <Journeys page={page} /> : <Loading />}
    </div>
  );
}

function Loading() {
  return (
    <div className="account-loading" role="status" aria-live="polite">
      <span className="spinner spinner-small" aria-hidden="true" /> Loading your journeys...
    </div>
  );
}

const FILTER_FIELDS = ['from', 'to', 'field', 'value'];

function Journeys({ page }: { page: JourneysRef }) {
  const answer = useSelector(page, (s) => s.context.answer);
  const shown = useSelector(page, (s) => s.context.shown);
  const error = useSelector(page, (s) => s.context.error);
  const notice = useSelector(page, (s) => s.context.notice);
  const loading = useSelector(page, (s) => s.matches('loading'));
  const failed = useSelector(page, (s) => s.matches('failed'));
  const downloading = useSelector(page, (s) => s.matches('downloading'));
  const canFilter = useSelector(page, (s) => s.can({ type: 'journeys.filter', ...NO_FILTER }));
  const canDownload = useSelector(page, (s) => s.can({ type: 'journeys.csv' }));
  const [typed, setTyped] = useState<JourneyFilter>(() => page.getSnapshot().context.asked);
  const fieldError = error?.field && FILTER_FIELDS.includes(error.field) ? error : null;
  const fields = answer?.fields ?? [];

  const submit = (e: FormEvent) => {
    e.preventDefault();
    page.send({ type: 'journeys.filter', ...typed });
  };
  // Clear shows every journey again (and asks for them afresh).
  const clear = () => {
    setTyped(NO_FILTER);
    page.send({ type: 'journeys.filter', ...NO_FILTER });
  };
  const set = (name: keyof JourneyFilter) => (e: { target: { value: string } }) => setTyped((t) => ({ ...t, [name]: e.target.value }));
  const a11y = (name: keyof JourneyFilter) => (fieldError?.field === name
    ? { 'aria-invalid': true, 'aria-describedby': `journeys-${name}-error` } : {});
  const problem = (name: keyof JourneyFilter) => fieldError?.field === name
    && <p className="field-error" id={`journeys-${name}-error`}>{fieldError.message}</p>;

  return (
    <>
      <form className="panel journeys-filter" onSubmit={submit} noValidate aria-label="Filter journeys">
        <div className="journeys-filter-fields">
          <div className="field">
            <label htmlFor="journeys-from">From</label>
            <input id="journeys-from" type="date" value={typed.from} onChange={set('from')} {...a11y('from')} />
            {problem('from')}
          </div>
          <div className="field">
            <label htmlFor="journeys-to">To</label>
            <input id="journeys-to" type="date" value={typed.to} onChange={set('to')} {...a11y('to')} />
            {problem('to')}
          </div>
          {fields.length > 0 && (
            <>
              <div className="field">
                <label htmlFor="journeys-field">Field</label>
                <select id="journeys-field" value={typed.field} onChange={set('field')} {...a11y('field')}>
                  <option value="">Any field</option>
                  {fields.map((f) => <option key={f} value={f}>{f}</option>)}
                </select>
                {problem('field')}
              </div>
              <div className="field">
                <label htmlFor="journeys-value">Value</label>
                <input id="journeys-value" type="text" value={typed.value} onChange={set('value')} maxLength={80}
                  placeholder={typed.field ? `A ${typed.field}, or part of it` : 'Choose a field first'} {...a11y('value')} />
                {problem('value')}
              </div>
            </>
          )}
        </div>
        <div className="journeys-filter-actions">
          <button type="submit" className="btn btn-primary" disabled={!canFilter}>Show journeys</button>
          <button type="button" className="btn btn-secondary" disabled={!canFilter} onClick={clear}>Clear</button>
        </div>
      </form>
      {notice && <p className="banner-ok" role="status">{notice}</p>}
      {error && !fieldError && (
        <div className={failed ? 'account-failed panel' : 'banner-error'} role="alert">
          {failed ? <p><strong>We could not load your journeys.</strong> {error.message}</p> : error.message}
          {failed && (
            <p><button type="button" className="btn btn-secondary" onClick={() => page.send({ type: 'journeys.retry' })}>Try again</button></p>
          )}
        </div>
      )}
      {loading && <Loading />}
      {!loading && !failed && answer && (
        <JourneyList answer={answer} filtered={!isNoFilter(shown)}
          csv={(canDownload || downloading) && (
            <button type="button" className="btn btn-secondary" disabled={!canDownload} aria-busy={downloading || undefined}
              onClick={() => page.send({ type: 'journeys.csv' })}>
              {downloading ? 'Preparing CSV...' : 'Download CSV'}
            </button>
          )} />
      )}
    </>
  );
}

function JourneyList({ answer, filtered, csv }: { answer: JourneysAnswer; filtered: boolean; csv: ReactNode }) {
  const columns = fieldColumns(answer);
  const count = answer.journeys.length;
  if (count === 0) {
    return (
      <div className="account-empty panel">
        <h2>{filtered ? 'No journeys match this filter' : 'No journeys yet'}</h2>
        <p className="muted">{filtered ? 'Try other dates, or another value.' : 'Journeys you book will appear here, with their references.'}</p>
      </div>
    );
  }
  return (
    <>
      <div className="journeys-summary">
        <p className="journeys-count" role="status">{count === 1 ? '1 journey' : `${count} journeys`}{filtered ? ` ${count === 1 ? 'matches' : 'match'} this filter` : ''}, newest first.</p>
        {csv}
      </div>
      <div className="bookings-scroll" role="region" aria-labelledby="journeys-caption" tabIndex={0}>
        <table className="bookings-table journeys-table" role="table">
          <caption id="journeys-caption" className="sr-only">Your journeys, newest first</caption>
          <thead role="rowgroup">
            <tr role="row">
              {['Booking Number', 'Date and time', 'Journey', 'Passenger and vehicle', 'Payment and status', 'Amount', 'References', 'Invoice']
                .map((c) => <th key={c} scope="col" role="columnheader">{c}</th>)}
            </tr>
          </thead>
          <tbody role="rowgroup">
            {answer.journeys.map((j) => (
              <tr key={j.booking_number} role="row">
                <th scope="row" role="rowheader" className="bookings-number">{j.booking_number}</th>
                <td role="cell" data-label="Date and time" className="nowrap">
                  {formatDateUK(j.pick_up_date)}<span className="journey-second">{formatTime12(j.pick_up_time)}</span>
                </td>
                <td role="cell" data-label="Journey" className="bookings-address journey-route">
                  {j.pickup}
                  <span className="journey-second">
                    {j.dropoff ? <><span className="muted">to </span>{j.dropoff}</> : <span className="muted">{journeyDestination(j) || 'As directed'}</span>}
                  </span>
                </td>
                <td role="cell" data-label="Passenger and vehicle">{j.passenger}<span className="journey-second muted">{j.vehicle}</span></td>
                <td role="cell" data-label="Payment and status">
                  {journeyPayment(j)}<span className={`journey-second journey-status journey-${j.status}`}>{journeyStatus(j)}</span>
                </td>
                <td role="cell" data-label="Amount" className="bookings-amount">{formatExactPrice(j.amount)}</td>
                <td role="cell" data-label="References">
                  {columns.some((c) => journeyField(j, c)) ? (
                    <dl className="journey-fields">
                      {columns.filter((c) => journeyField(j, c)).map((c) => (
                        <div key={c}><dt>{c}</dt><dd>{journeyField(j, c)}</dd></div>
                      ))}
                    </dl>
                  ) : <span className="muted">None</span>}
                </td>
                <td role="cell" data-label="Invoice" className="nowrap">{journeyInvoice(j) || <span className="muted">None</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
