// Privacy requests (issue 43 §4, machines/operatorPrivacy.ts, decision 60): an administrator looks up the e-mail address
// a passenger asked about, reads everything held about it (each table's rows, in words), downloads it as the JSON file
// the passenger is sent, and erases it after a confirming window that says what goes and what the law keeps.
import { useState, type FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import type { privacyMachine } from '../../../../machines/operatorPrivacy';
import { erasedWords, type ExportRow, type PrivacyExport } from '../../../domain/retention';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { LoadingOverlay } from '../../components/LoadingOverlay';
import { usePage } from './operatorActor';

type Page = NonNullable<ReturnType<typeof usePage<typeof privacyMachine>>>;

export function PrivacyView() {
  const page = usePage<typeof privacyMachine>();
  if (!page) return <LoadingOverlay text="Opening privacy requests" />;
  return <Privacy page={page} />;
}

function Privacy({ page }: { page: Page }) {
  const found = useSelector(page, (s) => s.context.found);
  const erased = useSelector(page, (s) => s.context.erased);
  const email = useSelector(page, (s) => s.context.email);
  const error = useSelector(page, (s) => s.context.error);
  const notice = useSelector(page, (s) => s.context.notice);
  const looking = useSelector(page, (s) => s.matches('looking'));
  const downloading = useSelector(page, (s) => s.matches('downloading'));
  const confirming = useSelector(page, (s) => s.matches('confirming') || s.matches('erasing'));
  const mayErase = useSelector(page, (s) => s.can({ type: 'privacy.erase' }));
  const [typed, setTyped] = useState('');
  const fieldError = error?.field === 'email' && !found ? error.message : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    page.send({ type: 'privacy.lookup', email: typed });
  };
  return (
    <section className="op-page" aria-labelledby="privacy-title">
      <h1 id="privacy-title" tabIndex={-1}>Privacy requests</h1>
      <p>
        When someone asks what is held about them, look up their e-mail address: this page shows everything the site holds, and the
        JSON file is what you send them. When they ask for it to be erased, erase it here, except what the law says to keep.
      </p>
      <form className="op-form op-form-grid" onSubmit={submit} noValidate aria-label="Look up an e-mail address">
        <div className="field">
          <label htmlFor="privacy-email">E-mail address</label>
          <input id="privacy-email" type="email" autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)}
            aria-invalid={fieldError ? true : undefined} aria-describedby={fieldError ? 'privacy-email-error' : undefined} />
          {fieldError && <p className="field-error" id="privacy-email-error">{fieldError}</p>}
        </div>
        <div><button type="submit" className="btn btn-primary" disabled={looking} aria-busy={looking || undefined}>{looking ? 'Looking up...' : 'Look up'}</button></div>
      </form>
      <div aria-live="polite">
        {notice && <p className="banner-ok">{notice}</p>}
        {erased && <p className="banner-ok">{erasedWords(erased)}</p>}
      </div>
      {error && error.field !== 'email' && <p className="banner-error" role="alert">{error.message}</p>}
      {error && error.field === 'email' && found && <p className="banner-error" role="alert">{error.message}</p>}
      {looking && <p className="op-count" role="status">Looking up...</p>}
      {erased && <Kept kept={erased.kept} title="What was kept, and why" />}
      {found && !looking && (
        <Found found={found} email={email} mayErase={mayErase} downloading={downloading}
          onDownload={() => page.send({ type: 'privacy.download' })} onErase={() => page.send({ type: 'privacy.erase' })} />
      )}
      {confirming && found && <EraseDialog page={page} email={email} found={found} />}
    </section>
  );
}

function Found({ found, email, mayErase, downloading, onDownload, onErase }: {
  found: PrivacyExport; email: string; mayErase: boolean; downloading: boolean; onDownload: () => void; onErase: () => void;
}) {
  if (found.sections.length === 0) {
    return <p className="banner-ok op-privacy-head" role="status">Nothing is held about {email}.</p>;
  }
  const bookings = found.sections.find((s) => s.table === 'bookings')?.rows ?? [];
  return (
    <>
      <div className="op-card">
        <h2 className="op-privacy-head">Held about {email}</h2>
        <p>
          {bookings.length} {bookings.length === 1 ? 'booking' : 'bookings'}, in {found.sections.length} {found.sections.length === 1 ? 'place' : 'places'}.
          Booking records are kept {found.retention.records_months} months after the journey and VAT invoices {found.retention.invoice_years} years.
        </p>
        {found.erase.refusal && <p className="banner-error">{found.erase.refusal}</p>}
        <div className="op-row-buttons">
          <button type="button" className="btn" onClick={onDownload} disabled={downloading} aria-busy={downloading || undefined}>
            {downloading ? 'Preparing...' : 'Download the JSON file'}
          </button>
          {mayErase && <button type="button" className="btn op-danger-confirm" onClick={onErase}>Erase...</button>}
        </div>
      </div>
      {found.sections.map((s) => (
        <section key={s.table} className="op-card" aria-labelledby={`privacy-${s.table}`}>
          <h2 id={`privacy-${s.table}`}>{s.title} <span className="muted">({s.rows.length})</span></h2>
          <p className="muted">{holdsWords(s.holds)}</p>
          {s.rows.map((row, i) => <RowList key={i} row={row} />)}
        </section>
      ))}
      <Kept kept={found.kept_on_erase} title="What an erase keeps, and why" />
    </>
  );
}

const holdsWords = (holds: string) => `${holds.charAt(0).toUpperCase()}${holds.slice(1)}.`;
const label = (key: string) => `${key.charAt(0).toUpperCase()}${key.slice(1).replace(/_/g, ' ')}`;
const shown = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** One row as its fields and values, those empty left out. */
function RowList({ row }: { row: ExportRow }) {
  const fields = Object.entries(row).filter(([k, v]) => k !== 'withheld' && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0));
  return (
    <dl className="op-privacy-row">
      {fields.map(([k, v]) => (
        <div key={k}><dt>{label(k)}</dt><dd className={typeof v === 'object' ? 'op-code' : undefined}>{shown(v)}</dd></div>
      ))}
    </dl>
  );
}

function Kept({ kept, title }: { kept: readonly { what: string; why: string }[]; title: string }) {
  return (
    <section className="op-card" aria-labelledby="privacy-kept">
      <h2 id="privacy-kept">{title}</h2>
      <ul className="op-privacy-kept">
        {kept.map((k) => <li key={k.what}><strong>{k.what}.</strong> {k.why}</li>)}
      </ul>
    </section>
  );
}

function EraseDialog({ page, email, found }: { page: Page; email: string; found: PrivacyExport }) {
  const erasing = useSelector(page, (s) => s.matches('erasing'));
  const close = () => { if (!erasing) page.send({ type: 'privacy.cancel' }); };
  return (
    <ConfirmDialog title={`Erase everything held about ${email}?`} onClose={close}>
      <p>
        The name, e-mail, phone, notes, addresses (but their postcode district), flights, messages and sign-ins held in {found.sections.length} places
        are removed now, and any account is closed. This cannot be undone.
      </p>
      <p>Kept: {found.kept_on_erase.map((k) => k.what.split(' (')[0].split(':')[0]).join('; ')}.</p>
      <div className="op-dialog-buttons">
        <button type="button" className="btn op-danger-confirm" disabled={erasing} aria-busy={erasing || undefined} onClick={() => page.send({ type: 'privacy.confirm' })}>
          {erasing ? 'Erasing...' : 'Erase'}
        </button>
        <button type="button" className="btn btn-secondary" onClick={close} disabled={erasing}>Go back</button>
      </div>
    </ConfirmDialog>
  );
}
