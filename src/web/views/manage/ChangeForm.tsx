// The change form of a passenger's booking (issue 27): the passenger's name, phone and e-mail, the flights, the
// words on the meet-and-greet sign, the notes, and the pickup date and time. Its rules are the API's
// (src/domain/manageChanges.ts changeErrors); a refusal from the server shows under the field it names. A new pickup
// time says, before anything is saved, what it does to the deadlines (issue 39: a later one moves neither), in a notice
// the date and time fields are described by.
import { Field, Form, useFormState, type FieldRenderProps } from 'react-final-form';
import { useSettings } from '../../appActor';
import { TextField } from '../../components/TextField';
import { RequiredMark } from '../../components/fields';
import { useSettledError } from '../../components/settledError';
import { HOUR_OPTIONS, MINUTE_OPTIONS } from '../../../domain/forms';
import { changeErrors, CHANGE_LABELS, MAX_EMAIL_CHANGES, pickupOfValues, type ChangeValues } from '../../../domain/manageChanges';
import { moveWords } from '../../../domain/manageRules';
import type { Settings } from '../../../domain/settings';
import { formatPhone, isPhone } from '../../../domain/phone';
import { ukToday } from '../../../domain/ukTime';
import type { ManagePage } from '../../../../machines/manage';
import { useManage, useManageRef } from './manageActor';
import { Refusal } from './Office';

export function ChangeForm({ page }: { page: ManagePage }) {
  const manage = useManageRef();
  const settings = useSettings();
  const draft = useManage((s) => s.context.draft);
  const saving = useManage((s) => s.matches({ booking: 'saving' }));
  const serverErrors = useManage((s) => s.context.fieldErrors) as Partial<Record<keyof ChangeValues, string>>;
  const error = useManage((s) => s.context.error);
  const m = page.manage;
  const initial: ChangeValues = draft ?? { ...m.form, passenger_phone: formatPhone(m.form.passenger_phone) || m.form.passenger_phone };
  const phone = settings.Company_Contact_Info?.trim();
  return (
    <section className="panel" aria-labelledby="change-title">
      <h2 id="change-title" className="panel-title">Change your booking</h2>
      <p className="muted">Change what you need, then save. A new pickup time is priced again; you see any new price before anything is saved. Changes are possible until {m.change_until} (UK time).</p>
      <Form<ChangeValues>
        initialValues={initial}
        validate={(v) => changeErrors(v, isPhone)}
        onSubmit={(values) => { manage.send({ type: 'change.submit', values }); }}
        render={({ handleSubmit }) => (
          <form noValidate onSubmit={handleSubmit} className="change-form">
            {error && <p className="banner-error" role="alert"><Refusal message={error.message} settings={settings} /></p>}
            <fieldset className="fieldset">
              <legend>Passenger</legend>
              <TextField name="passenger_name" label={CHANGE_LABELS.passenger_name} autoComplete="name" required />
              <ServerError settings={settings} name="passenger_name" errors={serverErrors} />
              <TextField name="passenger_phone" label={CHANGE_LABELS.passenger_phone} type="tel" autoComplete="tel" required
                hint="The driver calls this number if needed." />
              <ServerError settings={settings} name="passenger_phone" errors={serverErrors} />
              <TextField name="passenger_email" label={CHANGE_LABELS.passenger_email} type="email" autoComplete="email" required
                hint={`Where we send this booking's e-mails. We tell the old address too. It can be changed ${MAX_EMAIL_CHANGES} times at most.`} />
              <ServerError settings={settings} name="passenger_email" errors={serverErrors} />
            </fieldset>
            <fieldset className="fieldset">
              <legend>Pickup date and time (UK time)</legend>
              <PickupFields page={page} settings={settings} serverErrors={serverErrors} />
              <p className="field-hint">When the clocks go back, 1am to 1:59am happens twice: the time booked is the second one (GMT). When they go forward, those times do not exist.</p>
            </fieldset>
            <fieldset className="fieldset">
              <legend>Travel and the driver</legend>
              <TextField name="flight_no" label={CHANGE_LABELS.flight_no} hint="The driver follows your flight and waits after it lands." />
              <ServerError settings={settings} name="flight_no" errors={serverErrors} />
              {m.has_return && <TextField name="return_flight_no" label={CHANGE_LABELS.return_flight_no} />}
              {m.meet_and_greet && (
                <>
                  <TextField name="sign_text" label={CHANGE_LABELS.sign_text} hint={`Empty: the passenger's name (${page.booking.passengerDetails.passenger_name}).`} />
                  <ServerError settings={settings} name="sign_text" errors={serverErrors} />
                </>
              )}
              <TextField name="additional_info" label={CHANGE_LABELS.additional_info} type="textarea" />
              <ServerError settings={settings} name="additional_info" errors={serverErrors} />
            </fieldset>
            <div className="button-row">
              <button type="submit" className="btn btn-primary" disabled={saving}>{saving ? 'Saving...' : 'Save changes'}</button>
              <button type="button" className="btn btn-secondary" disabled={saving} onClick={() => manage.send({ type: 'edit.close' })}>Discard changes</button>
            </div>
            <p className="sr-only" role="status">{saving ? 'Saving your change' : ''}</p>
            {phone && <p className="muted">Something else to change, like the addresses or the vehicle? Call us on {phone}.</p>}
          </form>
        )}
      />
    </section>
  );
}

