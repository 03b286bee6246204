// The words of each message, as plain text and simple HTML.
import type { BookingResult } from '../../domain/schemas';
import { currencyOf, type Settings } from '../../domain/settings';
import { formatExactPrice } from '../../domain/money';
import { formatDateUK, formatTime12, ukPartsAt } from '../../domain/ukTime';
import { formatPhone } from '../../domain/phone';
import { bookingSummary } from '../../domain/bookingSummary';

export interface Message { subject: string; text: string; html: string }

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * A row's value the site wrote itself: one of its own pages (the booking's manage link, the console, Find my
 * booking). It is the only kind of value a message makes a link of (issue 39).
 */
export interface SiteLink { link: string }
type Value = string | SiteLink;

const ZERO_WIDTH_SPACE = '\u200B';
/** An e-mail address, maybe followed by the end of a sentence: left whole, so the office can still write to it. */
const EMAIL_WORD = /^[\w.+'-]+@[\w-]+(\.[\w-]+)+[.,;:!?)]*$/;

/**
 * Text the site did not write (what a visitor typed, and anything else but a SiteLink), as no mail client makes a
 * link of it (issue 39): a zero-width space after each "://" and before each dot that joins letters or digits to a
 * letter ("evil.example", "www.") breaks every web address, and it reads as it was typed. E-mail addresses stay whole.
 */
export function defuse(text: string): string {
  // Most values have neither (a time, a name, "Yes"): left as they are without looking at each word (issue 40).
  if (!text.includes('.') && !text.includes('://')) return text;
  return text.replace(/:\/\//g, `:/${ZERO_WIDTH_SPACE}/`)
    .replace(/\S+/g, (word) => (!word.includes('.') || EMAIL_WORD.test(word) ? word : word.replace(/(?<=[\p{L}\p{N}])\.(?=\p{L})/gu, `${ZERO_WIDTH_SPACE}.`)));
}

/** Defused text in HTML: escaped, the zero-width spaces written as their entity. */
const html = (text: string) => escape(defuse(text)).replace(/\u200B/g, '&#8203;');

/** A value in the HTML table: the site's own page is a link, anything else defused text. */
const cell = (v: Value) => (typeof v === 'string' ? html(v) : `<a href="${escape(v.link)}">${escape(v.link)}</a>`);
/** A value in the text part: the site's own page as it is (a reader's program may link it), anything else defused. */
const line = (v: Value) => (typeof v === 'string' ? defuse(v) : v.link);

function render(title: string, intro: string, rows: [string, Value][], outro: string[]): Message & { title: string } {
  const width = Math.max(...rows.map(([k]) => k.length));
  const text = [defuse(intro), '', ...rows.map(([k, v]) => `${k.padEnd(width)}  ${line(v)}`), '', ...outro.map(defuse)].join('\n');
  const body = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#1b2430">
<h1 style="color:#0f2a47;font-size:20px">${html(title)}</h1><p>${html(intro)}</p>
<table cellpadding="6" style="border-collapse:collapse">${rows.map(([k, v]) =>
    `<tr><th align="left" style="border-bottom:1px solid #dde3ea;color:#5b6675">${html(k)}</th><td style="border-bottom:1px solid #dde3ea">${cell(v)}</td></tr>`).join('')}</table>
${outro.map((l) => `<p>${html(l)}</p>`).join('')}</body></html>`;
  return { title, subject: title, text, html: body };
}

function signature(s: Settings): string[] {
  return [
    `${s.Company_Name ?? ''}`.trim(),
    [s.Company_Contact_Info, s.Company_Email, s.Company_Address].filter(Boolean).join(' | '),
  ].filter(Boolean);
}

export const confirmationSubject = (r: BookingResult) => `Booking confirmed: ${r.booking.booking_number}`;

/**
 * The passenger's confirmation. With `manageLink` (issue 27) it carries the booking's "Manage your booking" link, whose
 * key opens the booking: such a message's body is erased once it is sent.
 */
export function bookingConfirmation(r: BookingResult, s: Settings, breakdown: { label: string; amount: string }[], manageLink?: string): Message {
  const p = r.passengerDetails;
  const currency = currencyOf(s);
  const summary = bookingSummary(r, { reader: 'email', settings: s, amount: (pounds) => formatExactPrice(pounds, currency) });
  const rows: [string, Value][] = [
    ...summary.journey, ...summary.stops, ...summary.passenger, ...summary.extras, ...summary.included,
    ...breakdown.map((l) => ({ label: l.label, value: formatExactPrice(l.amount, currency) })),
    ...summary.vehicle,
  ].map((row) => [row.label, row.value]);
  if (manageLink) rows.push(['Manage your booking', { link: manageLink }]);
  const m = render(
    confirmationSubject(r),
    `Thank you, ${p.passenger_name}. Your booking with ${s.Company_Name ?? 'us'} is confirmed. Please keep your reference ID.`,
    rows,
    [
      manageLink
        ? 'To see, change or cancel your booking, or to get a receipt, use the "Manage your booking" link above. It opens this booking only: please do not share it.'
        : 'To change or cancel, reply to this e-mail or call us, quoting your reference ID.',
      ...signature(s),
    ],
  );
  return { subject: m.subject, text: m.text, html: m.html };
}

/** What the office's notice adds to the passenger's confirmation. */
export interface BookingNotice {
  /** Who booked, when not the passenger (booking for someone else): the office may need to call them. */
  booker: { name: string; email: string; phone: string };
  /** Where the payment stands, in words: 'To be paid in the car', 'Paid by card'. */
  paymentStatus: string;
  /** The booking in the operator's console. */
  consoleUrl: string;
}

export const noticeSubject = (r: BookingResult) => {
  const b = r.booking;
  return `New booking ${b.booking_number}: ${formatDateUK(b.pick_up_date)} ${formatTime12(b.pick_up_time)}, ${b.pick_up_address}`;
};

/**
 * What the office and the company that drives the booking read of a new booking (issue 26): everything the
 * passenger's confirmation says (every extra, each price line, the flights), the passenger's and the booker's phone
 * and e-mail, how it is paid and where that stands, and the link to it in the console.
 */
export function newBookingNotice(r: BookingResult, s: Settings, breakdown: { label: string; amount: string }[], n: BookingNotice): Message {
  const b = r.booking;
  const p = r.passengerDetails;
  const currency = currencyOf(s);
  const summary = bookingSummary(r, { reader: 'email', settings: s, amount: (pounds) => formatExactPrice(pounds, currency) });
  const forSomeoneElse = n.booker.email.trim().toLowerCase() !== p.passenger_email.trim().toLowerCase() || n.booker.name !== p.passenger_name;
  const rows: [string, Value][] = [
    ...summary.journey, ...summary.stops, ...summary.passenger,
    ...(forSomeoneElse ? [
      { label: 'Booked by', value: n.booker.name }, { label: 'Booker email', value: n.booker.email },
      { label: 'Booker phone', value: formatPhone(n.booker.phone) || '-' },
    ] : []),
    ...summary.extras, ...summary.included,
    ...breakdown.map((l) => ({ label: l.label, value: formatExactPrice(l.amount, currency) })),
    ...summary.vehicle,
    { label: 'Payment status', value: n.paymentStatus },
  ].map((row): [string, Value] => [row.label, row.value]);
  rows.push(['In the console', { link: n.consoleUrl }]);
  const m = render(
    noticeSubject(r),
    `A booking for ${b.company_name} was made on the website. Open it in the console with the link below.`,
    rows,
    ['Reply to this e-mail to write to the person who booked.'],
  );
  return { subject: m.subject, text: m.text, html: m.html };
}

export interface QuoteRequestMail {
  pickup_address: string; dropoff_address: string; pickup_date: string; pickup_time: string; passenger_name: string;
  passenger_email: string; passenger_phone: string; passengers: number; luggages: number; additional_info: string;
}

export function quoteRequestMail(q: QuoteRequestMail, id: number): Message {
  const m = render(`Quote request #${id}: ${q.pickup_address} to ${q.dropoff_address}`, 'A visitor asked for a quote on the website.', [
    ['Pickup address', q.pickup_address], ['Drop-off address', q.dropoff_address],
    ['Pickup date', formatDateUK(q.pickup_date)], ['Pickup time', formatTime12(q.pickup_time)],
    ['Name', q.passenger_name], ['Email', q.passenger_email], ['Telephone', formatPhone(q.passenger_phone)],
    ['Passengers', String(q.passengers)], ['Luggage', String(q.luggages)], ['Additional information', q.additional_info],
  ], ['Reply to this e-mail to answer the visitor.']);
  return { subject: m.subject, text: m.text, html: m.html };
}

