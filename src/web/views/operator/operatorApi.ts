// The console's calls (src/server/operator/routes.ts), in the console's own chunk. The session is an HttpOnly cookie
// the browser sends by itself; a refusal becomes a CallError with the server's message, the field it names and the
// status (401: the session ended), which the console's machine reads.
import { api, refusalOf } from '../../api';
import type {
  ActionResult, Board, BoardQuery, BookingPage, DeskAction, Filters, Latest, MailRow, MailStatus, Records, StaffMember,
  DataSaved,
} from '../../../../machines/operator';
import type { DataChange, DataSection } from '../../../domain/operatorData';
import type { RecordsAnswer, RecordsRange } from '../../../domain/bookingRecords';
import type { CaseEntry, CaseList, ListStatus, Register } from '../../../domain/casework';
import type { PriceDetail } from '../../../domain/schemas';
import type { FoundPassenger, Journey, PhoneBookingResult, PhoneDetails } from '../../../../machines/phoneBooking';
import type { EraseAnswer, PrivacyExport } from '../../../domain/retention';
import type { AccountInput, FieldInput } from '../../../domain/accounts';
import type { AccountsAnswer } from '../../../../machines/operatorAccounts';
import type { InvoicesAnswer } from '../../../../machines/operatorInvoices';

type CallOptions = { method?: string; body?: object; query?: Record<string, string>; headers?: Record<string, string>; responseType?: 'blob' };

async function call<T>(path: string, options: CallOptions = {}): Promise<T> {
  try {
    return await api<T>(`/operator/${path}`, { credentials: 'same-origin', ...options } as never) as T;
  } catch (err) {
    throw refusalOf(err);
  }
}

export const getSession = async () => (await call<{ staff: StaffMember | null }>('session')).staff;
export const signIn = async (body: { email: string; password: string }) =>
  (await call<{ staff: StaffMember }>('session', { method: 'POST', body })).staff;
export const signOut = async () => { await call('session', { method: 'DELETE' }); };

export function loadBoard(q: BoardQuery): Promise<Board> {
  const query = Object.fromEntries(Object.entries(q).filter(([, v]) => v !== ''));
  return call<Board>('bookings', { query });
}
export const loadFilters = () => call<Filters>('filters');
/** The board's poll: a background call, which the server counts as no use of the session (it ends unused all the same). */
export const latest = () => call<Latest>('latest', { headers: { 'X-Background-Poll': '1' } });
export const loadBooking = (reference: string) => call<BookingPage>(`bookings/${encodeURIComponent(reference)}`);

const ACTION_PATHS: Record<DeskAction['kind'], string> = {
  assignDriver: 'driver', complete: 'complete', noShow: 'no-show', cancel: 'cancel', retryRefund: 'refund', refund: 'refund-rest',
  adjustCharge: 'charge',
};

export async function runAction(reference: string, action: DeskAction): Promise<ActionResult> {
  const body = action.kind === 'assignDriver' ? action.assign : action.kind === 'cancel' ? action.cancel : action.kind === 'adjustCharge' ? action.charge : undefined;
  const answer = await call<Omit<ActionResult, 'kind'>>(`bookings/${encodeURIComponent(reference)}/${ACTION_PATHS[action.kind]}`, { method: 'POST', body });
  return { ...answer, kind: action.kind };
}

export const loadMail = async (status: MailStatus) => (await call<{ emails: MailRow[] }>('emails', { query: { status } })).emails;
export const retryMail = (id: number) => call(`emails/${id}/retry`, { method: 'POST' });

export const loadData = async (section: DataSection) => (await call<{ data: unknown }>(`data/${section}`)).data;
/** The drivers and cars the viewer may dispatch, as Operator data lists them. */
export async function loadRecords(): Promise<Records> {
  const [drivers, cars] = await Promise.all([loadData('drivers'), loadData('cars')]);
  return { drivers: (drivers as Pick<Records, 'drivers'>).drivers, cars: (cars as Pick<Records, 'cars'>).cars };
}
export const saveData = (change: DataChange) => call<DataSaved>('data', { method: 'POST', body: { change } });

/** A file the console fetched (with the key headers), saved by the browser under a name. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A CSV the console offers (the accounts' export, the booking records), fetched and saved as a file. */
export async function downloadCsv(path: string, query: Record<string, string>, name: string): Promise<void> {
  saveFile(await call<Blob>(path, { query, responseType: 'blob' }), name);
}

export const exportCsv = (from: string, to: string) => downloadCsv('export', { from, to }, `bookings-${from}-to-${to}.csv`);

/** Issue 43: the booking records of a range (none: today's), and their CSV. */
export const loadBookingRecords = (range: RecordsRange) =>
  call<RecordsAnswer>('records', { query: Object.fromEntries(Object.entries(range).filter(([, v]) => v !== '')) });
export const downloadRecordsCsv = (range: RecordsRange) =>
  downloadCsv('records.csv', { ...range }, `booking-records-${range.from}-to-${range.to}.csv`);

/** Issue 43 §4: everything held about an address (audited by the server), and its erasure. */
export const exportPersonalData = (email: string) => call<PrivacyExport>('privacy/export', { method: 'POST', body: { email } });
export const erasePersonalData = (email: string) => call<EraseAnswer>('privacy/erase', { method: 'POST', body: { email } });
/** The export as the JSON file the passenger is sent, from what the page shows (nothing is asked of the server again). */
export function saveExportFile(found: PrivacyExport): void {
  saveFile(new Blob([JSON.stringify(found, null, 2)], { type: 'application/json' }), `personal-data-${found.exported_at.slice(0, 10)}.json`);
}