const MOVE_WORDS_ID = 'pickup-move-words';
/** The ids an input is described by, or none. */
const ids = (...list: (string | false | undefined)[]) => list.filter(Boolean).join(' ') || undefined;

/**
 * The pickup date and time, and what the new time does to the deadlines (src/domain/manageRules.ts moveWords) as it is
 * chosen: a notice of its own (it is about money), which the date and time fields are described by while it shows.
 */
function PickupFields({ page, settings, serverErrors }: { page: ManagePage; settings: Settings; serverErrors: Partial<Record<keyof ChangeValues, string>> }) {
  const { values } = useFormState<ChangeValues>({ subscription: { values: true } });
  const m = page.manage;
  const times = { pickupAt: new Date(m.pickup_at), originalPickupAt: new Date(m.original_pickup_at) };
  const to = pickupOfValues(values);
  const words = to ? moveWords(times, to, settings, new Date(), m.booked_at ? new Date(m.booked_at) : null) : null;
  const note = words ? MOVE_WORDS_ID : undefined;
  return (
    <>
      <Field<string> name="pickup_date">{(field) => <PickupDate {...field} describedBy={note} />}</Field>
      <ServerError settings={settings} name="pickup_date" errors={serverErrors} />
      <TimeFields describedBy={note} />
      <ServerError settings={settings} name="pickup_hour" errors={serverErrors} />
      <div className="move-words" aria-live="polite">
        {words && <p id={MOVE_WORDS_ID} className="banner-info">{words}</p>}
      </div>
    </>
  );
}

/** The pickup date (as the site's DateField, described by the deadline notice too). */
function PickupDate({ input, meta, describedBy }: FieldRenderProps<string> & { describedBy?: string }) {
  const error = useSettledError(meta.touched && meta.error ? (meta.error as string) : undefined);
  return (
    <div className="field">
      <label htmlFor="pickup_date">{CHANGE_LABELS.pickup_date}<RequiredMark /></label>
      <input id="pickup_date" type="date" min={ukToday()} {...input} aria-invalid={error ? true : undefined} aria-required
        aria-describedby={ids(error && 'pickup_date-error', describedBy)} />
      {error && <p className="field-error" id="pickup_date-error">{error}</p>}
    </div>
  );
}

/**
 * What the server refused in a field, when the form's own rules let it through (a time that became too soon, a 429);
 * when it asks the passenger to call us, with the office's phone and e-mail.
 */
function ServerError({ name, errors, settings }: { name: keyof ChangeValues; errors: Partial<Record<keyof ChangeValues, string>>; settings: Settings }) {
  return errors[name] ? <p className="field-error" role="alert" id={`${name}-server-error`}><Refusal message={errors[name]} settings={settings} /></p> : null;
}

function TimeFields({ describedBy: note }: { describedBy?: string }) {
  return (
    <Field<string> name="pickup_hour" subscription={{ error: true }}>
      {({ meta }) => {
        const error = meta.error as string | undefined;
        const describedBy = ids(error && 'pickup_hour-error', note);
        return (
          <div className="field">
            <span className="field-label" id="pickup-time-label">Pickup time<RequiredMark /></span>
            <div className="time-row" role="group" aria-labelledby="pickup-time-label">
              <Field<string> name="pickup_hour">
                {({ input }) => (
                  <select aria-label="Pickup hour" {...input} aria-invalid={error ? true : undefined} aria-describedby={describedBy}>
                    {HOUR_OPTIONS.map((h) => <option key={h.value} value={h.value}>{h.label}</option>)}
                  </select>
                )}
              </Field>
              <span aria-hidden="true">:</span>
              <Field<string> name="pickup_min">
                {({ input }) => (
                  <select aria-label="Pickup minutes" {...input} aria-describedby={note}>
                    {MINUTE_OPTIONS.map((m) => <option key={m} value={m}>{m}</option>)}
                  </select>
                )}
              </Field>
            </div>
            {error && <p className="field-error" id="pickup_hour-error">{error}</p>}
          </div>
        );
      }}
    </Field>
  );
}
