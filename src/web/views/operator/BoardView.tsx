// The bookings board (issue 26): tabs Today, Upcoming, Past, Awaiting payment, Cancelled; search by reference,
// name, phone or e-mail; filters by company, vehicle type and status. New bookings load in place while it is open
// and stay marked "New" until "Show new bookings" is pressed. A cancelled card booking with money left to give back
// is marked "Refund due" (refundDue, decision 50), for a company's staff too, though only the office refunds it.
// Every job's driver status shows as it changes (issue 41 §5: the machine loads the board again on each change), with
// the alerts of src/domain/tracking.ts boardAlerts, counted again every 30 seconds as the pickups come closer.
import { FlightNote, pickupClock } from '../../components/FlightNote';
import { useEffect, useState, type FormEvent } from 'react';
import { BOARD_TABS, TAB_LABELS, type BoardTab } from '../../../domain/operatorDesk';
import { JOB_STATUS_LABELS, type JobStatus } from '../../../domain/driverJobs';
import { formatPhone } from '../../../domain/phone';
import { DEFAULT_ALERT_MINUTES, boardAlerts, type AlertMinutes, type BoardAlert } from '../../../domain/tracking';
import { pathWith } from '../../../domain/screens';
import { unseenCount, type BoardRow } from '../../../../machines/operator';
import { useOperator, useOperatorRef } from './operatorActor';
import { statusLabel, when, pounds } from './format';

export function BoardView() {
  const actor = useOperatorRef();
  const query = useOperator((s) => s.context.query);
  const board = useOperator((s) => s.context.board);
  const filters = useOperator((s) => s.context.filters);
  const seenId = useOperator((s) => s.context.seenId);
  const unseen = useOperator(unseenCount);
  // Loaded again because a booking changed: in place, with no word (machines/operator.ts `quiet`).
  const loading = useOperator((s) => s.matches({ signedIn: { board: 'loading' } }) && !s.context.quiet);
  const failed = useOperator((s) => s.matches({ signedIn: { board: 'failed' } }));
  const error = useOperator((s) => s.context.error?.message ?? null);
  const now = useNow(ALERT_TICK_MS);
  const minutes = board?.alert_minutes ?? DEFAULT_ALERT_MINUTES;
  const alerts = new Map((board?.rows ?? []).map((r) => [r.id, alertsOf(r, now, minutes)]));
  const alerting = [...alerts.values()].filter((a) => a.length > 0).length;
  const [search, setSearch] = useState(query.q);
  useEffect(() => setSearch(query.q), [query.q]);
  const choose = (tab: BoardTab) => actor.send({ type: 'board.query', query: { tab } });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'board.query', query: { q: search.trim() } });
  };

  return (
    <section aria-labelledby="board-title" className="op-page">
      <div className="op-page-head">
        <h1 id="board-title" tabIndex={-1}>Bookings</h1>
        {unseen > 0 && (
          <button type="button" className="btn op-new" onClick={() => actor.send({ type: 'board.showNew' })}>
            Show {unseen} new {unseen === 1 ? 'booking' : 'bookings'}
          </button>
        )}
      </div>
      <div className="op-tabs" role="group" aria-label="Which bookings">
        {BOARD_TABS.map((tab) => (
          <button key={tab} type="button" className="op-tab" aria-pressed={query.tab === tab} onClick={() => choose(tab)}>{TAB_LABELS[tab]}</button>
        ))}
      </div>
      <form className="op-filters" role="search" onSubmit={submit} aria-label="Find bookings">
        <div className="field op-search">
          <label htmlFor="op-q">Search</label>
          <input id="op-q" type="search" value={search} onChange={(e) => setSearch(e.target.value)}
            placeholder="Reference, name, phone or e-mail" aria-describedby="op-q-hint" />
          <p id="op-q-hint" className="sr-only">Press Enter to search</p>
        </div>
        <Select label="Company" id="op-company" value={query.company} onChange={(company) => actor.send({ type: 'board.query', query: { company } })}
          options={(filters?.companies ?? []).map((c) => [String(c.id), c.company_name])} />
        <Select label="Vehicle" id="op-vehicle" value={query.vehicle} onChange={(vehicle) => actor.send({ type: 'board.query', query: { vehicle } })}
          options={(filters?.vehicles ?? []).map((v) => [String(v.id), v.category_name])} />
        <Select label="Status" id="op-status" value={query.status} onChange={(status) => actor.send({ type: 'board.query', query: { status } })}
          options={(filters?.statuses ?? []).map((s) => [s.value, s.label])} />
        <button type="submit" className="btn btn-primary op-search-button">Search</button>
      </form>
      {failed && (
        <p className="banner-error" role="alert">{error} <button type="button" className="btn-link" onClick={() => actor.send({ type: 'retry' })}>Try again</button></p>
      )}
      <div aria-live="polite" className="op-count">
        {board && !loading && (board.total === 0 ? 'No bookings here.'
          : `${board.total} ${board.total === 1 ? 'booking' : 'bookings'}${board.total > board.rows.length ? `, the first ${board.rows.length} shown` : ''}`)}
        {loading && 'Loading bookings...'}
        {board && !loading && alerting > 0 && <strong className="op-alert-count">{` · ${alerting} ${alerting === 1 ? 'job needs' : 'jobs need'} attention`}</strong>}
      </div>
      {board && board.rows.length > 0 && (
        <table className="op-table" aria-busy={loading || undefined}>
          <caption className="sr-only">{TAB_LABELS[query.tab]} bookings</caption>
          <thead>
            <tr><th scope="col">Reference</th><th scope="col">Pickup</th><th scope="col">Journey</th><th scope="col">Passenger</th><th scope="col">Vehicle</th><th scope="col">Status</th><th scope="col">Total</th></tr>
          </thead>
          <tbody>
            {board.rows.map((r) => <Row key={r.id} row={r} isNew={seenId !== null && r.id > seenId} alerts={alerts.get(r.id) ?? []} />)}
          </tbody>
        </table>
      )}
    </section>
  );
}

