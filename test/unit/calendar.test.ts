import { describe, expect, it } from 'vitest';
import { bookingCalendar, calendarFileName } from '../../src/domain/calendar';
import type { BookingResult } from '../../src/domain/schemas';

const result = (over: Partial<BookingResult['booking']> = {}, stops: BookingResult['bookingStops'] = []): BookingResult => ({
  booking: {
    id: 1, booking_number: 'BK-7KQ2M9A4', ride_type: 'Q', pick_up_address: 'Heathrow Terminal 5, Longford TW6 2GA',
    drop_off_address: '10 Downing Street, London SW1A 2AA', pick_up_date: '2026-12-03', pick_up_time: '09:30',
    return_date: null, return_time: null, hourly_duration: null, payment_method: 'cash', total_booking_amount: '45.00',
    flight_no: 'BA 117', return_flight_no: null, company_name: 'Albion Executive Cars', fleet_category: { category_name: 'Saloon' },
    ...over,
  },
  bookingDetail: { meet_and_greet: 'no', baby_seat: 0, booster_seat: 0, wheel_chair: 'no', special_luggages: 0, waiting_minutes: 0, luggages: 1, hand_luggages: 0, vehicle_qty: 1 },
  bookingStops: stops,
  passengerDetails: { passenger_id: null, passenger_name: 'Ada', passenger_email: 'ada@example.co.uk', passenger_contact_no: '+447700900123', total_passengers: 1, additional_info: '' },
});
const ctx = { company: 'Albion Executive Cars', phone: '0118 496 0000', amount: '£45', paymentLabel: 'Pay in car', now: new Date('2026-11-22T10:00:00Z') };
const unfold = (ics: string) => ics.replace(/\r\n /g, '');
const field = (ics: string, name: string) => unfold(ics).split('\r\n').filter((l) => l.startsWith(`${name}:`)).map((l) => l.slice(name.length + 1));
/** The events' descriptions (the reminders have their own, the summary). */
const descriptions = (ics: string) => field(ics, 'DESCRIPTION').filter((d) => d.startsWith('Route: '));

describe('the Add to calendar file', () => {
  it('is an iCalendar text with CRLF lines, one event for a one-way trip', () => {
    const ics = bookingCalendar(result(), ctx);
    expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toContain('\n');
    expect(field(ics, 'UID')).toEqual(['BK-7KQ2M9A4-pickup@taxi-booking']);
    expect(field(ics, 'DTSTAMP')).toEqual(['20261122T100000Z']);
    expect(field(ics, 'TRIGGER')).toEqual(['-PT1H']);
  });

  it('times the pickup from UK wall-clock time: the same in winter, an hour earlier in UTC in summer', () => {
    expect(field(bookingCalendar(result(), ctx), 'DTSTART')).toEqual(['20261203T093000Z']);
    expect(field(bookingCalendar(result(), ctx), 'DTEND')).toEqual(['20261203T103000Z']);
    expect(field(bookingCalendar(result({ pick_up_date: '2027-07-01' }), ctx), 'DTSTART')).toEqual(['20270701T083000Z']);
  });

  it('lasts the hired hours for an hourly booking', () => {
    const ics = bookingCalendar(result({ ride_type: 'H', hourly_duration: '6hour', drop_off_address: null }), ctx);
    expect(field(ics, 'DTEND')).toEqual(['20261203T153000Z']);
    expect(field(ics, 'SUMMARY')[0]).toBe('Chauffeur pickup: BK-7KQ2M9A4');
  });

  it('adds the return leg, picked up at the drop-off, with the route reversed and the return flight', () => {
    const ics = bookingCalendar(result({ return_date: '2026-12-10', return_time: '18:05', return_flight_no: 'BA 118' }), ctx);
    expect(field(ics, 'UID')).toEqual(['BK-7KQ2M9A4-pickup@taxi-booking', 'BK-7KQ2M9A4-return@taxi-booking']);
    expect(field(ics, 'DTSTART')).toEqual(['20261203T093000Z', '20261210T180500Z']);
    expect(field(ics, 'LOCATION')[1]).toBe('10 Downing Street\\, London SW1A 2AA');
    const returnText = descriptions(ics)[1];
    expect(returnText).toContain('Route: 10 Downing Street\\, London SW1A 2AA → Heathrow');
    expect(returnText).toContain('Flight / train: BA 118');
  });

  it('escapes commas, semicolons, backslashes and line breaks, and says who to call', () => {
    const ics = bookingCalendar(result({ pick_up_address: 'Gate 3; Arrivals, T5 \\ North' }), ctx);
    expect(field(ics, 'LOCATION')).toEqual(['Gate 3\\; Arrivals\\, T5 \\\\ North']);
    const description = descriptions(ics)[0];
    expect(description).toContain('\\nBooking reference: BK-7KQ2M9A4\\n');
    expect(description).toContain('Total: £45 (Pay in car)');
    expect(description).toContain('Questions or changes: Albion Executive Cars\\, 0118 496 0000');
  });

  it('folds long lines at 75 octets without splitting a character, and unfolds to the same text', () => {
    const stops = [{ id: 1, stop_address: 'A very long street name in a town somewhere in the south of England', stop_post_code: 'RG1 1AA', stop_street_number: '12' }];
    const ics = bookingCalendar(result({}, stops), { ...ctx, amount: '££££££££££££££££££££££££££££££££££££££££££££££££' });
    for (const line of ics.split('\r\n')) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    expect(ics).toMatch(/\r\n /);
    expect(descriptions(ics)[0]).toContain('12 A very long street name in a town somewhere in the south of England RG1 1AA');
    expect(descriptions(ics)[0]).toContain('££££££££££££££££££££££££££££££££££££££££££££££££');
  });

  it('is offered as booking-<reference>.ics', () => {
    expect(calendarFileName(result())).toBe('booking-BK-7KQ2M9A4.ics');
  });
});