/** Issue 43 §1: the website's prices for a journey, as the office asks them (any time still to come; hourly hire). */
export async function priceJourney(journey: Journey): Promise<PriceDetail[]> {
  const path = journey.bookingType === 'hourly' ? 'quote/hourly' : 'quote/distance';
  return (await call<{ price_details: PriceDetail[] }>(path, { method: 'POST', body: journey.form })).price_details;
}
export const findPassengers = async (q: string) => (await call<{ passengers: FoundPassenger[] }>('passengers', { query: { q } })).passengers;
/** POST /operator/phone-bookings: the website's booking request with the office's choices; the key makes a retry take it once. */
export function takePhoneBooking(input: { key: string; journey: Journey; vehicle: PriceDetail; details: PhoneDetails }): Promise<PhoneBookingResult> {
  const { journey, vehicle, details } = input;
  return call<PhoneBookingResult>('phone-bookings', {
    method: 'POST', headers: { 'Idempotency-Key': input.key },
    body: {
      booking: {
        selectedVehicleData: { vehicle_id: vehicle.vehicle_id, company_id: vehicle.company_id }, selectedVehicle: 1,
        bookingType: journey.bookingType, ...(journey.bookingType === 'hourly' ? { hourlyRateForm: journey.form } : { bookingForm: journey.form }),
        registrationData: details.registrationData, payment_method: 'car',
        ...(details.account_fields ? { account_fields: details.account_fields } : {}),
      },
      passenger_id: details.passenger_id, payment: details.payment, price: details.price,
    },
  });
}

/** Issue 43 §3: the registers of complaints and lost property: a list, an entry, the office's form, closing, the CSV. */
export const loadCasework = ({ register, status, q }: { register: Register; status: ListStatus; q: string }) =>
  call<CaseList>(`casework/${register}`, { query: { status, ...(q ? { q } : {}) } });
export const loadCaseworkEntry = ({ register, id }: { register: Register; id: number }) => call<CaseEntry>(`casework/${register}/${id}`);
export const saveCaseworkEntry = ({ register, id, form }: { register: Register; id: number | null; form: Record<string, string> }) =>
  call<{ id: number; number: string }>(id === null ? `casework/${register}` : `casework/${register}/${id}`, { method: id === null ? 'POST' : 'PUT', body: form });
export const closeCaseworkEntry = ({ register, id, outcome }: { register: Register; id: number; outcome: string }) =>
  call<{ number: string; emailed: string | null }>(`casework/${register}/${id}/close`, { method: 'POST', body: { outcome } });
export const downloadCaseworkCsv = ({ register, from, to }: { register: Register; from: string; to: string }) =>
  downloadCsv(`casework/${register}/export`, { from, to }, `${register}-${from}-to-${to}.csv`);

/** Issue 44: the corporate accounts the member of staff may see, and the changes of an account, its fields and bookers. */
export const loadAccounts = () => call<AccountsAnswer>('accounts');
export const saveAccount = ({ id, form }: { id: number | null; form: AccountInput }) =>
  call<{ done: string; id: number }>('accounts', { method: 'POST', body: { ...form, ...(id === null ? {} : { id }) } });
export const saveAccountField = ({ accountId, id, form }: { accountId: number; id: number | null; form: FieldInput }) =>
  call<{ done: string }>(`accounts/${accountId}/fields`, { method: 'POST', body: { ...form, ...(id === null ? {} : { id }) } });
export const setAccountBooker = ({ accountId, email, join }: { accountId: number; email: string; join: boolean }) =>
  call<{ done: string }>(`accounts/${accountId}/bookers`, { method: 'POST', body: { email, join } });

/** Issue 44: the accounts' invoices (one account's, or all), with the accounts' names for the page's choices. */
export async function loadInvoices({ account }: { account: number | null }): Promise<InvoicesAnswer> {
  const [listed, { accounts }] = await Promise.all([
    call<Omit<InvoicesAnswer, 'accounts'>>('invoices', { query: account === null ? {} : { account: String(account) } }),
    loadAccounts(),
  ]);
  return { ...listed, accounts: accounts.map((a) => ({ id: a.id, name: a.name })) };
}
const DOCUMENT_FILES: Record<string, string> = { INV: 'invoice', CN: 'credit-note', DN: 'debit-note' };
/** An invoice's or a note's PDF (INV-000012, CN-000003, DN-000001), saved as the server names it. */
export async function downloadInvoice({ document }: { document: string }): Promise<void> {
  saveFile(await call<Blob>(`invoices/${encodeURIComponent(document)}`, { responseType: 'blob' }), `${DOCUMENT_FILES[document.split('-')[0]] ?? 'document'}-${document}.pdf`);
}
export const markInvoicePaid = ({ number, paid_on }: { number: number; paid_on: string | null }) =>
  call<{ done: string }>(`invoices/${number}/paid`, { method: 'POST', body: { paid_on } });
export const issueInvoices = ({ month, account }: { month: string; account: number | null }) =>
  call<{ done: string; issued: number[] }>('invoices/run', { method: 'POST', body: { month, ...(account === null ? {} : { account_id: account }) } });