export interface ContactMail {
  firstName: string; lastName: string; email: string; telephone: string; queryReason: string; bookingNumber: string; comments: string;
}

export function contactMail(c: ContactMail, id: number): Message {
  const m = render(`Contact form #${id}: ${c.queryReason} from ${c.firstName} ${c.lastName}`, 'A visitor sent a message from the website.', [
    ['Name', `${c.firstName} ${c.lastName}`], ['Email', c.email], ['Telephone', formatPhone(c.telephone)],
    ['Reason', c.queryReason], ['Booking number', c.bookingNumber || '-'], ['Comments', c.comments],
  ], ['Reply to this e-mail to answer the visitor.']);
  return { subject: m.subject, text: m.text, html: m.html };
}

/** To the address an account had: told that it was replaced, and whom to call if that was not its owner. */
export function emailChangedMail(oldEmail: string, newEmail: string, s: Settings): Message {
  const phone = s.Company_Contact_Info ? ` on ${s.Company_Contact_Info}` : '';
  const m = render('Your e-mail was changed', `Your e-mail was changed to ${newEmail}. If this was not you, call us${phone} at once.`, [
    ['Account', oldEmail], ['New e-mail', newEmail],
  ], ['Every other device signed in to your account has been signed out.', ...signature(s)]);
  return { subject: m.subject, text: m.text, html: m.html };
}

