// What a service refuses, in its own words: the kind of refusal, the message a person reads, and the field it
// names. Services know nothing of HTTP; http/answers.ts turns each kind into its status, in one place.
export type RefusalKind =
  /** The request cannot be read (not JSON, nested too deep). */
  | 'malformed'
  /** A value breaks a rule; `field` names it. */
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'notFound'
  /** It was there and is no more (an expired link). */
  | 'gone'
  /** It clashes with what is already there (a key used for another request, a race lost). */
  | 'conflict'
  | 'tooLarge'
  /** An allowance is used up; try again after `retryAfterSeconds`. */
  | 'tooMany'
  /** The server or a service it needs cannot take it now; try again after `retryAfterSeconds`. */
  | 'busy';

export class DomainError extends Error {
  constructor(readonly kind: RefusalKind, message: string, readonly field?: string, readonly retryAfterSeconds?: number) {
    super(message);
  }

  /** The same refusal naming its field inside a larger body: 'pickup' in 'bookingForm' is 'bookingForm.pickup'. */
  within(prefix: string): DomainError {
    return new DomainError(this.kind, this.message, this.field ? `${prefix}.${this.field}` : prefix, this.retryAfterSeconds);
  }
}
