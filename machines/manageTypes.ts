// Manage my booking's machine (./manage.ts): what it is given by the server (src/server/manage/routes.ts: the booking as
// its passenger sees it, a change's answer), what it keeps, and the events its screens send.
import type { BookingFlight } from '../src/domain/flights';
import type { BookingResult } from '../src/domain/schemas';
import type { ChangeErrors, ChangeValues } from '../src/domain/manageChanges';
import type { ManageStatus } from '../src/domain/manageRules';
import type { LiveJob } from '../src/domain/tracking';
import type { Location } from '../src/domain/screens';

/** GET /manage/{reference}: the booking as its passenger sees it. */
export interface ManagePage {
  booking: BookingResult;
  manage: {
    status: ManageStatus; status_words: string;
    driver: { name: string; mobile: string; vehicle: string; registration: string; colour?: string } | null;
    /** The driver's job as it stands, and the car's distance while it is on the way (issue 41); the page follows it live. */
    job?: LiveJob | null;
    /** An airport pickup's flight (issue 42): its status, and the pickup moved with it beside the time booked. */
    flight?: BookingFlight | null;
    /** When and why; `emailed`: whether the passenger was e-mailed of it (not over their address's allowance, issue 39). */
    cancelled: { at: string; reason: string | null; emailed: boolean } | null;
    refund: { amount: string; status: string } | null;
    /**
     * What the office still owes the passenger and will refund itself (pounds, e.g. "51.00"), as after a company's staff
     * cancelled a card booking without a refund; null when nothing is due. Sent once the server fills it.
     */
    refund_due?: string | null;
    breakdown: { label: string; amount: string }[];
    payment: { method: string; status: string; test: boolean };
    pickup_words: string; change_until: string; cancel_until: string;
    /** The pickup now and the one the booking was made for (ISO): the deadlines count from the earlier (issue 39). */
    pickup_at: string; original_pickup_at: string;
    /**
     * When the booking was made (ISO): one made inside the free-cancellation window never had free cancelling, and the
     * page says so (src/domain/manageRules.ts bookedInsideWindow). Sent once the server fills it.
     */
    booked_at?: string;
    may: { change: boolean; cancel: boolean };
    form: ChangeValues;
    waiting_change: { id: number; amount_pence: number; new_total: string; asked_at: string } | null;
    has_return: boolean; meet_and_greet: boolean;
    /** A receipt can be downloaded (src/domain/manageRules.ts hasReceipt). */
    has_receipt: boolean;
    /** Whether the download is a VAT invoice, and the invoice and its credit and debit notes issued (issue 39). */
    receipt?: { invoice: boolean; documents: { number: string; title: string; issued_on: string; amount: string }[] };
  };
}

/** What POST /manage/{reference}/changes answers. */
export type ChangeAnswer =
  | ({ status: 'saved'; refund: { status: string; error?: string } | null } & ManagePage)
  | { status: 'confirm_price'; outcome: 'pay' | 'refund' | 'confirm'; old_total: string; new_total: string; difference: string }
  | { status: 'payment_required'; change_id: number; amount_pence: number; new_total: string };
export type PriceQuestion = Extract<ChangeAnswer, { status: 'confirm_price' }>;

/** An API refusal as the machine keeps it: the message, the field it names, and the status (404, 410...). */
export interface CallError { message: string; field?: string; status?: number }

export interface ManageInput { location: Location }

export interface ManageContext {
  location: Location;
  reference: string | null;
  key: string | null;
  page: ManagePage | null;
  /** The change asked for, kept while its price is confirmed and when the server refuses a field. */
  draft: ChangeValues | null;
  /** The new price the passenger confirmed (sent back as accept_total). */
  acceptTotal: string | null;
  question: PriceQuestion | null;
  /** The waiting change being paid for. */
  payment: { changeId: number; amountPence: number; newTotal: string } | null;
  error: CallError | null;
  fieldErrors: ChangeErrors;
  notice: string | null;
  findSent: string | null;
}

export type ManageEvent =
  | { type: 'url.changed'; path: string; search: string }
  | { type: 'find.submit'; reference: string; email: string }
  | { type: 'find.again' }
  | { type: 'retry' }
  | { type: 'edit.open' }
  | { type: 'edit.close' }
  | { type: 'change.submit'; values: ChangeValues }
  | { type: 'price.accept' }
  | { type: 'price.decline' }
  | { type: 'payment.start' }
  | { type: 'payment.close' }
  | { type: 'cancel.open' }
  | { type: 'cancel.close' }
  | { type: 'cancel.confirm' }
  | { type: 'receipt.download' }
  /** From the job's follower (issue 41): the job as it is now. */
  | { type: 'job.live'; job: LiveJob | null };
