// The change form of a passenger's booking (issue 27): the passenger's name, phone and e-mail, the flights, the
// words on the meet-and-greet sign, the notes, and the pickup date and time. Its rules are the API's
// (src/domain/manageChanges.ts changeErrors); a refusal from the server shows under the field it names. A new pickup
// time says, before anything is saved, what it does to the deadlines (issue 39: a later one moves neither).
import { Field, Form, FormSpy } from 'react-final-form';
import { useSettings } from '../../appActor';
import { TextField } from '../../components/TextField';
import { DateField, RequiredMark } from '../../components/fields';
import { HOUR_OPTIONS, MINUTE_OPTIONS } from '../../../domain/forms';
import { changeErrors, CHANGE_LABELS, MAX_EMAIL_CHANGES, pickupOfValues, type ChangeValues } from '../../../domain/manageChanges';
import { moveWords } from '../../../domain/manageRules';
import type { Settings } from '../../../domain/settings';
import { formatPhone, isPhone } from '../../../domain/phone';
import { ukToday } from '../../../domain/ukTime';
import type { ManagePage } from '../../../../machines/manage';
import { useManage, useManageRef } from './manageActor';

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
            {error && <p className="banner-error" role="alert">{error.message}</p>}
            <fieldset className="fieldset">
              <legend>Passenger</legend>
              <TextField name="passenger_name" label={CHANGE_LABELS.passenger_name} autoComplete="name" required />
              <ServerError name="passenger_name" errors={serverErrors} />
              <TextField name="passenger_phone" label={CHANGE_LABELS.passenger_phone} type="tel" autoComplete="tel" required
                hint="The driver calls this number if needed." />
              <ServerError name="passenger_phone" errors={serverErrors} />
              <TextField name="passenger_email" label={CHANGE_LABELS.passenger_email} type="email" autoComplete="email" required
                hint={`Where we send this booking's e-mails. We tell the old address too. It can be changed ${MAX_EMAIL_CHANGES} times at most.`} />
              <ServerError name="passenger_email" errors={serverErrors} />
            </fieldset>
            <fieldset className="fieldset">
              <legend>Pickup date and time (UK time)</legend>
              <DateField name="pickup_date" label={CHANGE_LABELS.pickup_date} min={ukToday()} required />
              <ServerError name="pickup_date" errors={serverErrors} />
              <TimeFields />
              <ServerError name="pickup_hour" errors={serverErrors} />
              <MoveWords page={page} settings={settings} />
              <p className="field-hint">When the clocks go back, 1am to 1:59am happens twice: the time booked is the second one (GMT). When they go forward, those times do not exist.</p>
            </fieldset>
            <fieldset className="fieldset">
              <legend>Travel and the driver</legend>
              <TextField name="flight_no" label={CHANGE_LABELS.flight_no} hint="The driver follows your flight and waits after it lands." />
              <ServerError name="flight_no" errors={serverErrors} />
              {m.has_return && <TextField name="return_flight_no" label={CHANGE_LABELS.return_flight_no} />}
              {m.meet_and_greet && (
                <>
                  <TextField name="sign_text" label={CHANGE_LABELS.sign_text} hint={`Empty: the passenger's name (${page.booking.passengerDetails.passenger_name}).`} />
                  <ServerError name="sign_text" errors={serverErrors} />
                </>
              )}
              <TextField name="additional_info" label={CHANGE_LABELS.additional_info} type="textarea" />
              <ServerError name="additional_info" errors={serverErrors} />
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

/** What the new pickup time does to the deadlines (src/domain/manageRules.ts moveWords), as the time is chosen. */
function MoveWords({ page, settings }: { page: ManagePage; settings: Settings }) {
  const times = { pickupAt: new Date(page.manage.pickup_at), originalPickupAt: new Date(page.manage.original_pickup_at) };
  return (
    <FormSpy<ChangeValues> subscription={{ values: true }}>
      {({ values }) => {
        const to = pickupOfValues(values);
        const words = to ? moveWords(times, to, settings, new Date()) : null;
        return <p className="field-hint" aria-live="polite">{words ? <strong>{words}</strong> : null}</p>;
      }}
    </FormSpy>
  );
}

/** What the server refused in a field, when the form's own rules let it through (a time that became too soon). */
function ServerError({ name, errors }: { name: keyof ChangeValues; errors: Partial<Record<keyof ChangeValues, string>> }) {
  return errors[name] ? <p className="field-error" role="alert" id={`${name}-server-error`}>{errors[name]}</p> : null;
}

function TimeFields() {
  return (
    <Field<string> name="pickup_hour" subscription={{ error: true }}>
      {({ meta }) => {
        const error = meta.error as string | undefined;
        const describedBy = error ? 'pickup_hour-error' : undefined;
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
                  <select aria-label="Pickup minutes" {...input}>
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
