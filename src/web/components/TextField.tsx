import { Field } from 'react-final-form';

/** A labelled input whose error sits right under it once the field was touched. */
export function TextField({ name, label, type = 'text', autoComplete, placeholder, hint }: {
  name: string; label: string; type?: string; autoComplete?: string; placeholder?: string; hint?: string;
}) {
  return (
    <Field<string> name={name}>
      {({ input, meta }) => {
        const error = meta.touched && meta.error ? (meta.error as string) : undefined;
        const describedBy = [hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ') || undefined;
        return (
          <div className="field">
            <label htmlFor={name}>{label}</label>
            {type === 'textarea' ? (
              <textarea id={name} rows={3} {...input} aria-describedby={describedBy} />
            ) : (
              <input id={name} {...input} type={type} autoComplete={autoComplete} placeholder={placeholder}
                aria-invalid={error ? true : undefined} aria-describedby={describedBy} />
            )}
            {hint && <p className="field-hint" id={`${name}-hint`}>{hint}</p>}
            {error && <p className="field-error" id={`${name}-error`}>{error}</p>}
          </div>
        );
      }}
    </Field>
  );
}
