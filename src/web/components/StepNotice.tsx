// The wizard's notice (the e-mail found, the password reset) on whichever step the visitor lands on.
import { BookingActor } from '../bookingActor';

export function StepNotice() {
  const notice = BookingActor.useSelector((s) => s.context.notice);
  return notice ? <p className="banner-ok" role="status">{notice}</p> : null;
}
