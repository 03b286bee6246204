// The console's Complaints and Lost property pages (issue 43 §3), run by machines/operatorCasework.ts: the register's
// entries (open, closed or all, searched) with its CSV for a range of days; one entry with its form, its history and
// Close with the outcome (the office only: the complainant or the owner is e-mailed it once); a new entry of the
// office's. The forms' rules are the machine's (src/domain/casework.ts); a refusal shows under its field.
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { caseworkMachine, CaseForm } from '../../../../machines/operatorCasework';
import {
  COMPLAINT_FIELDS, LOST_ITEM_FIELDS, LOST_KIND_LABELS, OFFICE_SOURCES, REGISTER_LABELS, SOURCE_LABELS, type CaseEntry, type CaseRow, type ListStatus,
  type Register, type Source,
} from '../../../domain/casework';
import { pathOfScreen, pathWith } from '../../../domain/screens';
import { ukToday } from '../../../domain/ukTime';
import { LoadingOverlay } from '../../components/LoadingOverlay';
import { useOperatorRef, usePage } from './operatorActor';
import './casework.css';

type Page = NonNullable<ReturnType<typeof usePage<typeof caseworkMachine>>>;

export function CaseworkView() {
  const page = usePage<typeof caseworkMachine>();
  if (!page) return <LoadingOverlay text="Opening the register" />;
  return <Casework page={page} />;
}

function Casework({ page }: { page: Page }) {
  const register = useSelector(page, (s) => s.context.register);
  const view = useSelector(page, (s) => (s.matches('entry') ? 'entry' : s.matches('creating') ? 'new' : 'list'));
  const error = useSelector(page, (s) => s.context.error);
  const notice = useSelector(page, (s) => s.context.notice);
  return (
    <section className="op-page cw-page" aria-labelledby="cw-title">
      <div aria-live="polite">{notice && <p className="banner-ok">{notice}</p>}</div>
      {error && <p className="banner-error" role="alert">{error.message}</p>}
      {view === 'list' && <List page={page} register={register} />}
      {view === 'entry' && <Entry page={page} register={register} />}
      {view === 'new' && <NewEntry page={page} register={register} />}
    </section>
  );
}

const NEW_LABEL: Record<Register, string> = { complaints: 'Record a complaint', 'lost-property': 'Record lost property' };

