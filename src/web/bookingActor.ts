// The one booking actor for the page, with the app's real actors and storage actions.
import { createActorContext } from '@xstate/react';
import { bookingMachine } from '../../machines/booking';
import { actors } from './api';
import { clearStoredBooking, persist } from './storage';

export const appBookingMachine = bookingMachine.provide({
  actors,
  actions: {
    persist: ({ context }) => persist(context),
    clearStoredBooking: ({ context }) => clearStoredBooking(context),
  },
});

export const BookingActor = createActorContext(appBookingMachine);

/** Settings as the machine holds them. */
export function useSettings() {
  return BookingActor.useSelector((s) => s.context.settings);
}
