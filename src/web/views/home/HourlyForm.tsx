// The 'Hourly Rate' form (SPEC 3 'Hourly form', SPEC 5): saved on every change, restored when it opens.
import { useState } from 'react';
import { Field, Form, FormSpy } from 'react-final-form';
import { create } from 'superstruct';
import { HourlyRateForm } from '../../../domain/schemas';
import { MINUTE_OPTIONS } from '../../../domain/forms';
import { HOURLY_DURATIONS, HOURLY_HOUR_OPTIONS, restoreHourlyForm, validateHourlyForm } from '../../../domain/hourlyForm';
import { graceMinutes } from '../../../domain/settings';
import { ukToday } from '../../../domain/ukTime';
import { BookingActor, useSettings } from '../../bookingActor';
import { refusalFor } from '../../../../machines/booking';
import { AddressInput } from '../../components/AddressInput';
import { ChoiceSelect, DateField } from '../../components/fields';
import { useBrowserLocation } from '../../hooks';

export function HourlyForm({ pricing }: { pricing: boolean }) {
  const actor = BookingActor.useActorRef();
  const saved = BookingActor.useSelector((s) => s.context.hourlyForm);
  // Decision 23: the server's refusal of the pickup, while the field holds the text it refused.
  const refusal = BookingActor.useSelector((s) => s.context.addressError);
  // SPEC 7's userLocation, asked for on the first gesture in the form (decision 30).
  const [location, askLocation] = useBrowserLocation();
  const settings = useSettings();
  const [initial] = useState<HourlyRateForm>(() => restoreHourlyForm(saved, graceMinutes(settings)));

  return (
    <Form<HourlyRateForm>
      initialValues={initial}
      validate={(v) => validateHourlyForm(v)}
      onSubmit={(values) => {
        actor.send({ type: 'home.submit', bookingType: 'hourly', form: create({ ...values, userLocation: location }, HourlyRateForm) });
      }}
      render={({ handleSubmit }) => (
        <form className="quote-form" onSubmit={handleSubmit} noValidate aria-label="Hourly hire" onFocus={askLocation} onPointerDown={askLocation}>
          <FormSpy subscription={{ values: true }} onChange={({ values }) => {
            actor.send({ type: 'home.hourlyChanged', form: { ...(values as HourlyRateForm), userLocation: location } });
          }} />
          <Field<string> name="pickup">
            {({ input, meta }) => (
              <AddressInput id="hourly-pickup" label="Pickup address" placeholder="Where should the driver meet you?" value={input.value}
                error={meta.touched ? meta.error : undefined} refusal={refusalFor(refusal, 'pickup', input.value)}
                onChange={input.onChange} onBlur={() => input.onBlur()} required />
            )}
          </Field>
          <div className="row">
            <ChoiceSelect name="pickup_duration" label="Duration" options={HOURLY_DURATIONS.map((d) => ({ value: d, label: `${parseInt(d, 10)} hours` }))} />
            <DateField name="pickup_date" label="Pickup date" required min={ukToday()} />
          </div>
          <fieldset className="field time-field">
            <legend>Pickup time</legend>
            <div className="time-selects">
              <ChoiceSelect name="pickup_hour" ariaLabel="Pickup time hour" options={HOURLY_HOUR_OPTIONS} />
              <span aria-hidden="true">:</span>
              <ChoiceSelect name="pickup_min" ariaLabel="Pickup time minute" options={MINUTE_OPTIONS.map((m) => ({ value: m, label: m }))} />
            </div>
          </fieldset>
          <p className="muted small">Your chauffeur and vehicle stay with you for the whole time, with as many stops as you like.</p>
          <button type="submit" className="btn btn-primary btn-block" disabled={pricing}>Get prices</button>
        </form>
      )}
    />
  );
}
