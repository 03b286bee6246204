// A job's "found item" (issue 43 §3): the button that opens the form when the driver's machine offers it (the
// passenger has been on board), and the form itself, run by machines/driverFoundItem.ts (the job's `foundItem`
// child): what was found and where in the car, each refusal under its field, then sent to the office.
import { useState, type FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { driverFoundItemMachine } from '../../../../machines/driverFoundItem';
import { RequiredMark } from '../../components/fields';
import type { DriverJob } from '../../../../machines/driver';
import { useDriver, useDriverRef } from './driverActor';

type FoundRef = ActorRefFrom<typeof driverFoundItemMachine>;

export function FoundItem({ job }: { job: DriverJob }) {
  const actor = useDriverRef();
  const offered = useDriver((s) => s.can({ type: 'found.start' }));
  const form = useDriver((s) => (s.matches({ signedIn: { job: 'reportingFound' } }) ? s.children.foundItem as FoundRef | undefined : undefined));
  if (form) return <FoundItemForm form={form} />;
  // Shown on every job the server says may take one; pressed only when the page can act on it (not while a step is saved).
  if (!job.can_report_found) return null;
  return (
    <section className="drv-card drv-section" aria-labelledby="drv-found-title">
      <h2 id="drv-found-title" className="drv-section-title">Something left in the car?</h2>
      <p className="drv-muted">Tell the office what you found: it keeps it on record and finds the owner.</p>
      <button type="button" className="btn btn-secondary drv-btn" disabled={!offered} onClick={() => actor.send({ type: 'found.start' })}>Report a found item</button>
    </section>
  );
}

function FoundItemForm({ form }: { form: FoundRef }) {
  const sending = useSelector(form, (s) => s.matches('sending'));
  const fieldErrors = useSelector(form, (s) => s.context.fieldErrors);
  const error = useSelector(form, (s) => s.context.error?.message ?? null);
  const [description, setDescription] = useState('');
  const [place, setPlace] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    form.send({ type: 'found.submit', description, found_place: place });
  };
  const describedBy = (field: 'description' | 'found_place') => (fieldErrors[field] ? `drv-found-${field}-error` : undefined);
  return (
    <section className="drv-card drv-section" aria-labelledby="drv-found-title">
      <h2 id="drv-found-title" className="drv-section-title">Item found in the car</h2>
      <form className="drv-form" onSubmit={submit} noValidate>
        {error && <p className="banner-error" role="alert">{error}</p>}
        <div className="field drv-field">
          <label htmlFor="drv-found-description">What did you find?<RequiredMark /></label>
          <textarea
            id="drv-found-description" rows={3} value={description} onChange={(e) => setDescription(e.target.value)} aria-required="true"
            aria-invalid={fieldErrors.description ? true : undefined} aria-describedby={describedBy('description')}
          />
          {fieldErrors.description && <p className="field-error" id="drv-found-description-error">{fieldErrors.description}</p>}
        </div>
        <div className="field drv-field">
          <label htmlFor="drv-found-place">Where in the car?</label>
          <input
            id="drv-found-place" value={place} onChange={(e) => setPlace(e.target.value)} placeholder="e.g. back seat, boot"
            aria-invalid={fieldErrors.found_place ? true : undefined} aria-describedby={describedBy('found_place')}
          />
          {fieldErrors.found_place && <p className="field-error" id="drv-found-found_place-error">{fieldErrors.found_place}</p>}
        </div>
        <button type="submit" className="btn btn-primary drv-btn" disabled={sending} aria-busy={sending || undefined}>
          {sending ? 'Sending...' : 'Send to the office'}
        </button>
        <button type="button" className="btn btn-secondary drv-btn" disabled={sending} onClick={() => form.send({ type: 'found.cancel' })}>Cancel</button>
      </form>
    </section>
  );
}
