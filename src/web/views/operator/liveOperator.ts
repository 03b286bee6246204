// The console's machine with the browser's services: its calls (./operatorApi.ts), the watch for new bookings, which
// asks for the newest booking every 5 seconds (the database is asked, so a booking made through another server process
// shows too) while the console is signed in, and the live stream of bookings' changes (GET /operator/live, issue 41).
import { fromCallback, fromPromise } from 'xstate';
import { operatorMachine, type BoardQuery, type DeskAction, type Latest, type MailStatus } from '../../../../machines/operator';
import * as calls from './operatorApi';
import { openLive } from '../../liveEvents';
import type { DataChange, DataSection } from '../../../domain/operatorData';
import type { RecordsRange } from '../../../domain/bookingRecords';
import { recordsMachine } from '../../../../machines/operatorRecords';
import { phoneBookingMachine, type Journey } from '../../../../machines/phoneBooking';
import { privacyMachine } from '../../../../machines/operatorPrivacy';
import { caseworkMachine, type CaseForm } from '../../../../machines/operatorCasework';
import type { ListStatus, Register } from '../../../domain/casework';
import type { PrivacyExport } from '../../../domain/retention';
import type { AccountInput, FieldInput } from '../../../domain/accounts';
import { accountsMachine } from '../../../../machines/operatorAccounts';
import { invoicesMachine } from '../../../../machines/operatorInvoices';

export const POLL_MS = 5_000;
/** Changes heard within this long are told together: a burst of steps loads the board once. */
export const CHANGES_GATHER_MS = 300;

