// Labelled form controls for react-final-form, each with its error beside it.
import { Field, type FieldRenderProps } from 'react-final-form';
import { range } from '../../domain/forms';
import { useSettledError } from './settledError';

/** The * of a required field; the input itself carries aria-required. */
export function RequiredMark() {
  return <span className="required-mark" aria-hidden="true"> *</span>;
}

const idOf = (name: string) => name.replace(/[[\].]+/g, '-').replace(/-$/, '');

export function CountSelect({ name, label, min = 0, max, step = 1, suffix = '' }: {
  name: string; label: string; min?: number; max: number; step?: number; suffix?: string;
}) {
  const id = idOf(name);
  return (
    <Field<number> name={name} parse={(v) => Number(v)}>
      {({ input }) => (
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <select id={id} {...input} value={String(input.value ?? min)}>
            {range(min, max, step).map((n) => <option key={n} value={n}>{n}{suffix}</option>)}
          </select>
        </div>
      )}
    </Field>
  );
}

export function YesNoCheckbox({ name, label, hint }: { name: string; label: string; hint?: string }) {
  const id = idOf(name);
  return (
    <Field<string> name={name}>
      {({ input }) => (
        <div className="check">
          <input id={id} type="checkbox" name={input.name} checked={input.value === 'yes'}
            onChange={(e) => input.onChange(e.target.checked ? 'yes' : 'no')} onBlur={input.onBlur} onFocus={input.onFocus} />
          <label htmlFor={id}>{label}{hint && <span className="muted"> {hint}</span>}</label>
        </div>
      )}
    </Field>
  );
}

export function DateField({ name, label, min, required }: { name: string; label: string; min?: string; required?: boolean }) {
  return <Field<string> name={name}>{(field) => <DateFieldBody name={name} label={label} min={min} required={required} {...field} />}</Field>;
}

function DateFieldBody({ name, label, min, required, input, meta }: { name: string; label: string; min?: string; required?: boolean } & FieldRenderProps<string>) {
  const id = idOf(name);
  const error = useSettledError(meta.touched && meta.error ? (meta.error as string) : undefined);
  return (
    <div className="field">
      <label htmlFor={id}>{label}{required && <RequiredMark />}</label>
      <input id={id} type="date" min={min} {...input} aria-invalid={error ? true : undefined} aria-required={required || undefined}
        aria-describedby={error ? `${id}-error` : undefined} />
      {error && <p className="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}

export function ChoiceSelect({ name, label, options, ariaLabel }: {
  name: string; label?: string; ariaLabel?: string; options: { value: string; label: string }[];
}) {
  const id = idOf(name);
  return (
    <Field<string> name={name}>
      {({ input }) => (
        <div className={label ? 'field' : undefined}>
          {label && <label htmlFor={id}>{label}</label>}
          <select id={id} aria-label={label ? undefined : ariaLabel} {...input}>
            {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
          </select>
        </div>
      )}
    </Field>
  );
}
