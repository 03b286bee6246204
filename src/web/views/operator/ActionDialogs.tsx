// The windows that confirm an action before it happens (issue 26): a driver and car from the record (issue 41), a cancellation's reason and
// refund, or a plain question. Each form checks with the rules the server enforces (src/domain/operatorDesk.ts);
// the server's refusal, naming a field, shows under that field. Only the office is offered a refund (mayRefund): a
// company's staff cancel without one, and are told the office refunds it (decision 50).
import { Form } from 'react-final-form';
import { Field } from 'react-final-form';
import { TextField } from '../../components/TextField';
import { useState } from 'react';
import { cancelErrors, mayRefund, type BookingAction, type CancelInput } from '../../../domain/operatorDesk';
import { assignErrors, dispatchProblems, type AssignInput } from '../../../domain/fleetRecords';
import { formatDateLong } from '../../../domain/ukTime';
import { formatPhone } from '../../../domain/phone';
import type { BookingPage } from '../../../../machines/operator';
import { poundsToPence } from '../../../domain/money';
import { chargeErrors, type ChargeInput } from '../../../domain/accounts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useOperator, useOperatorRef } from './operatorActor';

export function ActionDialog({ action, page }: { action: BookingAction | 'retryRefund'; page: BookingPage }) {
  const actor = useOperatorRef();
  const close = () => actor.send({ type: 'action.cancel' });
  const reference = page.booking.booking.booking_number;
  if (action === 'assignDriver') return <DriverDialog page={page} onClose={close} />;
  if (action === 'cancel') return <CancelDialog page={page} onClose={close} />;
  if (action === 'adjustCharge') return <ChargeDialog page={page} onClose={close} />;
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

/** Whether a record's words match what was typed in the search (any order, any case). */
const matches = (words: string, typed: string) => typed.trim().toLowerCase().split(/\s+/).every((w) => words.toLowerCase().includes(w));

/**
 * The driver and car, chosen from the record (issue 41): each list shows the booking's company's active records, found
 * by typing part of a name, mobile or registration. What may not take the booking (an expired licence, MOT or
 * insurance, too few seats, no wheelchair access) is said under the choice before it is sent, by the server's rule.
 */
function DriverDialog({ page, onClose }: { page: BookingPage; onClose: () => void }) {
  const actor = useOperatorRef();
  const server = useServerFieldErrors();
  const records = useOperator((s) => s.context.records);
  const [findDriver, setFindDriver] = useState('');
  const [findCar, setFindCar] = useState('');
  // The server's refusal holds for the driver and car it refused: another choice may be sent.
  const [sent, setSent] = useState<AssignInput | null>(null);
  const needs = page.desk.needs;
  const d = page.desk.driver;
  const reference = page.booking.booking.booking_number;
  const own = <T extends { company_id: number; active: boolean }>(list: T[]) => list.filter((r) => r.company_id === needs.company_id && r.active);
  const drivers = own(records?.drivers ?? []);
  const cars = own(records?.cars ?? []);
  const initial: AssignInput = {
    driver_id: String(drivers.find((r) => r.id === (d as { driver_id?: number } | null)?.driver_id)?.id ?? ''),
    car_id: String(cars.find((r) => r.id === (d as { car_id?: number } | null)?.car_id)?.id ?? ''),
  };
  const validate = (v: AssignInput) => {
    const errors: Record<string, string> = { ...assignErrors(v) };
    const driver = drivers.find((r) => String(r.id) === v.driver_id);
    const car = cars.find((r) => String(r.id) === v.car_id);
    if (driver && car) {
      for (const p of dispatchProblems(needs, driver, car)) errors[p.field] = errors[p.field] ? `${errors[p.field]} ${p.message}` : p.message;
    }
    return { ...errors, ...(sent && v.driver_id === sent.driver_id && v.car_id === sent.car_id ? server : {}) };
  };
  return (
    <ConfirmDialog title={d ? `Change the driver of ${reference}` : `Assign a driver to ${reference}`} onClose={onClose}>
      <p>
        {needs.company_name}&apos;s drivers and cars on record, for {formatDateLong(needs.pickup_date)}: {needs.passengers} passenger{needs.passengers === 1 ? '' : 's'}
        {needs.wheelchair ? ', wheelchair-accessible vehicle' : ''}. The passenger is e-mailed the details{d ? ' again' : ''}.
      </p>
      {d && <p>Now: <strong>{d.name}</strong>, {d.colour ? `${d.colour} ` : ''}{d.vehicle} {d.registration}.</p>}
      <Form<AssignInput>
        initialValues={initial}
        validate={validate}
        onSubmit={(v) => { setSent(v); actor.send({ type: 'action.confirm', action: { kind: 'assignDriver', assign: v } }); }}
        render={({ handleSubmit }) => (
          <form onSubmit={handleSubmit} noValidate className="op-form" aria-label="Driver and car">
            <Choice
              name="driver_id" legend="Driver" find={findDriver} onFind={setFindDriver} findLabel="Find a driver (name or mobile)"
              empty={`${needs.company_name} has no active driver on record. Add one under Operator data, Drivers.`}
              options={drivers.filter((r) => matches(`${r.name} ${r.mobile} ${formatPhone(r.mobile)} ${r.licence_number}`, findDriver)).map((r) => ({
                id: r.id, label: r.name, detail: `${formatPhone(r.mobile)} · licence ${r.licence_number} to ${formatDateLong(r.licence_expiry)}`,
              }))}
            />
            <Choice
              name="car_id" legend="Car" find={findCar} onFind={setFindCar} findLabel="Find a car (registration, make or model)"
              empty={`${needs.company_name} has no car in service on record. Add one under Operator data, Vehicles.`}
              options={cars.filter((r) => matches(`${r.registration} ${r.registration.replace(/\s/g, '')} ${r.make} ${r.model} ${r.colour}`, findCar)).map((r) => ({
                id: r.id, label: `${r.registration}, ${r.colour} ${r.make} ${r.model}`,
                detail: `${r.category_name} · ${r.passengers} passengers${r.wheelchair ? ' · wheelchair accessible' : ''}`,
              }))}
            />
            <ServerError fields={['driver_id', 'car_id']} />
            <Buttons confirm="Save driver and car" onClose={onClose} submit />
          </form>
        )}
      />
    </ConfirmDialog>
  );
}

/** One list of the record to choose from (radio buttons), with a search box above it and the field's error below. */
function Choice({ name, legend, find, onFind, findLabel, options, empty }: {
  name: string; legend: string; find: string; onFind: (v: string) => void; findLabel: string; empty: string;
  options: { id: number; label: string; detail: string }[];
}) {
  const searchId = `${name}-find`;
  const errorId = `${name}-error`;
  return (
    <Field name={name} subscription={{ error: true, touched: true, submitFailed: true, value: true }}>
      {({ meta }) => {
        const shown = (meta.touched || meta.submitFailed) && meta.error;
        return (
          <fieldset className="op-fieldset op-choice" aria-describedby={shown ? errorId : undefined}>
            <legend>{legend}</legend>
            <label htmlFor={searchId} className="op-choice-find">{findLabel}</label>
            <input id={searchId} type="search" value={find} onChange={(e) => onFind(e.target.value)} autoComplete="off" />
            <div className="op-choice-list">
              {options.length === 0 && <p className="op-muted">{find.trim() ? 'Nothing on record matches.' : empty}</p>}
              {options.map((o) => (
                <Field key={o.id} name={name} type="radio" value={String(o.id)}>
                  {({ input }) => (
                    <label className="op-radio op-choice-option">
                      <input {...input} />
                      <span><strong>{o.label}</strong><br /><span className="op-muted">{o.detail}</span></span>
                    </label>
                  )}
                </Field>
              ))}
            </div>
            {shown && <p id={errorId} className="field-error" role="alert">{meta.error}</p>}
          </fieldset>
        );
      }}
    </Field>
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
  // The server's refusal holds for what it refused: a changed reason or amount may be sent.
  const [sent, setSent] = useState<CancelInput | null>(null);
  const same = (v: CancelInput) => sent !== null && v.reason === sent.reason && v.refund === sent.refund && v.refund_amount === sent.refund_amount;
  return (
    <ConfirmDialog title={`Cancel ${page.booking.booking.booking_number}?`} onClose={onClose}>
      <p>The passenger, the office and {page.booking.booking.company_name} are told, with the reason.</p>
      {/* What a company's staff most need to know: the money is not given back by this cancellation. */}
      {!office && refundable !== null && (
        <p className="notice op-notice">The <strong>£{refundable}</strong> paid by card is not refunded here: the office is told, and refunds it.</p>
      )}
      <Form<CancelInput>
        initialValues={{ reason: '', refund: paid === null ? undefined : 'yes', refund_amount: '' }}
        validate={(v) => ({ ...cancelErrors(v, paidPence), ...(same(v) ? server : {}) })}
        onSubmit={(v) => { setSent(v); actor.send({ type: 'action.confirm', action: { kind: 'cancel', cancel: v } }); }}
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

/**
 * A journey on account, completed or a no-show (issue 44): what it is charged, changed with the reason. When its month
 * is invoiced already the server issues a credit or debit note (the issued invoice never changes), and says its number.
 */
function ChargeDialog({ page, onClose }: { page: BookingPage; onClose: () => void }) {
  const actor = useOperatorRef();
  const server = useServerFieldErrors();
  const [sent, setSent] = useState<ChargeInput | null>(null);
  const same = (v: ChargeInput) => sent !== null && v.amount === sent.amount && v.reason === sent.reason;
  const reference = page.booking.booking.booking_number;
  const account = page.desk.account?.name ?? 'the account';
  return (
    <ConfirmDialog title={`Change the charge of ${reference}`} onClose={onClose}>
      <p>
        {account} is charged <strong>£{page.booking.booking.total_booking_amount}</strong> for this journey. If its month is invoiced already, the invoice
        stays as issued and a credit or debit note for the difference goes on the account&apos;s next invoice.
      </p>
      <Form<ChargeInput>
        initialValues={{ amount: '', reason: '' }}
        validate={(v) => ({ ...chargeErrors(v), ...(same(v) ? server : {}) })}
        onSubmit={(v) => { setSent(v); actor.send({ type: 'action.confirm', action: { kind: 'adjustCharge', charge: v } }); }}
        render={({ handleSubmit }) => (
          <form onSubmit={handleSubmit} noValidate className="op-form" aria-label="New charge">
            <TextField name="amount" label="New charge (£)" hint="0 waives the charge." autoComplete="off" required />
            <TextField name="reason" label="Reason" type="textarea" hint="The account is sent it on the note." required />
            <ServerError fields={['amount', 'reason']} />
            <Buttons confirm="Change charge" onClose={onClose} submit />
          </form>
        )}
      />
    </ConfirmDialog>
  );
}
