// The office's console's machine (./operator.ts): what it is given by the server (src/server/operator/routes.ts: the
// member of staff signed in, the board, a booking's page, the mail queue, the operator data), what it keeps, and the
// events its screens send.
import type { BookingFlight } from '../src/domain/flights';
import type { AlertMinutes } from '../src/domain/tracking';
import type { BoardTab, BookingAction, CancelInput, DriverInput } from '../src/domain/operatorDesk';
import type { AssignInput, CarRecord, DispatchNeeds, DriverRecord } from '../src/domain/fleetRecords';
import type { Location } from '../src/domain/screens';
import type { BookingResult } from '../src/domain/schemas';
import type { BookingRecord } from '../src/domain/bookingRecords';
import type { DataChange, DataSection } from '../src/domain/operatorData';
import type { ChargeInput } from '../src/domain/accounts';

export interface StaffMember { id: number; email: string; name: string; role: 'admin' | 'dispatcher' | 'company'; company_name: string | null }

export interface BoardQuery { tab: BoardTab; q: string; company: string; vehicle: string; status: string }
export interface BoardRow {
  id: number; booking_number: string; status: string; pick_up_date: string; pick_up_time: string; pick_up_address: string;
  drop_off_address: string | null; ride_type: string; company_name: string; category_name: string; passenger_name: string;
  passenger_contact_no: string; total: string; payment_method: string; payment_status: string; driver_name: string | null;
  /** A cancelled card booking with money left to refund (refundDue in src/domain/operatorDesk.ts); absent: none. */
  refund_due?: boolean;
  /** Where the driver's job stands (issue 41), and who declined it last; absent: before issue 41. */
  job_status?: string | null; declined_by?: string | null;
  /** When the pickup is and when the driver was assigned (ISO), for the board's alerts (issue 41 §5). */
  pickup_at?: string; dispatched_at?: string | null;
  /** An airport pickup's flight (issue 42): its status and the pickup moved with it; absent or null: none. */
  flight?: BookingFlight | null;
}
export interface Latest { latest_id: number; count: number }
export interface Board { rows: BoardRow[]; total: number; latest: Latest; /** The settings' alert minutes (issue 41 §5). */ alert_minutes?: AlertMinutes }
export interface Filters { companies: { id: number; company_name: string }[]; vehicles: { id: number; category_name: string }[]; statuses: { value: string; label: string }[] }

export interface TimelineEntry { at: string; kind: string; text: string; by: string | null; detail: string | null }
export interface BookingPage {
  booking: BookingResult;
  desk: {
    status: string; status_label: string; actions: BookingAction[]; breakdown: { label: string; amount: string }[];
    payment: { method: string; status: string; charge_id: string | null; intent_id: string | null; test: boolean; refundable: string | null };
    /** What the booking keeps of its dispatch (before issue 41: the typed name, mobile, vehicle and registration alone). */
    driver: (DriverInput & { colour?: string; licence_number?: string; dispatched_by?: string; dispatched_at?: string }) | null;
    /** What the booking asks of its driver and car (fleetRecords.ts dispatchProblems). */
    needs: DispatchNeeds;
    /** Where the driver's job stands (issue 41): its status in words, and who declined it last. */
    job?: { status: string; label: string; declined_by: string | null } | null;
    /** An airport pickup's flight (issue 42): its status, the pickup moved with it and the time booked. */
    flight?: BookingFlight | null;
    cancel_reason: string | null;
    refund: { amount: string; status: string; id: string | null; error: string | null } | null;
    /** Issue 44: the account a journey on account is billed to; null (or absent, before) for any other booking. */
    account?: { id: number; name: string } | null;
  };
  timeline: TimelineEntry[];
  /** What the licensing record keeps of it (issue 43 §2); absent before. */
  record?: BookingRecord | null;
}
export interface MailRow {
  id: number; kind: string; to_address: string; cc_address: string | null; subject: string; status: string; attempts: number;
  last_error: string | null; created_at: string; booking_number: string | null;
  /** Issue 41: an e-mail or a text; a text's delivery as reported, and whether its number opted out (STOP). */
  channel?: 'email' | 'sms'; delivery_status?: string | null; delivery_error?: string | null; opted_out?: boolean;
}
export type MailStatus = 'failed' | 'pending' | 'sent';