export const liveOperator = operatorMachine.provide({
  actors: {
    getSession: fromPromise(() => calls.getSession()),
    signIn: fromPromise(({ input }: { input: { email: string; password: string } }) => calls.signIn(input)),
    signOut: fromPromise(() => calls.signOut()),
    loadBoard: fromPromise(({ input }: { input: BoardQuery }) => calls.loadBoard(input)),
    loadFilters: fromPromise(() => calls.loadFilters()),
    loadBooking: fromPromise(({ input }: { input: { reference: string } }) => calls.loadBooking(input.reference)),
    loadRecords: fromPromise(() => calls.loadRecords()),
    runAction: fromPromise(({ input }: { input: { reference: string; action: DeskAction } }) => calls.runAction(input.reference, input.action)),
    loadMail: fromPromise(({ input }: { input: { status: MailStatus } }) => calls.loadMail(input.status)),
    retryMail: fromPromise(({ input }: { input: { id: number } }) => calls.retryMail(input.id)),
    exportCsv: fromPromise(({ input }: { input: { from: string; to: string } }) => calls.exportCsv(input.from, input.to)),
    loadData: fromPromise(({ input }: { input: { section: DataSection } }) => calls.loadData(input.section)),
    saveData: fromPromise(({ input }: { input: { change: DataChange } }) => calls.saveData(input.change)),
    phoneBookingPage: phoneBookingMachine.provide({
      actors: {
        priceJourney: fromPromise(({ input }: { input: Journey }) => calls.priceJourney(input)),
        findPassengers: fromPromise(({ input }: { input: { q: string } }) => calls.findPassengers(input.q)),
        takeBooking: fromPromise(({ input }: { input: Parameters<typeof calls.takePhoneBooking>[0] }) => calls.takePhoneBooking(input)),
      },
    }),
    recordsPage: recordsMachine.provide({
      actors: {
        loadBookingRecords: fromPromise(({ input }: { input: RecordsRange }) => calls.loadBookingRecords(input)),
        downloadRecordsCsv: fromPromise(({ input }: { input: RecordsRange }) => calls.downloadRecordsCsv(input)),
      },
    }),
    caseworkPage: caseworkMachine.provide({
      actors: {
        loadCasework: fromPromise(({ input }: { input: { register: Register; status: ListStatus; q: string } }) => calls.loadCasework(input)),
        loadCaseworkEntry: fromPromise(({ input }: { input: { register: Register; id: number } }) => calls.loadCaseworkEntry(input)),
        createCaseworkEntry: fromPromise(({ input }: { input: { register: Register; form: CaseForm } }) => calls.saveCaseworkEntry({ ...input, id: null })),
        saveCaseworkEntry: fromPromise(({ input }: { input: { register: Register; id: number; form: CaseForm } }) => calls.saveCaseworkEntry(input)),
        closeCaseworkEntry: fromPromise(({ input }: { input: { register: Register; id: number; outcome: string } }) => calls.closeCaseworkEntry(input)),
        downloadCaseworkCsv: fromPromise(({ input }: { input: { register: Register; from: string; to: string } }) => calls.downloadCaseworkCsv(input)),
      },
    }),
    // Issue 44: the corporate accounts and their invoices.
    accountsPage: accountsMachine.provide({
      actors: {
        loadAccounts: fromPromise(() => calls.loadAccounts()),
        addAccount: fromPromise(({ input }: { input: { form: AccountInput } }) => calls.saveAccount({ id: null, form: input.form })),
        saveAccount: fromPromise(({ input }: { input: { id: number; form: AccountInput } }) => calls.saveAccount(input)),
        saveField: fromPromise(({ input }: { input: { accountId: number; id: number | null; form: FieldInput } }) => calls.saveAccountField(input)),
        setBooker: fromPromise(({ input }: { input: { accountId: number; email: string; join: boolean } }) => calls.setAccountBooker(input)),
      },
    }),
    invoicesPage: invoicesMachine.provide({
      actors: {
        loadInvoices: fromPromise(({ input }: { input: { account: number | null } }) => calls.loadInvoices(input)),
        downloadInvoice: fromPromise(({ input }: { input: { document: string } }) => calls.downloadInvoice(input)),
        markInvoicePaid: fromPromise(({ input }: { input: { number: number; paid_on: string | null } }) => calls.markInvoicePaid(input)),
        issueInvoices: fromPromise(({ input }: { input: { month: string; account: number | null } }) => calls.issueInvoices(input)),
      },
    }),
    privacyPage: privacyMachine.provide({
      actors: {
        exportPersonalData: fromPromise(({ input }: { input: { email: string } }) => calls.exportPersonalData(input.email)),
        saveExportFile: fromPromise(async ({ input }: { input: { found: PrivacyExport } }) => calls.saveExportFile(input.found)),
        erasePersonalData: fromPromise(({ input }: { input: { email: string } }) => calls.erasePersonalData(input.email)),
      },
    }),
    // One call at a time: the next is asked for 5 seconds after the last answered (or failed).
    watchLatest: fromCallback(({ sendBack }) => {
      let stopped = false;
      let timer: ReturnType<typeof setTimeout>;
      const tick = async () => {
        try {
          const latest: Latest = await calls.latest();
          if (!stopped) sendBack({ type: 'latest', latest });
        } catch (err) {
          // A session that ended (its hours since sign-in, or unused: the poll is no use of it) must not leave a board
          // that silently stops: what is on screen is asked for again, the server refuses it, and the console shows the
          // sign-in page with its message. Any other miss is tried again at the next poll.
          if ((err as { status?: number }).status === 401 && !stopped) {
            sendBack({ type: 'url.changed', path: window.location.pathname, search: window.location.search });
          }
        }
        if (!stopped) timer = setTimeout(() => { void tick(); }, POLL_MS);
      };
      timer = setTimeout(() => { void tick(); }, POLL_MS);
      return () => { stopped = true; clearTimeout(timer); };
    }),
    watchChanges: fromCallback(({ sendBack }) => {
      const heard = new Set<number>();
      let timer: ReturnType<typeof setTimeout> | null = null;
      const flush = () => {
        timer = null;
        for (const id of heard) sendBack({ type: 'booking.changed', id });
        heard.clear();
      };
      const close = openLive('/operator/live', {
        onEvent: (event, data) => {
          if (event !== 'changed') return;
          heard.add((data as { id: number }).id);
          timer ??= setTimeout(flush, CHANGES_GATHER_MS);
        },
        // The session ended: what is on screen is asked for again, and the console shows the sign-in page.
        onRefused: (status) => { if (status === 401) sendBack({ type: 'url.changed', path: window.location.pathname, search: window.location.search }); },
      });
      return () => { close(); if (timer) clearTimeout(timer); };
    }),
  },
});
