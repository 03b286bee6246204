// The 'GET A QUOTE' form (SPEC 3 'Booking form', SPEC 5 'Home form').
import { useRef, useState } from 'react';
import { Field, Form, FormSpy } from 'react-final-form';
import type { FormApi } from 'final-form';
import { create } from 'superstruct';
import { BookingForm } from '../../../domain/schemas';
import { needsTravelReference, restoreBookingForm, validateBookingForm, type BookingFormDraft } from '../../../domain/forms';
import { graceMinutes } from '../../../domain/settings';
import { ukToday } from '../../../domain/ukTime';
import { BookingActor, useSettings } from '../../bookingActor';
import { refusalFor } from '../../../../machines/booking';
import { AddressInput } from '../../components/AddressInput';
import { DateField } from '../../components/fields';
import { LegOptions, ReturnFollowsPickup, ReturnLeg, TimeFields } from './journeyFields';
import { TextField } from '../../components/TextField';
import { StopsField } from './StopsField';
import { useBrowserLocation } from '../../hooks';

/** An address of the trip: the form's own check, else the server's refusal of the text it still holds (decision 23). */
function AddressField({ name, label, placeholder }: { name: 'pickup' | 'dropoff'; label: string; placeholder: string }) {
  const refusal = BookingActor.useSelector((s) => s.context.addressError);
  return (
    <Field<string> name={name}>
      {({ input, meta }) => (
        <AddressInput id={name} label={label} placeholder={placeholder} value={input.value} error={meta.touched ? meta.error : undefined}
          refusal={refusalFor(refusal, name, input.value)} onChange={input.onChange} onBlur={() => input.onBlur()} required />
      )}
    </Field>
  );
}

export function DistanceForm({ pricing, formRef }: { pricing: boolean; formRef?: (form: FormApi<BookingFormDraft>) => void }) {
  const actor = BookingActor.useActorRef();
  const saved = BookingActor.useSelector((s) => s.context.bookingForm);
  const addressRefusal = BookingActor.useSelector((s) => s.context.addressError);
  const settings = useSettings();
  // SPEC 7: the browser location biases maps suggestions; asked for on the first gesture in the form (decision 30).
  const [, askLocation] = useBrowserLocation();
  // Read once: the form keeps its own state while the visitor types.
  const [initial] = useState<BookingFormDraft>(() => restoreBookingForm(saved, graceMinutes(settings)));
  // Set when the visitor chooses return (a saved return trip opens with its own return values).
  const returnChosen = useRef(false);

  return (
    <Form<BookingFormDraft>
      initialValues={initial}
      validate={(v) => validateBookingForm(v) as never}
      onSubmit={(values) => {
        actor.send({ type: 'home.submit', bookingType: 'milleage', form: create(values, BookingForm) });
      }}
      render={({ handleSubmit, form, values }) => {
        formRef?.(form);
        const isReturn = values.select_option === 'return';
        return (
          <form className="quote-form" onSubmit={handleSubmit} noValidate aria-label="Get a quote" onFocus={askLocation} onPointerDown={askLocation}>
            <fieldset className="segmented">
              <legend className="sr-only">Journey</legend>
              <Field name="select_option" type="radio" value="one_way">
                {({ input }) => <label className={input.checked ? 'on' : ''}><input {...input} /> One way</label>}
              </Field>
              <Field name="select_option" type="radio" value="return">
                {({ input }) => (
                  <label className={input.checked ? 'on' : ''}>
                    <input {...input} onChange={(e) => { returnChosen.current = true; input.onChange(e); }} /> Return
                  </label>
                )}
              </Field>
            </fieldset>
            <AddressField name="pickup" label="Pickup address" placeholder="Airport, station, postcode or address" />
            {needsTravelReference(values.pickup) && (
              <TextField name="pickup_fight_number" label="Flight, train or ferry number" placeholder="e.g. BA 117" />
            )}
            <StopsField form={form} stops={values.stops ?? []} refusal={addressRefusal} />
            <AddressField name="dropoff" label="Drop-off address" placeholder="Where are you going?" />
            <div className="row">
              <DateField name="pickup_date" label="Pickup date" required min={ukToday()} />
              <TimeFields prefix="pickup" legend="Pickup time" />
            </div>
            <LegOptions p="" settings={settings} />
            {isReturn && <ReturnLeg values={values} settings={settings} chosen={returnChosen} />}
            <FormSpy subscription={{ submitFailed: true, valid: true }}>
              {({ submitFailed, valid }) => submitFailed && !valid ? <p className="field-error" role="alert">Please check the fields marked above.</p> : null}
            </FormSpy>
            {/* After the return fields: a field gives a value set before it mounts back to its initial one. */}
            <ReturnFollowsPickup pickupDate={values.pickup_date} isReturn={isReturn} />
            <button type="submit" className="btn btn-primary btn-block" disabled={pricing}>Get prices</button>
          </form>
        );
      }}
    />
  );
}
