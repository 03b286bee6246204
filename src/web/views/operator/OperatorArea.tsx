// The office's console (issue 26), a chunk of its own: a customer's page never loads it. Once loaded it hands the
// app machine its machine (machines/operator.ts, with the browser's services) to run as the app's `operator` child,
// then shows the screen that machine's state names.
import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import { useSettings } from '../../appActor';
import { useLazyArea } from '../../areaActor';
import { LoadingOverlay } from '../../components/LoadingOverlay';
import { ROLE_LABELS } from '../../../domain/operatorDesk';
import { pathOfScreen, type OperatorScreen } from '../../../domain/screens';
import { unseenCount } from '../../../../machines/operator';
import { liveOperator } from './liveOperator';
import { OperatorContext, operatorScreen, useOperator, useOperatorRef, useSignedOutWhileSaving } from './operatorActor';
import { OperatorLogin } from './OperatorLogin';
import { BoardView } from './BoardView';
import { BookingView } from './BookingView';
import { MailView } from './MailView';
import { ExportView } from './ExportView';
import { DataView } from './DataView';
import { RecordsView } from './RecordsView';
import { CaseworkView } from './CaseworkView';
import { NewBookingView } from './NewBookingView';
import { PrivacyView } from './PrivacyView';
import { AccountsView } from './AccountsView';
import { InvoicesView } from './InvoicesView';
import { mayHandlePrivacyRequests } from '../../../domain/retention';
import './operator.css';

export function OperatorArea() {
  const ref = useLazyArea('operator', liveOperator);
  if (!ref) return <LoadingOverlay text="Opening the console" />;
  return (
    <OperatorContext.Provider value={ref}>
      <Console />
    </OperatorContext.Provider>
  );
}

function Console() {
  const screen = useOperator(operatorScreen);
  // Followed here, above the sign-in page, which is shown only once the session has ended.
  const unsaved = useSignedOutWhileSaving(useOperatorRef());
  if (screen === null) return <LoadingOverlay text="Opening the console" />;
  if (screen === 'operatorLogin') return <OperatorLogin unsaved={unsaved} />;
  return (
    <div className="op-shell">
      <ConsoleBar />
      <main id="main" className="op-main">
        {screen === 'operatorBoard' && <BoardView />}
        {screen === 'operatorBooking' && <BookingView />}
        {screen === 'operatorMail' && <MailView />}
        {screen === 'operatorExport' && <ExportView />}
        {screen === 'operatorData' && <DataView />}
        {screen === 'operatorRecords' && <RecordsView />}
        {screen === 'operatorNewBooking' && <NewBookingView />}
        {screen === 'operatorPrivacy' && <PrivacyView />}
        {screen === 'operatorAccounts' && <AccountsView />}
        {screen === 'operatorInvoices' && <InvoicesView />}
        {(screen === 'operatorComplaints' || screen === 'operatorLostProperty') && <CaseworkView key={screen} />}
      </main>
    </div>
  );
}

function ConsoleBar() {
  const actor = useOperatorRef();
  const settings = useSettings();
  const screen = useOperator(operatorScreen);
  const staff = useOperator((s) => s.context.staff);
  const unseen = useOperator(unseenCount);
  const signingOut = useOperator((s) => s.matches('signingOut'));
  const [, navigate] = useLocation();
  const link = (to: OperatorScreen, label: string, extra?: ReactNode) => { const href = pathOfScreen(to); return (
    <li>
      <a
        href={href}
        className="op-nav-link"
        aria-current={screen === to || (to === 'operatorBoard' && screen === 'operatorBooking') || (to === 'operatorAccounts' && screen === 'operatorInvoices') ? 'page' : undefined}
        onClick={(e) => {
          if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
          e.preventDefault();
          navigate(href);
        }}
      >
        {label}{extra}
      </a>
    </li>
  ); };
  return (
    <header className="op-bar">
      <div className="op-bar-inner">
        <p className="op-brand">{settings.Company_Name || 'Operator'} <span className="op-brand-sub">Office</span></p>
        <nav aria-label="Console">
          <ul className="op-nav">
            {link('operatorBoard', 'Bookings', unseen > 0 && (
              <><span className="op-badge" aria-hidden="true">{unseen}</span><span className="sr-only"> ({unseen} new)</span></>
            ))}
            {link('operatorNewBooking', 'New booking')}
            {link('operatorRecords', 'Records')}
            {link('operatorComplaints', 'Complaints')}
            {link('operatorLostProperty', 'Lost property')}
            {link('operatorAccounts', 'Accounts')}
            {link('operatorMail', 'Mail')}
            {link('operatorExport', 'Export')}
            {staff && link('operatorData', staff.role === 'admin' ? 'Operator data' : 'Drivers and vehicles')}
            {mayHandlePrivacyRequests(staff?.role) && link('operatorPrivacy', 'Privacy')}
          </ul>
        </nav>
        <div className="op-who">
          {staff && <span className="op-who-name">{staff.name}<span className="op-who-role"> · {staff.company_name ?? ROLE_LABELS[staff.role]}</span></span>}
          <button type="button" className="btn op-signout" disabled={signingOut} onClick={() => actor.send({ type: 'signOut' })}>Sign out</button>
        </div>
      </div>
    </header>
  );
}
