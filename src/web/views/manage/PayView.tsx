// A card payment link's page (issue 43 §1, machines/payLink.ts): the booking the office took by phone, its price, and
// the card form of the card page (3-D Secure included). Paid, it says the booking is confirmed and links to its page;
// a link already used, expired, cancelled or wrong says so, with the office's phone.
import { useEffect, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Link } from 'wouter';
import type { payLinkMachine, PayPage } from '../../../../machines/payLink';
import { formatExactPrice } from '../../../domain/money';
import { formatPhone } from '../../../domain/phone';
import { pathWith } from '../../../domain/screens';
import { useSettings } from '../../appActor';
import { currencyOf } from '../../../domain/settings';
import { LoadingOverlay } from '../../components/LoadingOverlay';
import { CardPayment, type CardRef } from '../card/CardPayment';
import { rememberManageKey } from '../../manageKeys';
import { useManage } from './manageActor';
import { Rows, Section } from './manageParts';

type PayRef = ActorRefFrom<typeof payLinkMachine>;

export function PayView() {
  const pay = useManage((s) => s.children.payLink as PayRef | undefined);
  if (!pay) return <LoadingOverlay text="Opening your payment" />;
  return <Pay pay={pay} />;
}

function Pay({ pay }: { pay: PayRef }) {
  const settings = useSettings();
  const currency = currencyOf(settings);
  const reference = useSelector(pay, (s) => s.context.reference);
  const page = useSelector(pay, (s) => s.context.page);
  const paid = useSelector(pay, (s) => s.context.paid);
  const invalid = useSelector(pay, (s) => s.context.invalid);
  const error = useSelector(pay, (s) => s.context.error);
  const state = useSelector(pay, (s) => s.value as string);
  const card = useSelector(pay, (s) => s.children.cardPayment as CardRef | undefined);
  const phone = page?.phone || settings.Company_Contact_Info || '';
  // The booking's own page opens with the key the payment gave, in this tab.
  useEffect(() => {
    if (paid?.manage_key) rememberManageKey(paid.booking.booking_number, paid.manage_key);
  }, [paid]);
  const call = phone ? <> Please call us on <a href={`tel:${phone.replace(/\s+/g, '')}`}>{formatPhone(phone)}</a>.</> : null;

  if (state === 'keying' || state === 'loading') return <LoadingOverlay text="Opening your payment" />;
  if (invalid) {
    return (
      <Narrow title="We could not open this payment link">
        <p className="lead" role="alert">This payment link is not valid. Please use the link in your latest e-mail or text.{call}</p>
      </Narrow>
    );
  }
  if (state === 'failed') {
    return (
      <Narrow title="Your payment could not be loaded">
        <p className="lead" role="alert">{error}</p>
        <p><button type="button" className="btn btn-primary" onClick={() => pay.send({ type: 'retry' })}>Try again</button></p>
      </Narrow>
    );
  }
  if (paid) {
    return (
      <Narrow title={`Thank you: booking ${paid.booking.booking_number} is confirmed`}>
        <p className="lead" role="status">Your payment of {formatExactPrice(paid.booking.total_booking_amount, currency)} is complete. We have e-mailed your confirmation to {paid.passengerDetails.passenger_email}.</p>
        {paid.manage_key
          ? <p><Link href={pathWith('manageBooking', { reference: paid.booking.booking_number })} className="btn btn-primary">See your booking</Link></p>
          : <p>The e-mail has the link to see, change or cancel your booking.</p>}
      </Narrow>
    );
  }
  if (!page) return <LoadingOverlay text="Opening your payment" />;
  if (page.state !== 'awaiting') return <Closed page={page} call={call} />;
  return (
    <div className="page manage-page pay-page">
      <header className="manage-head">
        <p className="manage-ref">Booking {reference}</p>
        <h1>Pay for your booking</h1>
        <p className="lead">Your booking is held for you until {new Date(page.expires_at).toLocaleString('en-GB', { timeZone: 'Europe/London', dateStyle: 'full', timeStyle: 'short' })}. Pay by card to confirm it.</p>
      </header>
      <Trip page={page} currency={currency} />
      {state === 'ready' && (
        <p><button type="button" className="btn btn-primary btn-block" onClick={() => pay.send({ type: 'pay.start' })}>Pay {formatExactPrice(page.amount, currency)} by card</button></p>
      )}
      {state === 'paying' && card && (
        <Section id="pay-card-title" title={`Pay ${formatExactPrice(page.amount, currency)} by card`}>
          <CardPayment card={card} completing="Confirming your booking..." />
          <p><button type="button" className="btn btn-secondary" onClick={() => pay.send({ type: 'pay.close' })}>Not now</button></p>
        </Section>
      )}
    </div>
  );
}

function Trip({ page, currency }: { page: PayPage; currency: string }) {
  const t = page.trip;
  if (!t) return null;
  return (
    <Section id="pay-trip-title" title="Your booking">
      <Rows rows={[
        { label: 'Passenger', value: t.passenger },
        { label: 'Pickup', value: `${t.date} ${t.time}, ${t.pickup}` },
        ...(t.dropoff ? [{ label: 'Drop-off', value: t.dropoff }] : []),
        { label: 'Vehicle', value: `${t.vehicle}, ${t.company}` },
        { label: 'To pay', value: formatExactPrice(page.amount, currency), strong: true },
      ]} />
    </Section>
  );
}

function Closed({ page, call }: { page: PayPage; call: ReactNode }) {
  if (page.state === 'paid') {
    return (
      <Narrow title={`Booking ${page.reference} is paid`}>
        <p className="lead" role="status">This booking has been paid and is confirmed. Your confirmation, with the link to manage your booking, is in your e-mail.</p>
      </Narrow>
    );
  }
  return (
    <Narrow title={page.state === 'cancelled' ? `Booking ${page.reference} was cancelled` : 'This payment link has expired'}>
      <p className="lead" role="alert">
        {page.state === 'cancelled' ? 'This booking was cancelled, so there is nothing to pay.' : 'The time to pay for this booking has passed, so it was not confirmed.'}{call}
      </p>
    </Narrow>
  );
}

function Narrow({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="page manage-page narrow">
      <h1>{title}</h1>
      {children}
    </div>
  );
}
