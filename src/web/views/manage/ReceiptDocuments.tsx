// The booking's VAT invoice and its credit and debit notes (issue 39, decision 48): each with its number, date and
// amount, and its own download. The list comes with the booking (GET /manage/{reference} `receipt`); a download is a
// file and nothing else, so it is fetched here rather than through the page's machine (as the calendar file is a link).
import { useState } from 'react';
import { formatExactPrice } from '../../../domain/money';
import type { ManagePage } from '../../../../machines/manage';
import { useManage } from './manageActor';
import { downloadReceipt } from './manageApi';

export function ReceiptDocuments({ page }: { page: ManagePage }) {
  const reference = useManage((s) => s.context.reference);
  const key = useManage((s) => s.context.key);
  const [busy, setBusy] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const documents = page.manage.receipt?.documents ?? [];
  if (!documents.length || !reference || !key) return null;

  async function download(number: string) {
    setBusy(number);
    setFailed(null);
    try {
      await downloadReceipt({ reference: reference!, key: key!, number });
    } catch (err) {
      setFailed((err as Error).message || `${number} could not be downloaded. Please try again.`);
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="panel" aria-labelledby="documents-title">
      <h2 id="documents-title" className="panel-title">{documents.length > 1 ? 'Your VAT invoice and its notes' : 'Your VAT invoice'}</h2>
      <ul className="manage-documents">
        {documents.map((d) => (
          <li key={d.number}>
            <span>{d.title} {d.number} of {d.issued_on}: <strong>{formatExactPrice(d.amount)}</strong></span>{' '}
            <button type="button" className="btn btn-secondary" disabled={busy !== null} onClick={() => void download(d.number)}>
              {busy === d.number ? 'Preparing...' : `Download ${d.number} (PDF)`}
            </button>
          </li>
        ))}
      </ul>
      {failed && <p className="banner-error" role="alert">{failed}</p>}
    </section>
  );
}
