// The booking's VAT invoice and its credit and debit notes (issue 39, decision 48): each with its number, date and
// amount, and its own download. The list comes with the booking (GET /manage/{reference} `receipt`); a download is a
// file and nothing else, so it is fetched here rather than through the page's machine (as the calendar file is a link).
// While a file is prepared its button stays focusable (aria-disabled, clicks ignored), and a status line says when it
// is downloaded.
import { useRef, useState } from 'react';
import { formatExactPrice } from '../../../domain/money';
import type { ManagePage } from '../../../../machines/manage';
import { useManage } from './manageActor';
import { downloadReceipt } from './manageApi';

const LONG_DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A document's date as the list has it (DD-MM-YYYY), as people read it: "27 November 2026". */
export function issuedWords(ddmmyyyy: string): string {
  const m = /^(\d{2})-(\d{2})-(\d{4})$/.exec(ddmmyyyy);
  return m ? LONG_DATE.format(new Date(Date.UTC(Number(m[3]), Number(m[2]) - 1, Number(m[1])))) : ddmmyyyy;
}

export function ReceiptDocuments({ page }: { page: ManagePage }) {
  const reference = useManage((s) => s.context.reference);
  const key = useManage((s) => s.context.key);
  const [busy, setBusy] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  // A second press while a file is prepared does nothing (the state may not have re-rendered yet).
  const preparing = useRef(false);
  const documents = page.manage.receipt?.documents ?? [];
  if (!documents.length || !reference || !key) return null;

  async function download(number: string) {
    if (preparing.current) return;
    preparing.current = true;
    setBusy(number);
    setDone(null);
    setFailed(null);
    try {
      await downloadReceipt({ reference: reference!, key: key!, number });
      setDone(`${number} has been downloaded.`);
    } catch (err) {
      setFailed((err as Error).message || `${number} could not be downloaded. Please try again.`);
    } finally {
      preparing.current = false;
      setBusy(null);
    }
  }

  return (
    <section className="panel" aria-labelledby="documents-title">
      <h2 id="documents-title" className="panel-title">{documents.length > 1 ? 'Your VAT invoice and its notes' : 'Your VAT invoice'}</h2>
      <ul className="manage-documents">
        {documents.map((d) => (
          <li key={d.number}>
            <span className="manage-document">
              {d.title} {d.number}, <span className="nowrap">{`issued ${issuedWords(d.issued_on)}`}</span>: <strong className="nowrap">{formatExactPrice(d.amount)}</strong>
            </span>
            <button type="button" className="btn btn-secondary" aria-disabled={busy !== null || undefined} onClick={() => void download(d.number)}>
              {busy === d.number ? `Preparing ${d.number}...` : `Download ${d.number} (PDF)`}
            </button>
          </li>
        ))}
      </ul>
      <p className="manage-documents-status" role="status">{done ?? ''}</p>
      {failed && <p className="banner-error" role="alert">{failed}</p>}
    </section>
  );
}