const ALERT_TICK_MS = 30_000;

/** The time now, again every `ms`: the alerts count from it. */
function useNow(ms: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

const alertsOf = (r: BoardRow, now: Date, minutes: AlertMinutes): BoardAlert[] => (r.pickup_at ? boardAlerts({
  bookingStatus: r.status, pickupAt: r.pickup_at, hasDriver: Boolean(r.driver_name), jobStatus: r.job_status ?? null, dispatchedAt: r.dispatched_at ?? null,
  flightStatus: r.flight?.status ?? null,
}, now, minutes) : []);

function Row({ row, isNew, alerts }: { row: BoardRow; isNew: boolean; alerts: BoardAlert[] }) {
  const actor = useOperatorRef();
  const href = pathWith('operatorBooking', { reference: row.booking_number });
  return (
    <tr className={[isNew && 'op-row-new', alerts.length > 0 && 'op-row-alert'].filter(Boolean).join(' ') || undefined}>
      <td data-label="Reference"><div>
        <a href={href} onClick={(e) => {
          if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
          e.preventDefault();
          actor.send({ type: 'open', reference: row.booking_number });
        }}>{row.booking_number}</a>
        {isNew && <span className="op-new-tag">New</span>}
      </div></td>
      <td data-label="Pickup"><div>
        {when(row.pick_up_date, row.flight ? pickupClock(row.flight) : row.pick_up_time)}
        {row.flight && <FlightNote flight={row.flight} compact />}
      </div></td>
      <td data-label="Journey"><div>{row.pick_up_address}{row.drop_off_address ? <><span aria-hidden="true"> → </span><span className="sr-only"> to </span>{row.drop_off_address}</> : ' (hourly)'}</div></td>
      <td data-label="Passenger"><div>{row.passenger_name}<br /><span className="muted">{formatPhone(row.passenger_contact_no)}</span></div></td>
      <td data-label="Vehicle"><div>{row.category_name}<br /><span className="muted">{row.company_name}</span></div></td>
      <td data-label="Status"><div>
        <span className={`op-status op-status-${row.status}`}>{statusLabel(row.status)}</span>
        {row.refund_due && <><br /><span className="op-due-tag">Refund due</span></>}
        {row.driver_name && <><br /><span className="muted">Driver: {row.driver_name}{row.job_status && row.job_status !== 'declined' ? ` · ${JOB_STATUS_LABELS[row.job_status as JobStatus] ?? row.job_status}` : ''}</span></>}
        {!row.driver_name && row.job_status === 'declined' && row.status === 'confirmed' && <><br /><span className="op-due-tag">Declined by {row.declined_by}: needs a driver</span></>}
        {alerts.map((a) => <span key={a.kind} className="op-alert"><span className="sr-only">Alert: </span>{a.words}</span>)}
      </div></td>
      <td data-label="Total"><div><span className="op-amount">{pounds(row.total)}</span><br /><span className="muted">{row.payment_method === 'card' ? 'Card' : 'In the car'}</span></div></td>
    </tr>
  );
}

function Select({ label, id, value, onChange, options }: { label: string; id: string; value: string; onChange: (v: string) => void; options: [string, string][] }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">All</option>
        {options.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
      </select>
    </div>
  );
}
