// Issue 44: "Pay on account" at the payment step, for a signed-in booker of a company account, beside the SPEC's ways
// to pay. The account's booking fields (a PO number, a cost centre...) are asked here, checked by the domain's rule as
// the server checks them; a value the server refuses shows under its field. A suspended or closed account's booker
// is told why, with the office's phone.
import { Field, Form } from 'react-final-form';
import { BookingActor, useSettings } from '../../bookingActor';
import { RequiredMark } from '../../components/fields';
import { useSettledError } from '../../components/settledError';
import { accountRefusal, bookingFieldErrors, type AccountField } from '../../../domain/accountPayment';

type Values = Record<string, string>;
/** A field's name in the form: final-form reads a bare number as a list index. */
const nameOf = (f: AccountField) => `f${f.id}`;

export function PayOnAccount({ total, busy }: { total: string; busy: boolean }) {
  const actor = BookingActor.useActorRef();
  const settings = useSettings();
  const billing = BookingActor.useSelector((s) => s.context.billing);
  const kept = BookingActor.useSelector((s) => s.context.accountFields);
  const refused = BookingActor.useSelector((s) => s.context.accountFieldError);
  const choosing = BookingActor.useSelector((s) => s.matches({ payment: 'choosing' }));
  if (!billing) return null;
  const refusal = accountRefusal(billing, settings.Company_Contact_Info ?? '');
  if (refusal) {
    return (
      <div className="pay-option">
        <h3 className="pay-option-title">Pay on account</h3>
        <p className="banner-error" role="status">{refusal}</p>
      </div>
    );
  }
  const toFields = (v: Values) => Object.fromEntries(billing.fields.map((f) => [String(f.id), (v[nameOf(f)] ?? '').trim()]));
  const validate = (v: Values) => {
    const errors = bookingFieldErrors(billing.fields, toFields(v));
    return Object.fromEntries(Object.entries(errors).map(([id, message]) => [`f${id}`, message]));
  };
  return (
    <Form<Values>
      initialValues={Object.fromEntries(billing.fields.map((f) => [nameOf(f), kept[String(f.id)] ?? '']))}
      validate={validate}
      onSubmit={(v) => {
        const fields = toFields(v);
        // The machine decides (its guard is the same rule); the form only shows why not.
        if (actor.getSnapshot().can({ type: 'payment.payOnAccount', fields })) actor.send({ type: 'payment.payOnAccount', fields });
      }}
      render={({ handleSubmit }) => (
        <form className="pay-option" onSubmit={handleSubmit} noValidate aria-labelledby="account-title">
          <h3 className="pay-option-title" id="account-title">Pay on account</h3>
          <p className="muted">{total} is invoiced to {billing.name} with the month's other journeys. No card is needed.</p>
          {billing.fields.map((f) => (
            <AccountFieldInput key={f.id} field={f} serverError={refused?.fieldId === String(f.id) ? refused.message : undefined} />
          ))}
          <button type="submit" className="btn btn-secondary btn-block" disabled={busy || !choosing} aria-busy={busy}>
            {busy ? <><span className="spinner spinner-small" aria-hidden="true" /> Booking...</> : 'Pay on account'}
          </button>
        </form>
      )}
    />
  );
}

function AccountFieldInput({ field, serverError }: { field: AccountField; serverError?: string }) {
  const name = nameOf(field);
  const id = `account-${name}`;
  return (
    <Field<string> name={name}>
      {({ input, meta }) => <AccountFieldBody id={id} field={field} input={input}
        error={(meta.touched || meta.submitFailed) && meta.error ? (meta.error as string) : !meta.dirtySinceLastSubmit ? serverError : undefined} />}
    </Field>
  );
}

function AccountFieldBody({ id, field, input, error: shown }: {
  id: string; field: AccountField; input: { value: string; onChange: (e: unknown) => void; onBlur: () => void; onFocus: () => void; name: string }; error?: string;
}) {
  const error = useSettledError(shown);
  const a11y = { 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-error` : undefined, 'aria-required': field.required || undefined };
  return (
    <div className="field">
      <label htmlFor={id}>{field.label}{field.required && <RequiredMark />}</label>
      {field.options.length ? (
        <select id={id} {...input} {...a11y}>
          <option value="">{field.required ? 'Choose...' : 'None'}</option>
          {field.options.map((o) => <option key={o} value={o}>{o}</option>)}
        </select>
      ) : (
        <input id={id} {...input} type="text" maxLength={60} autoComplete="off" {...a11y} />
      )}
      {error && <p className="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}
