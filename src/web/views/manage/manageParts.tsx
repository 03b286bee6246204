// The manage page's building blocks: a titled panel and a table of labelled values.
import type { ReactNode } from 'react';
import type { SummaryRow } from '../../../domain/bookingSummary';

export const Rows = ({ rows }: { rows: SummaryRow[] }) => (
  <table className="details-table">
    <tbody>{rows.map((r) => <tr key={r.label}><th scope="row">{r.label}</th><td>{r.strong ? <strong>{r.value}</strong> : r.value}</td></tr>)}</tbody>
  </table>
);

export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="panel" aria-labelledby={id}>
      <h2 id={id} className="panel-title">{title}</h2>
      {children}
    </section>
  );
}