/** The driver the office gave a booking, as the passenger reads it. */
/** A driver as a booking keeps them (issue 41: with the car's colour; bookings dispatched before have none). */
export interface DriverDetails { name: string; mobile: string; vehicle: string; registration: string; colour?: string }

/** To the passenger when the office assigns a driver, and again when it changes the driver (issue 26). */
export function driverAssignedMail(r: BookingResult, driver: DriverDetails, s: Settings, changed: boolean): Message {
  const b = r.booking;
  const m = render(`Your driver for ${b.booking_number}`,
    `${changed ? 'Your driver has changed. ' : ''}Your driver for ${formatDateUK(b.pick_up_date)} at ${formatTime12(b.pick_up_time)} is ${driver.name}.`, [
      ['Reference ID', b.booking_number], ['Pickup', `${formatDateUK(b.pick_up_date)} ${formatTime12(b.pick_up_time)}, ${b.pick_up_address}`],
      ['Driver', driver.name], ['Driver mobile', formatPhone(driver.mobile)], ['Vehicle', driver.colour ? `${driver.colour} ${driver.vehicle}` : driver.vehicle], ['Registration', driver.registration],
    ], ['Your driver will be waiting at the pickup address at the time booked.', ...signature(s)]);
  return { subject: m.subject, text: m.text, html: m.html };
}

/** To the driver when the office gives them a job (issue 41 §2): when, where, who, and the link to their page. */
export function driverJobMail(r: BookingResult, driverName: string, driverUrl: string, s: Settings): Message {
  const b = r.booking;
  const m = render(`New job ${b.booking_number}`, `${driverName}, the office has given you a job. Accept it on your page: ${driverUrl}`, [
    ['Reference ID', b.booking_number], ['Pickup', `${formatDateUK(b.pick_up_date)} ${formatTime12(b.pick_up_time)}, ${b.pick_up_address}`],
    ['Drop-off', b.drop_off_address ?? `${b.hourly_duration ?? ''} hourly`], ['Passengers', String(r.passengerDetails.total_passengers)],
  ], ['The passenger\'s phone, the sign and the notes are on your page.', ...signature(s)]);
  return { subject: m.subject, text: m.text, html: m.html };
}

