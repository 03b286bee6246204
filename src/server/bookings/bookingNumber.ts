// Booking numbers: BK- and eight characters a person can read over the phone.
import { randomFillSync } from 'node:crypto';
import { BOOKING_REFERENCE_ALPHABET } from '../../domain/bookingReference';

/** A reference a person can read over the phone: no 0/O or 1/I (src/domain/bookingReference.ts, which the contact form checks too). */
export function newBookingNumber(): string {
  const n = BOOKING_REFERENCE_ALPHABET.length;
  // One draw of random bytes (eight randomInt calls were 2% of a booking's CPU); a byte is used only below the
  // largest multiple of the alphabet's length, so every character stays equally likely.
  const limit = 256 - (256 % n);
  let ref = '';
  while (ref.length < 8) {
    const byte = randomByte();
    if (byte < limit) ref += BOOKING_REFERENCE_ALPHABET[byte % n];
  }
  return `BK-${ref}`;
}

/** Random bytes drawn 4 kB at a time (a draw per booking number was 2% of a booking's CPU). */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;
function randomByte(): number {
  if (poolAt >= pool.length) { randomFillSync(pool); poolAt = 0; }
  return pool[poolAt++];
}
