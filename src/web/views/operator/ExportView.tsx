// The accounts' export (issue 26): the bookings picked up in a range of days, as a CSV file.
import { useState, type FormEvent } from 'react';
import { ukToday } from '../../../domain/ukTime';
import { useOperator, useOperatorRef } from './operatorActor';

const monthStart = (today: string) => `${today.slice(0, 8)}01`;

export function ExportView() {
  const actor = useOperatorRef();
  const today = ukToday();
  const [from, setFrom] = useState(monthStart(today));
  const [to, setTo] = useState(today);
  const [problem, setProblem] = useState<string | null>(null);
  const busy = useOperator((s) => s.matches({ signedIn: { export: 'downloading' } }));
  const notice = useOperator((s) => s.context.notice);
  const error = useOperator((s) => s.context.error?.message ?? null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!from || !to) return setProblem('Choose the first and the last day.');
    if (to < from) return setProblem('The last day is before the first.');
    setProblem(null);
    actor.send({ type: 'export.download', from, to });
  };
  return (
    <section className="op-page" aria-labelledby="export-title">
      <h1 id="export-title" tabIndex={-1}>Export for the accounts</h1>
      <p>One row per booking picked up in the range (UK dates), amounts in pounds, as a CSV file that Excel and every spreadsheet open.</p>
      <form className="op-form op-export" onSubmit={submit} noValidate aria-label="Export">
        <div className="field"><label htmlFor="op-from">First day</label><input id="op-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} /></div>
        <div className="field"><label htmlFor="op-to">Last day</label><input id="op-to" type="date" value={to} onChange={(e) => setTo(e.target.value)} aria-describedby={problem ? 'op-export-error' : undefined} /></div>
        {problem && <p id="op-export-error" className="field-error" role="alert">{problem}</p>}
        <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy || undefined}>{busy ? 'Preparing...' : 'Download CSV'}</button>
      </form>
      <div aria-live="polite">{notice && <p className="banner-ok">{notice}</p>}</div>
      {error && <p className="banner-error" role="alert">{error}</p>}
    </section>
  );
}
