// SPEC 8: the 'Urgent Booking!' notice for pickups inside the grace period or at a banned address.
import { useSettings } from '../bookingActor';
import { numberSetting } from '../../domain/settings';
import { Dialog } from './Dialog';

export function UrgentNotice({ onClose }: { onClose: () => void }) {
  const settings = useSettings();
  const hours = numberSetting(settings, 'GRACE_TIME') / 60;
  const phone = settings.Company_Contact_Info;
  const hoursText = `${Number.isInteger(hours) ? hours : hours.toFixed(1)} hour${hours === 1 ? '' : 's'}`;
  return (
    <Dialog title="Urgent Booking!" onClose={onClose} tone="info" closeLabel="Close">
      <p>Online bookings must be made at least {hoursText} before pickup.</p>
      <p>
        For a sooner pickup please call us{phone ? <> on <a href={`tel:${phone.replace(/\s+/g, '')}`}>{phone}</a></> : ''},
        or send your journey with the quotation form and we will get back to you.
      </p>
    </Dialog>
  );
}
