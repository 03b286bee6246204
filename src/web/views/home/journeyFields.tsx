// The journey's fields that the website's quote form (./DistanceForm.tsx) and the console's New booking
// (views/operator/NewBookingView.tsx, issue 43) share: a leg's time, its counts and extras, and the return leg that
// starts as the outbound one and follows its date.
import { useEffect, type RefObject } from 'react';
import { DateField } from '../../components/fields';
import { TextField } from '../../components/TextField';
import { ukToday } from '../../../domain/ukTime';
import { useForm } from 'react-final-form';
import { HOUR_OPTIONS, MINUTE_OPTIONS, needsTravelReference, returnDateFollowingPickup, returnLegFromOutbound, type BookingFormDraft } from '../../../domain/forms';
import { EXTRAS, extraOffered, type Extra, type ExtraKey } from '../../../domain/extras';
import { ChoiceSelect, CountSelect, YesNoCheckbox } from '../../components/fields';

const hours = HOUR_OPTIONS.map((h) => ({ value: h.value, label: h.label }));
const minutes = MINUTE_OPTIONS.map((m) => ({ value: m, label: m }));

export function TimeFields({ prefix, legend }: { prefix: 'pickup' | 'return'; legend: string }) {
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
export function LegOptions({ p, settings }: { p: '' | 'return_'; settings: Record<string, string> }) {
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
export function StartAsOutbound({ chosen }: { chosen: RefObject<boolean> }) {
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
export function ReturnFollowsPickup({ pickupDate, isReturn }: { pickupDate: string | undefined; isReturn: boolean }) {
  const form = useForm<BookingFormDraft>();
  useEffect(() => {
    const values = form.getState().values;
    const next = returnDateFollowingPickup(values);
    if (next !== values.return_date) form.change('return_date', next);
  }, [pickupDate, isReturn, form]);
  return null;
}

/** The return leg's fields: its date and time, its travel reference where the drop-off needs one, its counts and extras. */
export function ReturnLeg({ values, settings, chosen }: { values: BookingFormDraft; settings: Record<string, string>; chosen: RefObject<boolean> }) {
  return (
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
      <StartAsOutbound chosen={chosen} />
    </section>
  );
}
