// Addresses in the booking forms (decision 23), as the forms and the server both read them.

/** A stop as it is placed and booked: number, street or place, postcode. */
export const stopText = (s: { number?: string; street_name: string; postcode?: string }) =>
  [s.number, s.street_name, s.postcode].map((x) => x?.trim()).filter(Boolean).join(' ');

const normalise = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

/** The same address typed twice, case, spacing and punctuation aside. */
export function sameAddressText(a: string, b: string): boolean {
  const x = normalise(a);
  return x !== '' && x === normalise(b);
}

/**
 * The form field a refused address belongs to: 'pickup', 'dropoff' or 'stops.N' (a stop), from the field the server
 * named (the booking call names them inside its forms: 'bookingForm.pickup', 'hourlyRateForm.pickup'); else null.
 */
export function addressField(field: string | null | undefined): string | null {
  const m = /^(?:bookingForm\.|hourlyRateForm\.)?(pickup|dropoff|stops\.\d+)$/.exec(field ?? '');
  return m ? m[1] : null;
}

/** A price or booking call refused an address: the form shows the message under that address, not in a dialog. */
export class AddressError extends Error {
  constructor(message: string, readonly field: string) {
    super(message);
    this.name = 'AddressError';
  }
}
