// The windows that confirm an action before it happens (issue 26): a driver's details, a cancellation's reason and
// refund, or a plain question. Each form checks with the rules the server enforces (src/domain/operatorDesk.ts);
// the server's refusal, naming a field, shows under that field. Only the office is offered a refund (mayRefund): a
// company's staff cancel without one, and are told the office refunds it (decision 50).
import { Form } from 'react-final-form';
import { Field } from 'react-final-form';
import { TextField } from '../../components/TextField';
import { cancelErrors, driverErrors, mayRefund, type BookingAction, type CancelInput, type DriverInput } from '../../../domain/operatorDesk';
import { formatPhone } from '../../../domain/phone';
import type { BookingPage } from '../../../../machines/operator';
import { poundsToPence } from '../../../domain/money';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useOperator, useOperatorRef } from './operatorActor';

export function ActionDialog({ action, page }: { action: BookingAction | 'retryRefund'; page: BookingPage }) {
  const actor = useOperatorRef();
  const close = () => actor.send({ type: 'action.cancel' });
  const reference = page.booking.booking.booking_number;
  if (action === 'assignDriver') return <DriverDialog page={page} onClose={close} />;
  if (action === 'cancel') return <CancelDialog page={page} onClose={close} />;
  const question = {
    complete: { title: `Mark ${reference} as completed?`, text: 'The journey took place. This cannot be undone.', confirm: 'Mark completed' },
    noShow: { title: `Mark ${reference} as a no-show?`, text: 'The passenger did not come. This cannot be undone.', confirm: 'Mark no-show' },
    retryRefund: { title: `Retry the refund of ${reference}?`, text: `The card provider is asked again for the same refund of £${page.desk.refund?.amount}: it is never made twice.`, confirm: 'Retry refund' },
    refund: { title: `Refund £${page.desk.payment.refundable} to the card?`, text: `All that is left of the card payment for ${reference} is refunded, once. The passenger is e-mailed.`, confirm: 'Refund' },
  }[action];
  const kind = action;
  return (
    <ConfirmDialog title={question.title} onClose={close}>
      <p>{question.text}</p>
      <ServerError />
      <Buttons confirm={question.confirm} onConfirm={() => actor.send({ type: 'action.confirm', action: { kind } })} onClose={close} />
    </ConfirmDialog>
  );
}

function useActing() {
  return useOperator((s) => s.matches({ signedIn: { booking: 'acting' } }));
}

/** The server's refusal that names no field of the form. */
function ServerError({ fields = [] }: { fields?: string[] }) {
  const error = useOperator((s) => s.context.error);
  if (!error || (error.field && fields.includes(error.field))) return null;
  return <p className="banner-error" role="alert">{error.message}</p>;
}

/** The window's buttons: confirm (the main action's style; `danger`, red as the page's Cancel, for a cancellation) and Go back. */
function Buttons({ confirm, onConfirm, onClose, submit, danger }: { confirm: string; onConfirm?: () => void; onClose: () => void; submit?: boolean; danger?: boolean }) {
  const acting = useActing();
  return (
    <div className="op-dialog-buttons">
      <button type={submit ? 'submit' : 'button'} className={danger ? 'btn op-danger-confirm' : 'btn btn-primary'} disabled={acting} aria-busy={acting || undefined} onClick={onConfirm}>
        {acting ? 'Saving...' : confirm}
      </button>
      <button type="button" className="btn btn-secondary" onClick={onClose} disabled={acting}>Go back</button>
    </div>
  );
}

/** The server's message for one field, beside the form's own checks. */
function useServerFieldErrors(): Record<string, string> {
  const error = useOperator((s) => s.context.error);
  return error?.field ? { [error.field]: error.message } : {};
}

function DriverDialog({ page, onClose }: { page: BookingPage; onClose: () => void }) {
  const actor = useOperatorRef();
  const server = useServerFieldErrors();
  const d = page.desk.driver;
  const initial: DriverInput = d ? { ...d, mobile: formatPhone(d.mobile) } : { name: '', mobile: '', vehicle: '', registration: '' };
  return (
    <ConfirmDialog title={d ? `Change the driver of ${page.booking.booking.booking_number}` : `Assign a driver to ${page.booking.booking.booking_number}`} onClose={onClose}>
      <p>The passenger is e-mailed these details{d ? ' again' : ''}.</p>
      <Form<DriverInput>
        initialValues={initial}
        validate={(v) => ({ ...driverErrors(v), ...server })}
        onSubmit={(v) => { actor.send({ type: 'action.confirm', action: { kind: 'assignDriver', driver: v } }); }}
        render={({ handleSubmit }) => (
          <form onSubmit={handleSubmit} noValidate className="op-form" aria-label="Driver">
            <TextField name="name" label="Driver's name" required autoComplete="off" />
            <TextField name="mobile" label="Mobile" required type="tel" autoComplete="off" />
            <TextField name="vehicle" label="Vehicle (make and model)" required autoComplete="off" />
            <TextField name="registration" label="Registration" required autoComplete="off" />
            <ServerError fields={['name', 'mobile', 'vehicle', 'registration']} />
            <Buttons confirm="Save driver" onClose={onClose} submit />
          </form>
        )}
      />
    </ConfirmDialog>
  );
}

function CancelDialog({ page, onClose }: { page: BookingPage; onClose: () => void }) {
  const actor = useOperatorRef();
  const server = useServerFieldErrors();
  const office = useOperator((s) => mayRefund(s.context.staff?.role ?? ''));
  const refundable = page.desk.payment.refundable;
  // Only the office chooses whether to refund; to a company's staff the money is only mentioned.
  const paid = office ? refundable : null;
  const paidPence = paid === null ? null : poundsToPence(paid);
  return (
    <ConfirmDialog title={`Cancel ${page.booking.booking.booking_number}?`} onClose={onClose}>
      <p>The passenger, the office and {page.booking.booking.company_name} are told, with the reason.</p>
      {/* What a company's staff most need to know: the money is not given back by this cancellation. */}
      {!office && refundable !== null && (
        <p className="notice op-notice">The <strong>£{refundable}</strong> paid by card is not refunded here: the office is told, and refunds it.</p>
      )}
      <Form<CancelInput>
        initialValues={{ reason: '', refund: paid === null ? undefined : 'yes', refund_amount: '' }}
        validate={(v) => ({ ...cancelErrors(v, paidPence), ...server })}
        onSubmit={(v) => { actor.send({ type: 'action.confirm', action: { kind: 'cancel', cancel: v } }); }}
        render={({ handleSubmit, values }) => (
          <form onSubmit={handleSubmit} noValidate className="op-form" aria-label="Cancellation">
            <TextField name="reason" label="Reason" type="textarea" required />
            {paid !== null && (
              <fieldset className="op-fieldset">
                <legend>The £{paid} paid by card</legend>
                <Field name="refund" type="radio" value="yes">{({ input }) => <label className="op-radio"><input {...input} /> Refund it</label>}</Field>
                <Field name="refund" type="radio" value="no">{({ input }) => <label className="op-radio"><input {...input} /> Keep it (no refund)</label>}</Field>
                {values.refund === 'yes' && (
                  <TextField name="refund_amount" label="Amount to refund (£)" hint={`Leave empty to refund all £${paid}.`} autoComplete="off" />
                )}
              </fieldset>
            )}
            <ServerError fields={['reason', 'refund', 'refund_amount']} />
            <Buttons confirm="Cancel booking" onClose={onClose} submit danger />
          </form>
        )}
      />
    </ConfirmDialog>
  );
}
