// The booking wizard's guards (./booking.ts), and where a location lands (SPEC 2's step guards, ./bookingSteps.ts).
import type { BookingResponse, CheckEmailResponse } from '../src/domain/schemas';
import { allowsGuests, showsCard, showsPayInCar } from '../src/domain/settings';
import { isUrgentBookingError } from '../src/domain/messages';
import { AddressError } from '../src/domain/places';
import { AccountFieldError, bookingFieldErrors } from '../src/domain/accountPayment';
import { landingStep, type Step } from './bookingSteps';
import { errorText } from './shared';
import type { BookingContext, BookingEvent } from './bookingContext';

interface Args { context: BookingContext; event: BookingEvent }

export const landsOn = (step: Step) => ({ type: 'landsOn' as const, params: { step } });
/** Where a location lands: the state of the screen landingStep chooses (each screen's state is named after it). */
const LANDINGS: readonly Exclude<Step, 'home'>[] = ['success', 'card', 'payment', 'checkout', 'details', 'quotation', 'quote', 'forgotPassword'];
export const routes = (prefix: '' | '.') => [
  ...LANDINGS.map((step) => ({ guard: landsOn(step), target: `${prefix}${step}` })),
  { target: `${prefix}home`, actions: 'assignHomePath' as const },
];

export const bookingGuards = {
  landsOn: ({ context, event }: Args, params: { step: Step }) => {
    const path = event.type === 'url.changed' ? event.path : context.requestedPath;
    return landingStep(context, path) === params.step;
  },
  /** SPEC 4 step 2: the price errors that open the urgent-booking notice. */
  isUrgentError: (_: Args, { error }: { error: unknown }) => isUrgentBookingError(errorText(error)),
  /** Decision 23: the server refused an address of the form; the form shows it, not a dialog. */
  isAddressError: (_: Args, { error }: { error: unknown }) => error instanceof AddressError,
  isGuest: ({ event }: Args) => event.type === 'details.submit' && event.mode === 'guest_login',
  /** GUEST_LOGIN: a guest booking is offered unless the operator turned it off; a signed-in passenger books as themself. */
  guestAllowed: ({ context }: Args) => allowsGuests(context.settings) || context.session !== null,
  /** SHOWPAYINCAR (SPEC 9). */
  payInCarAllowed: ({ context }: Args) => showsPayInCar(context.settings),
  /** SHOWCARD (SPEC 9). */
  cardAllowed: ({ context }: Args) => showsCard(context.settings),
  /** SPEC 4 'Email check': an existing client must be found with that password; a new client must not exist yet. */
  emailAccepted: ({ context }: Args, r: CheckEmailResponse) =>
    (context.registrationMode === 'existing_client' ? r.success === true : r.found === false),
  bookingSucceeded: (_: Args, r: BookingResponse) => r.success === true,
  /** Issue 44: an active account's booker, every required field filled and every value one the account takes. */
  accountPayable: ({ context, event }: Args) => event.type === 'payment.payOnAccount' && context.billing?.status === 'active'
    && Object.keys(bookingFieldErrors(context.billing.fields, event.fields)).length === 0,
  /** The booking call refused a value of the account's fields: shown under it, not in a dialog. */
  isAccountFieldError: (_: Args, { error }: { error: unknown }) => error instanceof AccountFieldError,
  quoteSent: (_: Args, r: { success: boolean }) => r.success === true,
};