/** What a cancellation says of the money: nothing to pay, refunded (all or part), or kept. */
export function refundWords(paymentMethod: string, refundedPence: number | null, paidPence: number, currency: string): string {
  if (paymentMethod !== 'card') return 'Nothing is charged.';
  if (refundedPence === null || refundedPence === 0) return 'The payment is not refunded.';
  const amount = formatExactPrice((refundedPence / 100).toFixed(2), currency);
  return refundedPence === paidPence
    ? `The ${amount} paid is refunded to your card. It usually shows within 5 to 10 working days.`
    : `${amount} of your payment is refunded to your card. It usually shows within 5 to 10 working days.`;
}

/**
 * The pickup row of a passenger's message: the date, the time and the address; to an address not shown to be the
 * passenger's (`plain`, issue 39) the date and time alone, as the address is text a visitor typed.
 */
const pickupRow = (b: BookingResult['booking'], plain = false): [string, string] =>
  ['Pickup', `${formatDateUK(b.pick_up_date)} ${formatTime12(b.pick_up_time)}${plain ? ' (UK time)' : `, ${b.pick_up_address}`}`];

/** To the passenger when the office cancels a booking, or they cancel it themselves (`plain`: see pickupRow). */
export function bookingCancelledMail(r: BookingResult, reason: string, money: string, s: Settings, plain = false): Message {
  const b = r.booking;
  const phone = s.Company_Contact_Info ? ` or call us on ${s.Company_Contact_Info}` : '';
  const m = render(`Booking cancelled: ${b.booking_number}`, `Your booking ${b.booking_number} has been cancelled.`, [
    ['Reference ID', b.booking_number], pickupRow(b, plain),
    ['Reason', reason], ['Payment', money],
  ], [`If you did not expect this, reply to this e-mail${phone}.`, ...signature(s)]);
  return { subject: m.subject, text: m.text, html: m.html };
}

/** To the office, with the company in copy, when a booking is cancelled or changed (issue 26). */
export function officeChangeNotice(r: BookingResult, what: string, rows: [string, string][], by: string, consoleUrl: string): Message {
  const b = r.booking;
  const m = render(`${what}: ${b.booking_number}, ${formatDateUK(b.pick_up_date)} ${formatTime12(b.pick_up_time)}, ${b.pick_up_address}`,
    `${what} for ${b.company_name}, by ${by}.`, [
      ['Reference ID', b.booking_number], ['Pickup', `${formatDateUK(b.pick_up_date)} ${formatTime12(b.pick_up_time)}, ${b.pick_up_address}`],
      ['Passenger', `${r.passengerDetails.passenger_name}, ${formatPhone(r.passengerDetails.passenger_contact_no)}`],
      ...rows, ['In the console', { link: consoleUrl }],
    ], []);
  return { subject: m.subject, text: m.text, html: m.html };
}

/** An instant as the UK reads it: '12-12-2030 18:45 (UK time)'. */
function ukDateTimeWords(at: Date): string {
  const p = ukPartsAt(at);
  return `${formatDateUK(p.date)} ${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')} (UK time)`;
}

/**
 * To the passenger of a booking the office took by phone (issue 43 §1): the trip and the price, and the link to pay it
 * by card on the site, until it expires. The booking is confirmed (the usual confirmation follows) once paid.
 */
export function paymentLinkMail(r: BookingResult, link: string, expiresAt: Date, s: Settings): Message {
  const b = r.booking;
  const until = ukDateTimeWords(expiresAt);
  const m = render(`Pay for your booking ${b.booking_number}`, `Thank you for booking with us by telephone. Your booking is held until ${until}: pay by card with the link below to confirm it.`, [
    ['Reference ID', b.booking_number], pickupRow(b), ...(b.drop_off_address ? [['Drop-off', b.drop_off_address] as [string, Value]] : []),
    ['Vehicle', `${b.fleet_category.category_name}, ${b.company_name}`],
    ['To pay', `${currencyOf(s)}${b.total_booking_amount}`],
    ['Pay by card', { link }],
  ], [`The link works until ${until}. Your confirmation, with the link to manage your booking, follows once you have paid.`, ...signature(s)]);
  return { subject: m.subject, text: m.text, html: m.html };
}

