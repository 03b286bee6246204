// The corporate area's pages run as child machines (issue 44: machines/accountJourneys.ts, machines/accountInvoices.ts)
// with the browser's real calls (./corporateApi.ts). Their views hand them to the account's machine (`page.loaded`), so
// they load with the area's code, never with the first page.
import { fromPromise } from 'xstate';
import { journeysMachine } from '../../../../machines/accountJourneys';
import { invoicesMachine } from '../../../../machines/accountInvoices';
import type { JourneyFilter } from '../../../domain/expenses';
import type { Session } from '../../../../machines/account';
import { downloadDocument, downloadJourneysCsv, fetchInvoices, fetchJourneys } from './corporateApi';

export const journeysPage = journeysMachine.provide({
  actors: {
    fetchJourneys: fromPromise(({ input }: { input: { session: Session; filter: JourneyFilter } }) => fetchJourneys(input)),
    downloadJourneysCsv: fromPromise(({ input }: { input: { session: Session; filter: JourneyFilter } }) => downloadJourneysCsv(input)),
  },
});

export const invoicesPage = invoicesMachine.provide({
  actors: {
    fetchInvoices: fromPromise(({ input }: { input: { session: Session } }) => fetchInvoices(input)),
    downloadDocument: fromPromise(({ input }: { input: { session: Session; document: string } }) => downloadDocument(input)),
  },
});
