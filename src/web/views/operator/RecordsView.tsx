// The booking records (issue 43 §2, machines/operatorRecords.ts): the bookings picked up in a range of UK days, one per
// row, with what the licensing rules ask each to keep. The page prints as the record itself (records.css: the operator's
// name and licence at the top of the first page, one booking per row, page numbers) and downloads as a CSV.
import { useEffect, useState, type FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import type { recordsMachine } from '../../../../machines/operatorRecords';
import { BOOKED_VIA_LABELS, recordDate, type BookingRecord, type RecordsAnswer } from '../../../domain/bookingRecords';
import { pathWith } from '../../../domain/screens';
import { LoadingOverlay } from '../../components/LoadingOverlay';
import { useOperator, useOperatorRef, usePage } from './operatorActor';
import './records.css';


export function RecordsView() {
  const page = usePage<typeof recordsMachine>();
  if (!page) return <LoadingOverlay text="Opening the records" />;
  return <Records page={page} />;
}

function Records({ page }: { page: NonNullable<ReturnType<typeof usePage<typeof recordsMachine>>> }) {
  const range = useSelector(page, (s) => s.context.range);
  const answer = useSelector(page, (s) => s.context.answer);
  const error = useSelector(page, (s) => s.context.error);
  const notice = useSelector(page, (s) => s.context.notice);
  const loading = useSelector(page, (s) => s.matches('loading'));
  const failed = useSelector(page, (s) => s.matches('failed'));
  const downloading = useSelector(page, (s) => s.matches('downloading'));
  const ready = useSelector(page, (s) => s.matches('ready'));
  const staffName = useOperator((s) => s.context.staff?.name ?? '');
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  // The range the server answered (today, when the address named none) fills the form's empty days once known; a
  // day typed meanwhile stays as typed.
  useEffect(() => {
    setFrom((typed) => typed || range.from);
    setTo((typed) => typed || range.to);
  }, [range.from, range.to]);
  const fieldError = error?.field === 'from' || error?.field === 'to' ? error : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    page.send({ type: 'records.show', range: { from, to } });
  };
  return (
    <section className="op-page rec-page" aria-labelledby="records-title">
      <div className="op-page-head rec-screen-only">
        <h1 id="records-title" tabIndex={-1}>Booking records</h1>
      </div>
      <p className="rec-screen-only">
        Every booking picked up in the days chosen, with what the licensing rules ask the operator to keep: when and how it was booked and by whom,
        the passenger, the pickup and destination, the fare, the driver and licence, the vehicle, who dispatched it, and every change since.
      </p>
      <form className="op-form rec-range rec-screen-only" onSubmit={submit} noValidate aria-label="Days to show">
        <div className="field">
          <label htmlFor="rec-from">First day</label>
          <input id="rec-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)}
            aria-invalid={fieldError?.field === 'from' || undefined} aria-describedby={fieldError?.field === 'from' ? 'rec-range-error' : undefined} />
        </div>
        <div className="field">
          <label htmlFor="rec-to">Last day</label>
          <input id="rec-to" type="date" value={to} onChange={(e) => setTo(e.target.value)}
            aria-invalid={fieldError?.field === 'to' || undefined} aria-describedby={fieldError?.field === 'to' ? 'rec-range-error' : undefined} />
        </div>
        <button type="submit" className="btn btn-primary" disabled={loading}>Show</button>
        <div className="rec-actions">
          <button type="button" className="btn" disabled={!ready} onClick={() => window.print()}>Print</button>
          <button type="button" className="btn" disabled={!ready} aria-busy={downloading || undefined} onClick={() => page.send({ type: 'records.csv' })}>
            {downloading ? 'Preparing...' : 'Download CSV'}
          </button>
        </div>
        {fieldError && <p id="rec-range-error" className="field-error rec-range-error" role="alert">{fieldError.message}</p>}
      </form>
      <div aria-live="polite" className="rec-screen-only">{notice && <p className="banner-ok">{notice}</p>}</div>
      {error && !fieldError && <p className="banner-error rec-screen-only" role="alert">{error.message}</p>}
      {failed && <p className="rec-screen-only"><button type="button" className="btn" onClick={() => page.send({ type: 'retry' })}>Try again</button></p>}
      {loading && <p className="op-count" role="status">Loading the records...</p>}
      {answer && !loading && <RecordSheet answer={answer} printedBy={staffName} />}
    </section>
  );
}

