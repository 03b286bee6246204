// SPEC 2 step guards: where a typed or clicked path lands given the data so far.
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { bookingMachine, landingStep, stepForPath, type BookingContext } from '../../machines/booking';
import { showsNext, stepOfPath } from '../../src/domain/screens';
import { bookingOk, prices, registration } from '../machine/fixtures';

const base = createActor(bookingMachine, { input: { path: '/', settings: {} } }).getSnapshot().context;
const ctx = (over: Partial<BookingContext>): BookingContext => ({ ...base, ...over });
const none = ctx({});
const priced = ctx({ priceDetails: prices });
const chosen = ctx({ priceDetails: prices, selectedVehicle: prices[0] });
const registered = ctx({ priceDetails: prices, selectedVehicle: prices[0], registration });

describe('step guards (SPEC 2)', () => {
  it.each([
    ['/quotationview', none, 'home'],
    ['/quotationview', priced, 'quotation'],
    ['/personalDetailView', none, 'home'],
    ['/personalDetailView', priced, 'quotation'],
    ['/personalDetailView', chosen, 'details'],
    ['/paymentview', none, 'home'],
    ['/paymentview', priced, 'quotation'],
    ['/paymentview', chosen, 'details'],
    ['/paymentview', registered, 'payment'],
    ['/checkout', none, 'home'],
    ['/checkout', priced, 'quotation'],
    ['/checkout', chosen, 'details'],
    ['/checkout', registered, 'checkout'],
    ['/paymentSuccessView', registered, 'home'],
    ['/paymentSuccessView', ctx({ booking: bookingOk.data! }), 'success'],
    ['/somewhere-else', registered, 'home'],
    ['/', registered, 'home'],
  ] as const)('%s lands on %s', (path, context, step) => {
    expect(landingStep(context, path)).toBe(step);
  });

  it('treats / /home and /booktripview as the home step', () => {
    expect(['/', '/home', '/booktripview'].map(stepForPath)).toEqual(['home', 'home', 'home']);
  });

  it('sends a failed guard to /home and any unknown path to /', () => {
    const at = (path: string) => {
      const actor = createActor(bookingMachine, { input: { path, settings: {} } });
      return actor.getSnapshot().context.homePath;
    };
    expect(at('/quotationview')).toBe('/home');
    expect(at('/no-such-page')).toBe('/');
    expect(at('/booktripview')).toBe('/booktripview');
  });
});

describe('more step rules', () => {
  it('lets anyone open the Quote Now page', () => {
    expect(landingStep(none, '/quoteView')).toBe('quote');
  });

  it('sends a client whose password is not in memory back to the details step', () => {
    const client = ctx({ priceDetails: prices, selectedVehicle: prices[0], registration, registrationMode: 'existing_client' });
    expect(landingStep(client, '/paymentview')).toBe('details');
    expect(landingStep({ ...client, registration: { ...registration, password: 'secret-1' } }, '/paymentview')).toBe('payment');
  });

  it('numbers the steps from the path: book trip 0, quotation 1, personal detail 2, payment 3 (SPEC 2)', () => {
    expect(['/', '/booktripview', '/quotationview', '/personalDetailView', '/paymentview', '/stripecheckout', '/quoteView']
      .map(stepOfPath)).toEqual([0, 0, 1, 2, 3, 3, 0]);
  });

  it('hides Next when it would go to /, /checkout or /personalDetailView (SPEC 2)', () => {
    expect((['home', 'checkout', 'details', 'payment', 'quotation'] as const).map(showsNext))
      .toEqual([false, false, false, true, true]);
  });
});

describe('saved details', () => {
  it('count only when they pass SPEC 5 for their mode, since they are saved while typed', () => {
    const half = ctx({ priceDetails: prices, selectedVehicle: prices[0], registration: { ...registration, number: '+44 77' } });
    expect(landingStep(half, '/paymentview')).toBe('details');
    const newClient = ctx({ priceDetails: prices, selectedVehicle: prices[0], registrationMode: 'new_client',
      registration: { ...registration, password: 'secret-1', privacyAccepted: true, termsAccepted: false } });
    expect(landingStep(newClient, '/paymentview')).toBe('details');
  });

  it('count a phone in its stored form (E.164, decision 20): a number still as typed sends the visitor to the details', () => {
    const at = (number: string) => landingStep(ctx({ priceDetails: prices, selectedVehicle: prices[0], registration: { ...registration, number } }), '/paymentview');
    expect(['+447700900123', '+442079460321', '+123456789012'].map(at)).toEqual(['payment', 'payment', 'payment']);
    expect(['07700 900123', '+44 7700 900123', '+44 770'].map(at)).toEqual(['details', 'details', 'details']);
  });
});