/** What the office does to a booking, with what its form says. */
export type DeskAction =
  | { kind: 'assignDriver'; assign: AssignInput }
  | { kind: 'complete' } | { kind: 'noShow' }
  | { kind: 'cancel'; cancel: CancelInput }
  | { kind: 'retryRefund' }
  | { kind: 'refund' }
  /** Issue 44: what a journey on account is charged, changed with the reason (the new amount in pounds). */
  | { kind: 'adjustCharge'; charge: ChargeInput };

/**
 * What an action answers: which it was; for a cancellation, how the refund went; for a change of charge, the server's
 * words (with the credit or debit note's number when the month was invoiced).
 */
export interface ActionResult { kind: DeskAction['kind']; refund?: { status: string; error?: string } | null; done?: string; note?: string | null }

/** An API refusal as the machine keeps it: the message, the field it names, and whether the session ended. */
export interface CallError { message: string; field?: string; status?: number }

export type OperatorEvent =
  | { type: 'url.changed'; path: string; search: string }
  | { type: 'signIn'; email: string; password: string }
  | { type: 'signOut' }
  | { type: 'board.query'; query: Partial<BoardQuery> }
  | { type: 'board.showNew' }
  | { type: 'latest'; latest: Latest }
  /** A booking changed (a driver's step, an assignment...), in any server process (issue 41 §5). */
  | { type: 'booking.changed'; id: number }
  | { type: 'open'; reference: string }
  | { type: 'action.start'; action: BookingAction | 'retryRefund' }
  | { type: 'action.confirm'; action: DeskAction }
  | { type: 'action.cancel' }
  | { type: 'mail.show'; status: MailStatus }
  | { type: 'mail.retry'; id: number }
  | { type: 'export.download'; from: string; to: string }
  | { type: 'data.show'; section: DataSection }
  | { type: 'data.save'; change: DataChange }
  | { type: 'retry' }
  /** From a page run as a child machine (./consolePage.ts): its address, or a 401. */
  | ToConsole;

/** What a page run as the console's child machine (./consolePage.ts) tells the console: its address, or a 401. */
export type ToConsole = { type: 'page.location'; location: Location } | { type: 'page.sessionEnded' };

/** The drivers and cars on record the viewer may dispatch (a company's staff: their own), for the assign dialog. */
export interface Records {
  drivers: (DriverRecord & { id: number; company_name: string })[];
  cars: (CarRecord & { id: number; company_name: string; category_name: string })[];
}

/** What a change of the operator's data answers: what was done, and a new member of staff's password, once. */
export interface DataSaved { done: string; password?: string }

export interface OperatorInput { location: Location }

export interface OperatorContext {
  location: Location;
  /** The board is being loaded again in place, because a booking changed or a new one came (no "Loading" shown). */
  quiet: boolean;
  /** Where to go once signed in (the page asked for before the session was found). */
  wanted: Location | null;
  staff: StaffMember | null;
  query: BoardQuery;
  board: Board | null;
  filters: Filters | null;
  /** The newest booking the person has been shown, and how many there were then: newer ones are 'new'. */
  seenId: number | null;
  seenCount: number | null;
  latest: Latest | null;
  reference: string | null;
  page: BookingPage | null;
  /** The action whose confirmation is open. */
  action: BookingAction | 'retryRefund' | null;
  /** The drivers and cars to choose from, loaded as the assign dialog opens. */
  records: Records | null;
  mailStatus: MailStatus;
  mail: MailRow[] | null;
  /** Operator data (administrators): the part on show, as the server lists it. */
  dataSection: DataSection;
  data: unknown;
  /** A new member of staff's password, shown once. */
  password: string | null;
  error: CallError | null;
  notice: string | null;
}