function RecordSheet({ answer, printedBy }: { answer: RecordsAnswer; printedBy: string }) {
  const { operator, range, records } = answer;
  const days = range.from === range.to ? recordDate(range.from) : `${recordDate(range.from)} to ${recordDate(range.to)}`;
  return (
    <div className="rec-sheet">
      <header className="rec-head">
        <p className="rec-operator">{operator.name || 'The operator'}</p>
        <p>
          {operator.licence_number ? <>Private hire operator licence <strong>{operator.licence_number}</strong>{operator.licensing_authority && <>, {operator.licensing_authority}</>}</> : <strong>No operator licence number is set (Operator data, Company).</strong>}
          {operator.address && <><br />{operator.address}</>}
        </p>
        <p>Booking records: journeys of {days}{answer.company ? ` carried out by ${answer.company}` : ''}. {records.length} booking{records.length === 1 ? '' : 's'}.
          <span className="rec-print-only"> Printed {new Date().toLocaleString('en-GB', { timeZone: 'Europe/London', dateStyle: 'short', timeStyle: 'short' })}{printedBy && ` by ${printedBy}`}.</span></p>
      </header>
      {answer.more && <p className="banner-error rec-screen-only" role="alert">These days have more bookings than one page shows: only the first {records.length.toLocaleString('en-GB')} are here. Choose fewer days.</p>}
      {records.length === 0
        ? <p className="op-count">No bookings were picked up on these days.</p>
        : (
          <div className="rec-scroll"><table className="op-table rec-table">
            <caption className="sr-only">Booking records, {days}</caption>
            <thead>
              <tr>
                <th scope="col">Booking</th><th scope="col">Booked</th><th scope="col">Passenger</th><th scope="col">Pickup</th>
                <th scope="col">Destination</th><th scope="col">Fare</th><th scope="col">Driver</th><th scope="col">Vehicle</th>
                <th scope="col">Dispatched</th><th scope="col">Company</th><th scope="col">Changes</th>
              </tr>
            </thead>
            <tbody>{records.map((r) => <RecordRow key={r.reference} r={r} />)}</tbody>
          </table></div>
        )}
    </div>
  );
}

function RecordRow({ r }: { r: BookingRecord }) {
  const actor = useOperatorRef();
  const href = pathWith('operatorBooking', { reference: r.reference });
  return (
    <tr>
      <td data-label="Booking"><div>
        <a href={href} onClick={(e) => {
          if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
          e.preventDefault();
          actor.send({ type: 'open', reference: r.reference });
        }}>{r.reference}</a><br /><span className="muted">{r.status}</span>
      </div></td>
      <td data-label="Booked"><div>{r.booked_at}<br /><span className="muted">{BOOKED_VIA_LABELS[r.booked_via]}{r.booked_via === 'phone' && <>, taken by {r.booked_by}</>}</span></div></td>
      <td data-label="Passenger"><div>{r.passenger || <span className="muted">(removed)</span>}<br /><span className="muted">{r.passengers} passenger{r.passengers === 1 ? '' : 's'}</span></div></td>
      <td data-label="Pickup"><div>{r.pickup_date} {r.pickup_time}<br />{r.pickup_place}{r.return_journey && <><br /><span className="muted">Return {r.return_journey}</span></>}</div></td>
      <td data-label="Destination"><div>{r.destination}</div></td>
      <td data-label="Fare"><div>
        Quoted {r.fare_quoted}{r.fare_charged !== r.fare_quoted && <><br />Now {r.fare_charged}</>}
        {r.fare_changes.map((c) => <span key={c} className="rec-note">{c}</span>)}
      </div></td>
      <td data-label="Driver"><div>{r.driver ?? <span className="muted">Not dispatched</span>}{r.driver_licence && <><br /><span className="muted">Licence {r.driver_licence}</span></>}</div></td>
      <td data-label="Vehicle"><div>{r.registration ?? <span className="muted">-</span>}{r.vehicle && <><br /><span className="muted">{r.vehicle}</span></>}<br /><span className="muted">{r.vehicle_type}</span></div></td>
      <td data-label="Dispatched"><div>{r.dispatched_at ?? <span className="muted">-</span>}{r.dispatched_by && <><br /><span className="muted">{r.dispatched_by}</span></>}</div></td>
      <td data-label="Company"><div>{r.company}</div></td>
      <td data-label="Changes"><div>{r.variations.length ? r.variations.map((v) => <span key={v} className="rec-note">{v}</span>) : <span className="muted">None</span>}</div></td>
    </tr>
  );
}