describe('the whole Add to calendar file', () => {
  const stop = { stop_street_number: '1', stop_address: 'Brunel Way, Slough', stop_post_code: 'SL1 1XW' } as BookingResult['bookingStops'][number];

  it('writes a return trip with a stop as two events, word for word, lines folded at 75 octets', () => {
    const ics = bookingCalendar(result({ return_date: '2026-12-05', return_time: '18:00', return_flight_no: 'BA 118' }, [stop]), ctx);
    const route = 'Heathrow Terminal 5\\, Longford TW6 2GA → 1 Brunel Way\\, Slough SL1 1XW → 10 Downing Street\\, London SW1A 2AA';
    const back = '10 Downing Street\\, London SW1A 2AA → 1 Brunel Way\\, Slough SL1 1XW → Heathrow Terminal 5\\, Longford TW6 2GA';
    const about = (flight: string) => `\\nBooking reference: BK-7KQ2M9A4\\nVehicle: Saloon (Albion Executive Cars)\\nTotal: £45 (Pay in car)\\nFlight / train: ${flight}\\nQuestions or changes: Albion Executive Cars\\, 0118 496 0000`;
    expect(unfold(ics).split('\r\n')).toEqual([
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Albion Executive Cars//Taxi booking//EN', 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH',
      'BEGIN:VEVENT', 'UID:BK-7KQ2M9A4-pickup@taxi-booking', 'DTSTAMP:20261122T100000Z', 'DTSTART:20261203T093000Z', 'DTEND:20261203T103000Z',
      'SUMMARY:Taxi pickup: BK-7KQ2M9A4', 'LOCATION:Heathrow Terminal 5\\, Longford TW6 2GA', `DESCRIPTION:Route: ${route}${about('BA 117')}`,
      'BEGIN:VALARM', 'ACTION:DISPLAY', 'DESCRIPTION:Taxi pickup: BK-7KQ2M9A4', 'TRIGGER:-PT1H', 'END:VALARM', 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:BK-7KQ2M9A4-return@taxi-booking', 'DTSTAMP:20261122T100000Z', 'DTSTART:20261205T180000Z', 'DTEND:20261205T190000Z',
      'SUMMARY:Taxi return pickup: BK-7KQ2M9A4', 'LOCATION:10 Downing Street\\, London SW1A 2AA', `DESCRIPTION:Route: ${back}${about('BA 118')}`,
      'BEGIN:VALARM', 'ACTION:DISPLAY', 'DESCRIPTION:Taxi return pickup: BK-7KQ2M9A4', 'TRIGGER:-PT1H', 'END:VALARM', 'END:VEVENT',
      'END:VCALENDAR', '',
    ]);
    // Folded: no line over 75 octets, continuation lines start with a space.
    for (const line of ics.split('\r\n')) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    expect(ics).toContain('\r\n ');
  });

  it('keeps the outbound flight on the return when no return flight is given, and needs both a return date and time', () => {
    const ics = bookingCalendar(result({ return_date: '2026-12-05', return_time: '18:00' }), ctx);
    expect(descriptions(ics).map((d) => /Flight \/ train: ([^\\]+)/.exec(d)?.[1])).toEqual(['BA 117', 'BA 117']);
    expect(field(bookingCalendar(result({ return_date: '2026-12-05', return_time: null }), ctx), 'UID')).toHaveLength(1);
    expect(field(bookingCalendar(result({ return_date: null, return_time: '18:00' }), ctx), 'UID')).toHaveLength(1);
  });

  it('calls an hourly booking a chauffeur pickup lasting its hours, and a booking without a phone booked with the operator', () => {
    const ics = bookingCalendar(result({ ride_type: 'H', drop_off_address: null, hourly_duration: '4hour', flight_no: null }), { ...ctx, phone: undefined });
    expect(field(ics, 'SUMMARY')).toEqual(['Chauffeur pickup: BK-7KQ2M9A4']);
    expect(field(ics, 'DTEND')).toEqual(['20261203T133000Z']);
    expect(descriptions(ics)[0]).toBe('Route: Heathrow Terminal 5\\, Longford TW6 2GA\\nBooking reference: BK-7KQ2M9A4\\nVehicle: Saloon (Albion Executive Cars)\\nTotal: £45 (Pay in car)\\nBooked with Albion Executive Cars');
    expect(field(bookingCalendar(result({ hourly_duration: '0hour' }), ctx), 'SUMMARY')).toEqual(['Taxi pickup: BK-7KQ2M9A4']);
  });

  it('gives an hourly booking whose hours read as none, or cannot be read, the hour of a transfer', () => {
    for (const hourly_duration of ['0hour', null, 'all day']) {
      const ics = bookingCalendar(result({ ride_type: 'H', drop_off_address: null, hourly_duration }), ctx);
      expect(field(ics, 'DTEND'), String(hourly_duration)).toEqual(['20261203T103000Z']);
    }
  });

  it('writes a stop without a street number with no space before it', () => {
    const stops = [{ id: 1, stop_address: 'Euston Station', stop_post_code: 'NW1 2RT', stop_street_number: '' }];
    expect(descriptions(bookingCalendar(result({}, stops), ctx))[0])
      .toContain('Route: Heathrow Terminal 5\\, Longford TW6 2GA → Euston Station NW1 2RT → 10 Downing Street');
  });

  it('fills each folded line to 75 octets: the first with 75 characters, each next one with a space and 74', () => {
    const ics = bookingCalendar(result({ pick_up_address: 'x'.repeat(300) }), ctx);
    const lines = ics.split('\r\n');
    const start = lines.findIndex((l) => l.startsWith('LOCATION:'));
    expect(lines[start]).toBe(`LOCATION:${'x'.repeat(66)}`);
    expect(lines[start + 1]).toBe(` ${'x'.repeat(74)}`);
    expect(lines[start + 2]).toBe(` ${'x'.repeat(74)}`);
    expect(lines[start + 3]).toBe(` ${'x'.repeat(74)}`);
    expect(lines[start + 4]).toBe(` ${'x'.repeat(12)}`);
  });

  it('names the file after the booking, without characters a file name cannot hold', () => {
    expect(calendarFileName(result())).toBe('booking-BK-7KQ2M9A4.ics');
    expect(calendarFileName(result({ booking_number: 'BK/7K Q2' }))).toBe('booking-BK7KQ2.ics');
  });
});