function List({ page, register }: { page: Page; register: Register }) {
  const list = useSelector(page, (s) => s.context.list);
  const status = useSelector(page, (s) => s.context.status);
  const q = useSelector(page, (s) => s.context.q);
  const loading = useSelector(page, (s) => s.matches({ list: 'loading' }));
  const failed = useSelector(page, (s) => s.matches({ list: 'failed' }));
  const downloading = useSelector(page, (s) => s.matches({ list: 'downloading' }));
  const canCsv = useSelector(page, (s) => s.can({ type: 'csv', from: '', to: '' }));
  const [shown, setShown] = useState<ListStatus>(status);
  const [search, setSearch] = useState(q);
  const [from, setFrom] = useState(() => ukToday().slice(0, 8) + '01');
  const [to, setTo] = useState(() => ukToday());
  useEffect(() => { setShown(status); setSearch(q); }, [status, q]);
  const filter = (e: FormEvent) => { e.preventDefault(); page.send({ type: 'list.show', status: shown, q: search }); };
  const csv = (e: FormEvent) => { e.preventDefault(); page.send({ type: 'csv', from, to }); };
  const labels = REGISTER_LABELS[register];
  return (
    <>
      <div className="op-page-head">
        <h1 id="cw-title" tabIndex={-1}>{labels.title}</h1>
        <button type="button" className="btn btn-primary" onClick={() => page.send({ type: 'entry.new' })}>{NEW_LABEL[register]}</button>
      </div>
      <p className="op-muted">
        {register === 'complaints'
          ? 'Every complaint the operator receives, with the booking, the driver and vehicle, the complainant, the investigation, the action taken and the outcome. Kept with the booking records.'
          : 'Property found in a car or reported lost (regulation 15): when and where, the vehicle, the description, the attempts to return it or the searches made, and its disposal. Kept with the booking records.'}
      </p>
      <form className="op-filters cw-filters" onSubmit={filter} aria-label="Entries to show">
        <div className="field">
          <label htmlFor="cw-q">Search</label>
          <input id="cw-q" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Booking, name, e-mail, driver, vehicle" />
        </div>
        <div className="field">
          <label htmlFor="cw-status">Status</label>
          <select id="cw-status" value={shown} onChange={(e) => setShown(e.target.value as ListStatus)}>
            <option value="open">Open</option><option value="closed">Closed</option><option value="all">All</option>
          </select>
        </div>
        <button type="submit" className="btn op-search-button" disabled={loading}>Show</button>
      </form>
      {failed && <p><button type="button" className="btn" onClick={() => page.send({ type: 'retry' })}>Try again</button></p>}
      {loading && <p className="op-count" role="status">Loading...</p>}
      {list && !loading && <Rows page={page} register={register} rows={list.rows} total={list.total} />}
      <form className="op-filters cw-export" onSubmit={csv} aria-label="Download as CSV">
        <div className="field"><label htmlFor="cw-from">First day</label><input id="cw-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} /></div>
        <div className="field"><label htmlFor="cw-to">Last day</label><input id="cw-to" type="date" value={to} onChange={(e) => setTo(e.target.value)} /></div>
        <button type="submit" className="btn" disabled={!canCsv} aria-busy={downloading || undefined}>{downloading ? 'Preparing...' : 'Download CSV'}</button>
      </form>
    </>
  );
}

