// The forms of the operator data's parts (./DataView.tsx, ./FleetRecordsView.tsx): a labelled input with its hint and
// error, a titled card, and the change sent through the console's machine.
import type { ReactNode } from 'react';
import type { DataChange } from '../../../domain/operatorData';
import { useOperator, useOperatorRef } from './operatorActor';

export type Row = Record<string, unknown>;

/** The change is sent; the server's refusal naming one of this form's fields shows under it. */
export function useSave() {
  const actor = useOperatorRef();
  const saving = useOperator((s) => s.matches({ signedIn: { data: 'saving' } }));
  const error = useOperator((s) => s.context.error);
  return { saving, fieldError: (field: string) => (error?.field === field ? error.message : undefined), save: (change: DataChange) => actor.send({ type: 'data.save', change }) };
}

export function Input({ id, label, value, onChange, error, type = 'text', hint, required }: {
  id: string; label: string; value: string; onChange: (v: string) => void; error?: string; type?: string; hint?: string; required?: boolean;
}) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}{required && <span className="required-mark" aria-hidden="true"> *</span>}</label>
      {type === 'textarea'
        ? <textarea id={id} rows={6} value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={described} />
        : <input id={id} type={type} value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={described} aria-required={required || undefined} />}
      {hint && <p className="field-hint" id={`${id}-hint`}>{hint}</p>}
      {error && <p className="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}

export function Card({ title, children }: { title: string; children: ReactNode }) {
  const id = `card-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return <section className="op-card" aria-labelledby={id}><h2 id={id}>{title}</h2>{children}</section>;
}

