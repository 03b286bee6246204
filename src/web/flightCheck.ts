// The details step's flight look-up (issue 42): the booking machine's checkFlight actor. It asks GET /flights/check
// for the number the step opens with, and again for each new number typed, half a second after the typing stops; an
// answer to a number no longer typed is dropped. A failed call says nothing (the booking never waits for it).
import { fromCallback } from 'xstate';
import type { FlightCheckInput } from '../../machines/booking';
import type { FlightCheck } from '../domain/flights';
import { parseFlightNumber } from '../domain/flightNumbers';
import { api } from './api';

/** How long after the last key a number is looked up. */
export const TYPING_PAUSE_MS = 500;

export const checkFlight = fromCallback<{ type: 'flights.typed'; number: string }, FlightCheckInput>(({ sendBack, receive, input }) => {
  let wanted = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ask = (number: string) => {
    const flight = parseFlightNumber(number);
    const key = flight ? `${flight.airline}${flight.number}` : '';
    if (key === wanted) return;
    wanted = key;
    if (!key) return;
    api<FlightCheck & { success: boolean }>('/flights/check', { query: { number: key, date: input.date, pickup: input.pickup } })
      .then((check) => { if (wanted === key) sendBack({ type: 'flight.checked', check }); })
      .catch(() => {});
  };
  ask(input.number);
  receive((event) => {
    clearTimeout(timer);
    timer = setTimeout(() => ask(event.number), TYPING_PAUSE_MS);
  });
  return () => { clearTimeout(timer); wanted = '\u0000'; };
});