function Rows({ page, register, rows, total }: { page: Page; register: Register; rows: CaseRow[]; total: number }) {
  if (!rows.length) return <p className="op-count">No entries here.</p>;
  const href = (id: number) => `${pathOfScreen(register === 'complaints' ? 'operatorComplaints' : 'operatorLostProperty')}?id=${id}`;
  return (
    <>
      <p className="op-count">{total} entr{total === 1 ? 'y' : 'ies'}{total > rows.length ? `, the newest ${rows.length} shown` : ''}</p>
      <table className="op-table cw-table">
        <caption className="sr-only">{REGISTER_LABELS[register].title}</caption>
        <thead>
          <tr><th scope="col">Entry</th><th scope="col">Received</th><th scope="col">Booking</th><th scope="col">Driver and vehicle</th>
            <th scope="col">{register === 'complaints' ? 'Complainant' : 'Owner'}</th><th scope="col">{register === 'complaints' ? 'Nature' : 'Item'}</th><th scope="col">Status</th></tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td data-label="Entry"><div>
                <a href={href(r.id)} onClick={(e) => { if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return; e.preventDefault(); page.send({ type: 'entry.open', id: r.id }); }}>{r.number}</a>
                {r.kind && <><br /><span className="op-muted">{LOST_KIND_LABELS[r.kind]}</span></>}
              </div></td>
              <td data-label="Received"><div>{r.opened_at}<br /><span className="op-muted">{r.source_label}</span></div></td>
              <td data-label="Booking"><div>{r.booking_reference || <span className="op-muted">None</span>}{r.booking_reference && !r.booking_linked && <><br /><span className="op-muted">No such booking</span></>}</div></td>
              <td data-label="Driver and vehicle"><div>{r.driver_name || <span className="op-muted">-</span>}{r.vehicle_registration && <><br /><span className="op-muted">{r.vehicle_registration}</span></>}</div></td>
              <td data-label={register === 'complaints' ? 'Complainant' : 'Owner'}><div>{r.contact_name || <span className="op-muted">Unknown</span>}</div></td>
              <td data-label={register === 'complaints' ? 'Nature' : 'Item'}><div>{r.summary}</div></td>
              <td data-label="Status"><div><span className={`op-status cw-${r.status}`}>{r.status === 'open' ? 'Open' : 'Closed'}</span>{r.closed_at && <><br /><span className="op-muted">{r.closed_at}</span></>}</div></td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** The labels of the form's fields (their ids are cw-<field>). */
const LABELS: Record<string, string> = {
  booking_reference: 'Booking reference', booking_date: 'Date of the journey', source: 'Received by', contact_name: 'Name', contact_email: 'E-mail',
  contact_phone: 'Telephone', nature: 'Nature of the complaint', investigation: 'Investigation', action_taken: 'Action taken', notes: 'Notes',
  kind: 'Lost property', description: 'Description of the item', found_on: 'Date found', found_place: 'Place found', return_attempts: 'Attempts to return it',
  disposal: 'Disposal', reported_on: 'Date reported', lost_on: 'Date lost', lost_place: 'Place lost', searches: 'Searches made',
};
const REQUIRED = new Set(['nature', 'description', 'found_on', 'reported_on', 'source', 'kind']);
const LONG = new Set(['nature', 'investigation', 'action_taken', 'notes', 'description', 'return_attempts', 'disposal', 'searches']);
const DATES = new Set(['booking_date', 'found_on', 'reported_on', 'lost_on']);

function formOf(register: Register, values: Record<string, unknown>): CaseForm {
  const fields: string[] = register === 'complaints' ? COMPLAINT_FIELDS : LOST_ITEM_FIELDS;
  return Object.fromEntries(fields.map((f) => [f, values[f] === null || values[f] === undefined ? '' : String(values[f])]));
}

function EntryForm({ register, initial, fieldErrors, disabled, kindFixed, sourceFixed, submitLabel, onSubmit, children }: {
  register: Register; initial: CaseForm; fieldErrors: Record<string, string>; disabled: boolean; kindFixed: boolean; sourceFixed: boolean;
  submitLabel: string | null; onSubmit: (form: CaseForm) => void; children?: ReactNode;
}) {
  const [form, setForm] = useState(initial);
  useEffect(() => setForm(initial), [initial]);
  const set = (f: string) => (e: { target: { value: string } }) => setForm((v) => ({ ...v, [f]: e.target.value }));
  const input = (f: string) => {
    const error = fieldErrors[f];
    const common = {
      id: `cw-${f}`, value: form[f] ?? '', onChange: set(f), disabled, 'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? `cw-${f}-error` : undefined, 'aria-required': REQUIRED.has(f) || undefined,
    };
    return (
      <div className={`field${LONG.has(f) ? ' cw-wide' : ''}`} key={f}>
        <label htmlFor={`cw-${f}`}>{LABELS[f]}{REQUIRED.has(f) && <span aria-hidden="true"> *</span>}</label>
        {f === 'source' ? (
          <select {...common} disabled={disabled || sourceFixed}>
            {sourceFixed ? <option value={form.source}>{SOURCE_LABELS[form.source as Source]}</option>
              : <><option value="">Choose...</option>{OFFICE_SOURCES.map((s) => <option key={s} value={s}>{SOURCE_LABELS[s]}</option>)}</>}
          </select>
        ) : LONG.has(f) ? <textarea rows={3} {...common} /> : <input type={DATES.has(f) ? 'date' : f === 'contact_email' ? 'email' : 'text'} {...common} />}
        {error && <p className="field-error" id={`cw-${f}-error`}>{error}</p>}
      </div>
    );
  };
  const found = form.kind === 'found';
  const submit = (e: FormEvent) => { e.preventDefault(); onSubmit(form); };
  return (
    <form className="op-form cw-form" onSubmit={submit} noValidate aria-label={submitLabel ?? 'The entry'}>
      {register === 'lost-property' && (
        <fieldset className="op-fieldset" aria-describedby={fieldErrors.kind ? 'cw-kind-error' : undefined}>
          <legend>Lost property *</legend>
          {(['found', 'reported'] as const).map((k) => (
            <label key={k} className="op-radio"><input type="radio" name="cw-kind" value={k} checked={form.kind === k} disabled={disabled || kindFixed} onChange={set('kind')} />{LOST_KIND_LABELS[k]}</label>
          ))}
          {fieldErrors.kind && <p className="field-error" id="cw-kind-error">{fieldErrors.kind}</p>}
        </fieldset>
      )}
      <div className="op-form-grid cw-grid">
        {['booking_reference', 'booking_date', 'source'].map(input)}
        {register === 'complaints' ? ['nature', 'investigation', 'action_taken'].map(input)
          : ['description', ...(found ? ['found_on', 'found_place', 'return_attempts', 'disposal'] : ['reported_on', 'lost_on', 'lost_place', 'searches'])].map(input)}
      </div>
      <fieldset className="op-fieldset">
        <legend>{register === 'complaints' ? 'Complainant' : 'Owner, when known'}</legend>
        <div className="op-form-grid cw-grid">{['contact_name', 'contact_email', 'contact_phone'].map(input)}</div>
      </fieldset>
      <div className="op-form-grid cw-grid">{input('notes')}</div>
      {children}
      {submitLabel && <p><button type="submit" className="btn btn-primary" disabled={disabled}>{submitLabel}</button></p>}
    </form>
  );
}

function Back({ page, register }: { page: Page; register: Register }) {
  return (
    <p className="op-back">
      <button type="button" className="btn-link" onClick={() => page.send({ type: 'entry.back' })}>← {REGISTER_LABELS[register].title}</button>
    </p>
  );
}

function NewEntry({ page, register }: { page: Page; register: Register }) {
  const fieldErrors = useSelector(page, (s) => s.context.fieldErrors);
  const sending = useSelector(page, (s) => s.matches({ creating: 'sending' }));
  const [initial] = useState(() => formOf(register, register === 'complaints' ? {} : { kind: 'found', found_on: ukToday() }));
  return (
    <>
      <Back page={page} register={register} />
      <div className="op-page-head"><h1 id="cw-title" tabIndex={-1}>{NEW_LABEL[register]}</h1></div>
      <EntryForm register={register} initial={initial} fieldErrors={fieldErrors} disabled={sending} kindFixed={false} sourceFixed={false}
        submitLabel={sending ? 'Saving...' : 'Save the entry'} onSubmit={(form) => page.send({ type: 'entry.save', form })} />
    </>
  );
}

function Entry({ page, register }: { page: Page; register: Register }) {
  const answer = useSelector(page, (s) => s.context.entry);
  const failed = useSelector(page, (s) => s.matches({ entry: 'failed' }));
  const id = useSelector(page, (s) => s.context.id);
  if (failed) {
    return (<><Back page={page} register={register} /><h1 id="cw-title" tabIndex={-1}>Entry {id}</h1>
      <p><button type="button" className="btn" onClick={() => page.send({ type: 'retry' })}>Try again</button></p></>);
  }
  if (!answer) return (<><Back page={page} register={register} /><p className="op-count" role="status">Loading...</p></>);
  return <EntryShown page={page} register={register} answer={answer} />;
}

function EntryShown({ page, register, answer }: { page: Page; register: Register; answer: CaseEntry }) {
  const actor = useOperatorRef();
  const fieldErrors = useSelector(page, (s) => s.context.fieldErrors);
  const busy = useSelector(page, (s) => s.hasTag('busy') || s.matches({ entry: 'loading' }));
  const closing = useSelector(page, (s) => s.matches({ entry: 'closing' }));
  const [outcome, setOutcome] = useState('');
  const e = answer.entry;
  const [initial, setInitial] = useState(() => formOf(register, e));
  useEffect(() => setInitial(formOf(register, e)), [register, e]);
  const reference = String(e.booking_reference ?? '');
  const close = (ev: FormEvent) => { ev.preventDefault(); page.send({ type: 'entry.close', outcome }); };
  return (
    <>
      <Back page={page} register={register} />
      <div className="op-page-head">
        <h1 id="cw-title" tabIndex={-1}>{REGISTER_LABELS[register].one} {e.number}</h1>
        <span className={`op-status cw-${e.status}`}>{e.status === 'open' ? 'Open' : 'Closed'}</span>
      </div>
      <div className="op-card cw-facts">
        <dl className="op-dl">
          <div className="op-dl-row"><dt>Received</dt><dd>{String(e.opened_at)} · {SOURCE_LABELS[e.source as Source]}{e.opened_by !== SOURCE_LABELS[e.source as Source] && ` · ${String(e.opened_by)}`}</dd></div>
          <div className="op-dl-row"><dt>Booking</dt><dd>{e.booking_id !== null
            ? <a href={pathWith('operatorBooking', { reference })} onClick={(ev) => { if (ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.button !== 0) return; ev.preventDefault(); actor.send({ type: 'open', reference }); }}>{reference}</a>
            : reference ? <>{reference} <span className="op-muted">(no booking has this reference)</span></> : <span className="op-muted">None</span>}</dd></div>
          <div className="op-dl-row"><dt>Driver</dt><dd>{e.driver_name ? `${String(e.driver_name)}${e.driver_licence ? ` (licence ${String(e.driver_licence)})` : ''}` : <span className="op-muted">-</span>}</dd></div>
          <div className="op-dl-row"><dt>Vehicle</dt><dd>{String(e.vehicle_registration || '-')}</dd></div>
          {e.company_name && <div className="op-dl-row"><dt>Company</dt><dd>{String(e.company_name)}</dd></div>}
          {e.status === 'closed' && <>
            <div className="op-dl-row"><dt>Outcome</dt><dd className="strong">{String(e.outcome)}</dd></div>
            <div className="op-dl-row"><dt>Closed</dt><dd>{String(e.closed_at)} · {String(e.closed_by)}</dd></div>
          </>}
        </dl>
      </div>
      <EntryForm register={register} initial={initial} fieldErrors={fieldErrors} disabled={busy || !answer.may.edit} kindFixed sourceFixed={!OFFICE_SOURCES.includes(e.source as Source)}
        submitLabel={answer.may.edit ? 'Save changes' : null} onSubmit={(form) => page.send({ type: 'entry.save', form })} />
      {answer.may.close && (
        <form className="op-card op-form cw-close" onSubmit={close} noValidate aria-label="Close the entry">
          <h2>Close with the outcome</h2>
          <p className="op-muted">{e.contact_email ? `The outcome is e-mailed to ${String(e.contact_email)}, once.` : 'There is no e-mail address: the outcome is kept on record only.'}</p>
          <div className="field">
            <label htmlFor="cw-outcome">Outcome <span aria-hidden="true">*</span></label>
            <textarea id="cw-outcome" rows={3} value={outcome} onChange={(ev) => setOutcome(ev.target.value)} aria-required="true"
              aria-invalid={fieldErrors.outcome ? true : undefined} aria-describedby={fieldErrors.outcome ? 'cw-outcome-error' : undefined} />
            {fieldErrors.outcome && <p className="field-error" id="cw-outcome-error">{fieldErrors.outcome}</p>}
          </div>
          <p><button type="submit" className="btn btn-primary" disabled={busy}>{closing ? 'Closing...' : 'Close the entry'}</button></p>
        </form>
      )}
      {answer.history.length > 0 && (
        <section className="op-card op-timeline" aria-labelledby="cw-history">
          <h2 id="cw-history">History</h2>
          <ol>{answer.history.map((h, i) => <li key={i}><span className="op-when">{h.at}</span><span>{h.action} · {h.by}</span></li>)}</ol>
        </section>
      )}
    </>
  );
}
