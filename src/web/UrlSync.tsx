// The URL follows the machine. A location change made by the browser (typed
// URL, Back/Forward, a link) becomes one `url.changed` event; where the
// machine lands is then written back, replacing the entry when a guard
// redirected, pushing a new one when the machine moved on its own.
import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { pathOf } from '../../machines/booking';
import { BookingActor } from './bookingActor';

export function UrlSync() {
  const actor = BookingActor.useActorRef();
  const machinePath = BookingActor.useSelector(pathOf);
  const [location, navigate] = useLocation();
  const agreed = useRef<string | null>(null);

  useEffect(() => {
    let path = pathOf(actor.getSnapshot());
    if (path === null) return;
    let replace = false;
    if (location !== agreed.current && location !== path) {
      actor.send({ type: 'url.changed', path: location });
      path = pathOf(actor.getSnapshot())!;
      replace = true;
    }
    agreed.current = path;
    if (path !== location) navigate(path, { replace });
  }, [actor, location, machinePath, navigate]);

  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, [machinePath]);

  return null;
}
