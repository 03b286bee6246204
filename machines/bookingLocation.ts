// Where the booking wizard is, as the address bar shows it: the screen its state names in `meta`, that screen's
// path (home keeps the path it was opened by), and the card page's query.
import { encode } from '../src/domain/encoding';
import { penceToPounds } from '../src/domain/money';
import { pathOfScreen, type Location } from '../src/domain/screens';
import { amountPence } from './bookingContext';
import type { BookingSnapshot } from './booking';
import type { Step } from './bookingSteps';

/** The screen the machine's state shows, as its meta says (null while it routes). */
export function currentStep(s: BookingSnapshot): Step | null {
  for (const meta of Object.values(s.getMeta())) if (meta?.screen) return meta.screen;
  return null;
}

/** The path of the machine's state. */
export function pathOf(s: BookingSnapshot): string | null {
  const step = currentStep(s);
  if (step === null) return null;
  return step === 'home' ? s.context.homePath : pathOfScreen(step);
}

/**
 * The URL of the machine's state: the web layer pushes this to the address bar. SPEC 2: the card page carries the
 * provider's key and the amount, both encoded, once it has the key. (Only written, never read back: a key in a link
 * is not trusted; the page asks the server for it.)
 */
export function bookingLocation(s: BookingSnapshot): Location | null {
  const path = pathOf(s);
  if (path === null) return null;
  if (currentStep(s) !== 'card' || !s.context.cardKey) return { path, search: '' };
  const query = new URLSearchParams({ stripeKey: encode(s.context.cardKey), amount: encode(penceToPounds(amountPence(s.context))) });
  return { path, search: `?${query}` };
}
