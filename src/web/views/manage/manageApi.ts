// The manage page's calls (src/server/manage/routes.ts), in the area's own chunk. Each carries the link's key in the
// X-Manage-Key header; a refusal becomes an error with the server's message, the field it names and its status.
import { assert } from 'superstruct';
import { api, refusalOf } from '../../api';
import { CreatePaymentIntentResponse } from '../../../domain/cardSchemas';
import type { BookingResponse } from '../../../domain/schemas';
import type { ChangeValues } from '../../../domain/manageChanges';
import type { ChangeAnswer, ManagePage } from '../../../../machines/manage';
import type { PayPage } from '../../../../machines/payLink';

async function call<T>(path: string, key: string | null, options: { method?: string; body?: object; responseType?: 'blob' } = {}): Promise<T> {
  try {
    return await api<T>(`/manage/${path}`, { ...options, headers: key ? { 'X-Manage-Key': key } : {} } as never) as T;
  } catch (err) {
    throw refusalOf(err);
  }
}

const at = (reference: string) => encodeURIComponent(reference);

export const loadBooking = ({ reference, key }: { reference: string; key: string }) => call<ManagePage>(at(reference), key);

export function saveChange(input: { reference: string; key: string; values: ChangeValues; acceptTotal: string | null }): Promise<ChangeAnswer> {
  return call<ChangeAnswer>(`${at(input.reference)}/changes`, input.key, {
    method: 'POST', body: { ...input.values, ...(input.acceptTotal ? { accept_total: input.acceptTotal } : {}) },
  });
}

export const cancelBooking = ({ reference, key }: { reference: string; key: string }) =>
  call<ManagePage>(`${at(reference)}/cancel`, key, { method: 'POST', body: {} });

export async function findBooking(input: { reference: string; email: string }): Promise<string> {
  return (await call<{ message: string }>('find', null, { method: 'POST', body: input })).message;
}

/**
 * The receipt (or VAT invoice) PDF, or one of the invoice's notes by its number (issue 39), saved as a file under the
 * name the server gives the document (invoice-INV-000001.pdf, credit-note-CN-000001.pdf, receipt-BK-....pdf), so the
 * same document is always the same file, whichever button downloaded it.
 */
export async function downloadReceipt({ reference, key, number }: { reference: string; key: string; number?: string }): Promise<void> {
  let res: Awaited<ReturnType<typeof api.raw>>;
  try {
    res = await api.raw(`/manage/${at(reference)}/receipt${number ? `?document=${encodeURIComponent(number)}` : ''}`, {
      responseType: 'blob', headers: { 'X-Manage-Key': key },
    });
  } catch (err) {
    throw refusalOf(err);
  }
  const named = /filename="([\w.-]+\.pdf)"/i.exec(res.headers.get('content-disposition') ?? '')?.[1];
  const url = URL.createObjectURL(res._data as Blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = named ?? (number ? `${number}.pdf` : `receipt-${reference}.pdf`);
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

// A change's difference, by card: its intent (the card page's confirm call confirms it), then the change applied.
export async function createChangeIntent(change: { reference: string; key: string; id: number }, paymentMethodId: string) {
  const res = await call(`${at(change.reference)}/changes/${change.id}/payment-intent`, change.key, { method: 'POST', body: { paymentMethodId } });
  assert(res, CreatePaymentIntentResponse);
  return res;
}

export const completeChange = (change: { reference: string; key: string; id: number }, paymentIntentId: string) =>
  call<BookingResponse>(`${at(change.reference)}/changes/${change.id}/complete`, change.key, { method: 'POST', body: { paymentIntentId } });

/** A signed-in corporate passenger's own key for a booking of their account (their Manage in /bookings). */
export async function keyOfAccount(reference: string, token: string): Promise<string> {
  try {
    return (await api<{ key: string }>(`/manage/${at(reference)}/key`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } })).key;
  } catch (err) {
    throw refusalOf(err);
  }
}

/** Issue 43: a card payment link's calls, with its key in the X-Pay-Key header. */
async function payCall<T>(path: string, key: string, options: { method?: string; body?: object } = {}): Promise<T> {
  try {
    return await api<T>(`/pay/${path}`, { ...options, headers: { 'X-Pay-Key': key } } as never) as T;
  } catch (err) {
    throw refusalOf(err);
  }
}
export const loadPayPage = ({ reference, key }: { reference: string; key: string }) => payCall<PayPage>(at(reference), key);
export async function createLinkIntent(link: { reference: string; key: string }, paymentMethodId: string) {
  const answer = await payCall<unknown>(`${at(link.reference)}/intent`, link.key, { method: 'POST', body: { paymentMethodId } });
  assert(answer, CreatePaymentIntentResponse);
  return answer;
}
export const completeLink = (link: { reference: string; key: string }, intentId: string) =>
  payCall<BookingResponse>(`${at(link.reference)}/complete`, link.key, { method: 'POST', body: { stripe_session_id: intentId } });
