import { Field, type FieldRenderProps } from 'react-final-form';
import { useSettledError } from './settledError';
import { RequiredMark } from './fields';

interface Props {
  name: string; label: string; type?: string; autoComplete?: string; placeholder?: string; hint?: string;
  /** Marked with * in the label and aria-required (the form's own check says what is missing). */
  required?: boolean;
}

/** A labelled input whose error sits right under it once the field was touched. */
export function TextField(props: Props) {
  return <Field<string> name={props.name}>{(field) => <TextFieldBody {...props} {...field} />}</Field>;
}

function TextFieldBody({ name, label, type = 'text', autoComplete, placeholder, hint, required, input, meta }: Props & FieldRenderProps<string>) {
  const error = useSettledError(meta.touched && meta.error ? (meta.error as string) : undefined);
  const describedBy = [hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ') || undefined;
  const a11y = { 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy, 'aria-required': required || undefined };
  return (
    <div className="field">
      <label htmlFor={name}>{label}{required && <RequiredMark />}</label>
      {type === 'textarea' ? (
        <textarea id={name} rows={3} {...input} {...a11y} />
      ) : (
        <input id={name} {...input} type={type} autoComplete={autoComplete} placeholder={placeholder} {...a11y} />
      )}
      {hint && <p className="field-hint" id={`${name}-hint`}>{hint}</p>}
      {error && <p className="field-error" id={`${name}-error`}>{error}</p>}
    </div>
  );
}