/** "Find my booking" (issue 27): the link to the booking's page, to the booking's own address (`plain`: see pickupRow). */
export function manageLinkMail(r: BookingResult, link: string, s: Settings, plain = false): Message {
  const b = r.booking;
  const m = render(`Your booking ${b.booking_number}`, 'Here is the link to see, change or cancel your booking, and to get a receipt.', [
    ['Reference ID', b.booking_number], pickupRow(b, plain),
    ['Manage your booking', { link }],
  ], ['If you did not ask for this link, you can ignore this e-mail: nothing has changed.', ...signature(s)]);
  return { subject: m.subject, text: m.text, html: m.html };
}

/** To the passenger (issue 27) when they change their booking on its page: what changed, and what happens to the money. */
export function bookingChangedMail(r: BookingResult, rows: [string, string][], money: string | null, s: Settings): Message {
  const b = r.booking;
  const m = render(`Booking changed: ${b.booking_number}`, `Your booking ${b.booking_number} has been changed as you asked.`, [
    ['Reference ID', b.booking_number], pickupRow(b),
    ...rows, ...(money ? [['Payment', money] as [string, string]] : []),
  ], ['If you did not make this change, reply to this e-mail or call us at once.', ...signature(s)]);
  return { subject: m.subject, text: m.text, html: m.html };
}

/** To the passenger when their flight moves the pickup (issue 42): the new time, the booked one and why. */
export function pickupMovedMail(r: BookingResult, rows: [string, string][], s: Settings): Message {
  const b = r.booking;
  const m = render(`New pickup time: ${b.booking_number}`, `Your flight has changed, so the pickup time of booking ${b.booking_number} has moved. Your driver knows.`, [
    ['Reference ID', b.booking_number], ...rows,
  ], ['Free waiting time counts from when your flight lands.', ...signature(s)]);
  return { subject: m.subject, text: m.text, html: m.html };
}

/**
 * A change's notice to an address not shown to be the passenger's (issue 39): the new address a change gave, or the
 * booking's address when a change gave it. Fixed words only, none a visitor wrote (no notes, sign, names or
 * addresses): the reference, the pickup's date and time, Find my booking (which sends the booking's link to its
 * address) and the office's contact.
 */
export function bookingChangedNotice(r: BookingResult, findLink: string, s: Settings, newAddress: boolean): Message {
  const b = r.booking;
  const company = s.Company_Name?.trim() || 'us';
  const phone = s.Company_Contact_Info ? `, or call us on ${s.Company_Contact_Info}` : '';
  const m = render(`Booking changed: ${b.booking_number}`,
    newAddress
      ? `This e-mail address was given for booking ${b.booking_number} with ${company}, and the booking was changed.`
      : `Booking ${b.booking_number} with ${company} has been changed.`, [
      ['Reference ID', b.booking_number], pickupRow(b, true), ['Find your booking', { link: findLink }],
    ], [
      'To see the booking and what changed, use Find my booking with its reference and this e-mail address: we send its link here.',
      `If you know nothing of this booking, you can ignore this e-mail${phone}.`, ...signature(s),
    ]);
  return { subject: m.subject, text: m.text, html: m.html };
}

/**
 * To the office alone (decision 50) when a company's staff cancel a card booking: the operator took the payment, so
 * the company cannot refund it; the office refunds it from the console (Refund on the booking's page).
 */
export function refundDueNotice(r: BookingResult, by: string, leftPence: number, reason: string, currency: string, consoleUrl: string): Message {
  const b = r.booking;
  const amount = formatExactPrice((leftPence / 100).toFixed(2), currency);
  const m = render(`Refund due: ${b.booking_number}`,
    `${b.booking_number} was cancelled by ${by}; its card payment of ${amount} was not refunded: refund it from the console.`, [
      ['Reference ID', b.booking_number], ['Company', b.company_name],
      ['Pickup', `${formatDateUK(b.pick_up_date)} ${formatTime12(b.pick_up_time)}, ${b.pick_up_address}`],
      ['Reason', reason], ['Not refunded', amount], ['In the console', { link: consoleUrl }],
    ], []);
  return { subject: m.subject, text: m.text, html: m.html };
}

