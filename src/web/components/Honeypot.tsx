// The contact and quote forms' trap for programs (HONEYPOT_FIELD): out of sight, out of the tab order and hidden
// from screen readers, so no person fills it; a program that fills every input does, and its message is dropped.
import { Field } from 'react-final-form';
import { HONEYPOT_FIELD } from '../../domain/contactSchemas';
import '../screens.css';

export function Honeypot() {
  return (
    <div className="honeypot" aria-hidden="true">
      <label htmlFor={HONEYPOT_FIELD}>Leave this field empty</label>
      <Field<string> name={HONEYPOT_FIELD} component="input" id={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" />
    </div>
  );
}
