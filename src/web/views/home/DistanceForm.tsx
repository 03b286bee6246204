// The 'GET A QUOTE' form (SPEC 3 'Booking form', SPEC 5 'Home form').
import { useEffect, useRef, useState, type RefObject } from 'react';
import { Field, Form, FormSpy, useForm } from 'react-final-form';
import type { FormApi } from 'final-form';
import { create } from 'superstruct';
import { BookingForm } from '../../../domain/schemas';
import {
  HOUR_OPTIONS, MINUTE_OPTIONS, needsTravelReference, restoreBookingForm, returnDateFollowingPickup, returnLegFromOutbound,
  validateBookingForm,
  type BookingFormDraft,
} from '../../../domain/forms';
import { graceMinutes } from '../../../domain/settings';
import { EXTRAS, extraOffered, type Extra, type ExtraKey } from '../../../domain/extras';
import { ukToday } from '../../../domain/ukTime';
import { BookingActor, useSettings } from '../../bookingActor';
import { refusalFor } from '../../../../machines/booking';
import { AddressInput } from '../../components/AddressInput';
import { ChoiceSelect, CountSelect, DateField, YesNoCheckbox } from '../../components/fields';
import { TextField } from '../../components/TextField';
import { StopsField } from './StopsField';
import { useBrowserLocation } from '../../hooks';

const hours = HOUR_OPTIONS.map((h) => ({ value: h.value, label: h.label }));
const minutes = MINUTE_OPTIONS.map((m) => ({ value: m, label: m }));

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

function TimeFields({ prefix, legend }: { prefix: 'pickup' | 'return'; legend: string }) {
  return (
    <fieldset className="field time-field">
      <legend>{legend}</legend>
      <div className="time-selects">
        <ChoiceSelect name={`${prefix}_hour`} ariaLabel={`${legend} hour`} options={hours} />
        <span aria-hidden="true">:</span>
        <ChoiceSelect name={`${prefix}_min`} ariaLabel={`${legend} minute`} options={minutes} />
      </div>
    </fieldset>
  );
}

/** What an extra asked yes or no means, beside its box. */
const YES_NO_HINTS: Partial<Record<ExtraKey, string>> = { meet_and_greet: '(driver waits in arrivals with a name board)' };

/** Counts and extras of one leg; `p` is '' for the outbound leg and 'return_' for the return. */
function LegOptions({ p, settings }: { p: '' | 'return_'; settings: Record<string, string> }) {
  const who = p ? 'Return ' : '';
  const lc = (s: string) => (p ? s.toLowerCase() : s);
  const offered = EXTRAS.filter((e) => extraOffered(settings, e.key));
  const counted = offered.filter((e): e is Extract<Extra, { max: number }> => e.kind !== 'yesno');
  return (
    <>
      <div className="row row-3">
        <CountSelect name={`${p}passengers`} label={`${who}${lc('Passengers')}`} max={50} />
        <CountSelect name={`${p}luggages`} label={`${who}${lc('Luggage')}`} max={20} />
        <CountSelect name={`${p}hand_luggages`} label={`${who}${lc('Hand luggage')}`} max={20} />
      </div>
      {counted.length > 0 && (
        <div className="row row-3">
          {counted.map((e) => (
            <CountSelect key={e.key} name={`${p}${e.key}`} label={`${who}${lc(e.label)}`} max={e.max} step={e.kind === 'minutes' ? e.step : undefined} />
          ))}
        </div>
      )}
      {offered.filter((e) => e.kind === 'yesno').map((e) => (
        <YesNoCheckbox key={e.key} name={`${p}${e.key}`} label={`${who}${lc(e.label)}`} hint={YES_NO_HINTS[e.key]} />
      ))}
    </>
  );
}

/**
 * Mounted with the return leg: when the visitor has just chosen return, the leg's counts and extras start as the
 * outbound ones (decision 20). It runs once the leg's fields are mounted, because react-final-form gives a field that
 * mounts its initial value; it runs again on StrictMode's second mount, to the same effect.
 */
function StartAsOutbound({ chosen }: { chosen: RefObject<boolean> }) {
  const form = useForm<BookingFormDraft>();
  useEffect(() => {
    if (!chosen.current) return;
    form.batch(() => {
      for (const [k, v] of Object.entries(returnLegFromOutbound(form.getState().values))) form.change(k as keyof BookingFormDraft, v);
    });
  }, [chosen, form]);
  return null;
}

/** Moves the return date along with the pickup date (and fills it when return is chosen), so it is never left before it. */
function ReturnFollowsPickup({ pickupDate, isReturn }: { pickupDate: string | undefined; isReturn: boolean }) {
  const form = useForm<BookingFormDraft>();
  useEffect(() => {
    const values = form.getState().values;
    const next = returnDateFollowingPickup(values);
    if (next !== values.return_date) form.change('return_date', next);
  }, [pickupDate, isReturn, form]);
  return null;
}

export function DistanceForm({ pricing, formRef }: { pricing: boolean; formRef?: (form: FormApi<BookingFormDraft>) => void }) {
  const actor = BookingActor.useActorRef();
  const saved = BookingActor.useSelector((s) => s.context.bookingForm);
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
            <StopsField form={form} stops={values.stops ?? []} />
            <AddressField name="dropoff" label="Drop-off address" placeholder="Where are you going?" />
            <div className="row">
              <DateField name="pickup_date" label="Pickup date" required min={ukToday()} />
              <TimeFields prefix="pickup" legend="Pickup time" />
            </div>
            <LegOptions p="" settings={settings} />
            {isReturn && (
              <section className="return-leg" aria-label="Return journey">
                <h3>Return journey</h3>
                <div className="row">
                  <DateField name="return_date" label="Return date" required min={values.pickup_date || ukToday()} />
                  <TimeFields prefix="return" legend="Return time" />
                </div>
                {needsTravelReference(values.dropoff) && (
                  <TextField name="return_fight_number" label="Return flight, train or ferry number" placeholder="e.g. EZY 8012" />
                )}
                <LegOptions p="return_" settings={settings} />
                <StartAsOutbound chosen={returnChosen} />
              </section>
            )}
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
