// Stops on the way (SPEC 3 'stops', SPEC 5: street name, number, postcode; top 5 suggestions).
import { Field } from 'react-final-form';
import type { FormApi } from 'final-form';
import type { BookingFormDraft } from '../../../domain/forms';
import { AddressInput } from '../../components/AddressInput';
import { TextField } from '../../components/TextField';
import { refusalFor, type AddressProblem } from '../../../../machines/bookingContext';
import { stopText } from '../../../domain/places';

export const MAX_STOPS = 5;

/**
 * The stops of a journey (the wizard's home form, the console's New booking). Decision 23: a stop the server could not
 * place shows its refusal (`refusal`, the address the server refused) under the stop's street or place.
 */
export function StopsField({ form, stops, refusal }: { form: FormApi<BookingFormDraft>; stops: BookingFormDraft['stops']; refusal: AddressProblem | null }) {
  const set = (next: BookingFormDraft['stops']) => form.change('stops', next);
  return (
    <div className="stops">
      {stops.map((stop, i) => (
        <fieldset key={i} className="stop" aria-label={`Stop ${i + 1}`}>
          <legend>Stop {i + 1}</legend>
          <Field<string> name={`stops[${i}].street_name`}>
            {({ input, meta }) => (
              <AddressInput id={`stops-${i}-street_name`} label="Street name or place" value={input.value} limit={5}
                error={meta.touched ? meta.error : undefined} refusal={refusalFor(refusal, `stops.${i}`, stopText(stop))}
                onChange={input.onChange} onBlur={() => input.onBlur()} />
            )}
          </Field>
          <div className="row">
            <TextField name={`stops[${i}].number`} label="Number" />
            <TextField name={`stops[${i}].postcode`} label="Postcode" autoComplete="postal-code" />
          </div>
          <button type="button" className="link-button" onClick={() => set(stops.filter((__, j) => j !== i))}>
            Remove stop {i + 1}
          </button>
        </fieldset>
      ))}
      {stops.length < MAX_STOPS && (
        <button type="button" className="link-button" onClick={() => set([...stops, { street_name: '', number: '', postcode: '' }])}>
          + Add a stop
        </button>
      )}
    </div>
  );
}
