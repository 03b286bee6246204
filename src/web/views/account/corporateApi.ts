// The corporate area's Journeys and Invoices calls (issue 44, src/server/accounts/routes.ts), in the area's own chunk:
// each with the booker's token as a bearer header. A refusal keeps the server's message, the field it names and the
// status (401: the session has ended), which the pages' machines read; a file is fetched and saved by the browser.
import { assert } from 'superstruct';
import { api, bearer, refusalOf } from '../../api';
import { InvoicesAnswer, JourneysAnswer, journeyQuery, journeysFileName, type JourneyFilter } from '../../../domain/expenses';
import type { Session } from '../../../../machines/account';

async function call<T>(path: string, session: Session, query: Record<string, string> = {}): Promise<T> {
  try {
    return await api<T>(path, { headers: bearer(session.token), query });
  } catch (err) {
    throw refusalOf(err);
  }
}

/** A refusal of a file's call: its body is the server's JSON message (the file was asked for as a blob). */
async function fileRefusal(status: number, body: unknown): Promise<Error & { field?: string; status?: number }> {
  let data: { message?: unknown; field?: unknown } = {};
  try {
    data = JSON.parse(await (body as Blob).text()) as typeof data;
  } catch {
    // Not the server's JSON (a proxy's page): the status says enough.
  }
  const message = typeof data.message === 'string' && data.message ? data.message : 'The file could not be prepared. Please try again.';
  return Object.assign(new Error(message), { status, ...(typeof data.field === 'string' ? { field: data.field } : {}) });
}

/** Fetches a file with the token and saves it under the name the server gives it (or `fallback`). */
async function saveFile(path: string, session: Session, query: Record<string, string>, fallback: string): Promise<void> {
  let res: Awaited<ReturnType<typeof api.raw>>;
  try {
    res = await api.raw(path, { headers: bearer(session.token), query, responseType: 'blob', ignoreResponseError: true });
  } catch (err) {
    throw refusalOf(err);
  }
  if (!res.ok) throw await fileRefusal(res.status, res._data);
  const named = /filename="([\w.-]+)"/i.exec(res.headers.get('content-disposition') ?? '')?.[1];
  const url = URL.createObjectURL(res._data as Blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = named ?? fallback;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export async function fetchJourneys({ session, filter }: { session: Session; filter: JourneyFilter }): Promise<JourneysAnswer> {
  const answer = await call<unknown>('/account/journeys', session, journeyQuery(filter));
  assert(answer, JourneysAnswer);
  return answer;
}

export const downloadJourneysCsv = ({ session, filter }: { session: Session; filter: JourneyFilter }) =>
  saveFile('/account/journeys.csv', session, journeyQuery(filter), journeysFileName(filter));

export async function fetchInvoices({ session }: { session: Session }): Promise<InvoicesAnswer> {
  const answer = await call<unknown>('/account/invoices', session);
  assert(answer, InvoicesAnswer);
  return answer;
}

export const downloadDocument = ({ session, document }: { session: Session; document: string }) =>
  saveFile(`/account/invoices/${encodeURIComponent(document)}`, session, {}, `${document}.pdf`);
