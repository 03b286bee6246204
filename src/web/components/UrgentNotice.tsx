// SPEC 8: the 'Urgent Booking!' notice for pickups inside the grace period or at a banned address.
import { useSettings } from '../bookingActor';
import { graceText } from '../../domain/settings';
import { telHref } from './SiteBar';
import { Dialog } from './Dialog';

export function UrgentNotice({ onClose }: { onClose: () => void }) {
  const settings = useSettings();
  const phone = settings.Company_Contact_Info;
  const hoursText = graceText(settings);
  return (
    <Dialog title="Urgent Booking!" onClose={onClose} tone="info" closeLabel="Close">
      <p>Online bookings must be made at least {hoursText} before pickup.</p>
      <p>
        For a sooner pickup please call us{phone ? <> on <a href={telHref(phone)}>{phone}</a></> : ''},
        or send your journey with the quotation form and we will get back to you.
      </p>
    </Dialog>
  );
}