/** To the passenger when the office refunds a cancelled booking's payment after its cancellation (decision 50). */
export function refundAfterCancelMail(r: BookingResult, refundedPence: number, s: Settings): Message {
  const b = r.booking;
  const amount = formatExactPrice((refundedPence / 100).toFixed(2), currencyOf(s));
  const m = render(`Refund: ${b.booking_number}`, `${amount} paid for your cancelled booking ${b.booking_number} is refunded to your card.`, [
    ['Reference ID', b.booking_number], ['Refund', `${amount}. It usually shows within 5 to 10 working days.`],
  ], ['If you have a question about it, reply to this e-mail.', ...signature(s)]);
  return { subject: m.subject, text: m.text, html: m.html };
}

/**
 * A booking's confirmation and the office's notice are written with the booking as what they are made from (issue 40):
 * the booking as answered, its price lines, and the manage link or the notice's own facts. The sender renders them,
 * with the settings of the moment (the company's name and contacts), when it hands them over.
 */
/** A complaint or a lost property entry as its closing e-mail names it (issue 43 §3). */
export interface ClosedCase { what: 'complaint' | 'lost property report'; number: string; name: string; booking: string; about: string; outcome: string }

/** To the complainant or the owner, once, when the office closes their entry: what it was about and the outcome. */
export function caseClosedMail(c: ClosedCase, s: Settings): Message {
  const greeting = c.name ? `Dear ${c.name}, w` : 'W';
  const m = render(`Your ${c.what} ${c.number}`, `${greeting}e have finished looking into your ${c.what}, and this is our answer.`, [
    ['Reference', c.number], ['Booking', c.booking || '-'], [c.what === 'complaint' ? 'Your complaint' : 'The item', c.about || '-'],
    ['Outcome', c.outcome],
  ], ['If anything is still not right, reply to this e-mail or call us, quoting the reference above.', ...signature(s)]);
  return { subject: m.subject, text: m.text, html: m.html };
}

export interface AccountInvoiceMail {
  number: string; account: string; month: string; journeys: number; gross: string; notes: string | null; due: string; dueOn: string;
  link: string;
}

/** To an account's billing address, once, when its monthly invoice is issued (issue 44): what it is for and when due. */
export function accountInvoiceMail(i: AccountInvoiceMail, s: Settings): Message {
  const m = render(`Invoice ${i.number} for ${i.month}`, `Dear ${i.account}, this is your invoice for the journeys of ${i.month}.`, [
    ['Invoice', i.number], ['Month', i.month], ['Journeys', String(i.journeys)], ['Invoice total', i.gross],
    ...(i.notes ? [['Credit and debit notes', i.notes] as [string, Value]] : []),
    ['Amount due', i.due], ['Due by', i.dueOn], ['Download (sign in, then Invoices)', { link: i.link }],
  ], ['Each journey is listed with its reference, passenger and your booking fields. Reply to this e-mail with any question.', ...signature(s)]);
  return { subject: m.subject, text: m.text, html: m.html };
}

export type StoredTemplate = 'booking_confirmation' | 'new_booking_notice';
export interface StoredBookingMessage {
  booking: BookingResult; lines: { label: string; amount: string }[];
  /** The confirmation's "Manage your booking" link: the message's data is erased once it is sent (issue 27). */
  manageLink?: string;
  /** The notice's facts. */
  notice?: BookingNotice;
}

export function renderStored(template: string, data: string, s: Settings): Message {
  const d = JSON.parse(data) as StoredBookingMessage;
  if (template === 'booking_confirmation') return bookingConfirmation(d.booking, s, d.lines, d.manageLink);
  if (template === 'new_booking_notice' && d.notice) return newBookingNotice(d.booking, s, d.lines, d.notice);
  throw new Error(`no template "${template.slice(0, 40)}" with such data`);
}
