// The site's text pages (issue 10): Terms and Conditions, Privacy Policy and the
// Accessibility statement. Their text is an operator setting (plain text: a line
// starting '## ' is a heading, '- ' a list item, a blank line ends a paragraph;
// {company}, {phone}, {email} and {address} are filled in). Without the setting,
// the default below is used. The server serves them (GET /api/v1/page/:slug),
// never with GET /setting, so the first page does not carry them.

export const SITE_PAGES = {
  terms: { setting: 'TERMS_AND_CONDITIONS', title: 'Terms and Conditions' },
  privacy: { setting: 'PRIVACY_POLICY', title: 'Privacy Policy' },
  accessibility: { setting: 'ACCESSIBILITY_STATEMENT', title: 'Accessibility statement' },
} as const;
export type SitePageSlug = keyof typeof SITE_PAGES;
export const PAGE_TEXT_SETTINGS: readonly string[] = Object.values(SITE_PAGES).map((p) => p.setting);

export const isSitePageSlug = (s: string): s is SitePageSlug => Object.hasOwn(SITE_PAGES, s);

export type PageBlock = { kind: 'heading' | 'paragraph'; text: string } | { kind: 'list'; items: string[] };

/** The page's text as blocks a view can render without HTML. */
export function pageBlocks(text: string): PageBlock[] {
  const blocks: PageBlock[] = [];
  for (const chunk of text.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const lines = chunk.split('\n').map((l) => l.trim()).filter(Boolean);
    let paragraph: string[] = [];
    let list: string[] = [];
    const flush = () => {
      if (paragraph.length) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
      if (list.length) blocks.push({ kind: 'list', items: list });
      paragraph = [];
      list = [];
    };
    for (const line of lines) {
      if (line.startsWith('## ')) { flush(); blocks.push({ kind: 'heading', text: line.slice(3).trim() }); }
      else if (line.startsWith('- ')) { if (paragraph.length) flush(); list.push(line.slice(2).trim()); }
      else { if (list.length) flush(); paragraph.push(line); }
    }
    flush();
  }
  return blocks;
}

export interface OperatorDetails { company: string; phone: string; email: string; address: string }

export function fillPlaceholders(text: string, o: OperatorDetails): string {
  return text.replace(/\{(company|phone|email|address)\}/g, (_, key: keyof OperatorDetails) => o[key] || '');
}

export const DEFAULT_PAGE_TEXT: Record<SitePageSlug, string> = {
  terms: `These terms apply to every journey booked on this website with {company}. By booking you accept them.

## Your booking
- A booking is confirmed when you see the confirmation page and receive the confirmation e-mail with your booking number.
- The price shown before you book is the price you pay for the journey, the extras and the waiting time you chose. It does not change because of traffic or the route the driver takes.
- Extra waiting beyond what you booked, extra stops or a changed destination on the day are charged at the operator's published rates, and the driver tells you before the journey continues.

## Paying
- You pay in the car or by card when you book, as offered on the payment step.
- Card payments are taken by our card processor. We never see or store your card number.

## Changes and cancellations
- Call {phone} or e-mail {email} with your booking number to change or cancel a journey.
- A journey cancelled at least 24 hours before pickup is refunded in full. A later cancellation may be charged up to the full fare if the car has already been sent.

## Waiting and meeting you
- At airports the driver tracks your flight and waits in arrivals with a name board (Meet and Greet, where booked).
- Elsewhere the driver waits at the pickup address for the waiting time you booked.

## Luggage and passengers
- The vehicle is chosen for the number of passengers and cases you give. A driver may refuse passengers or luggage beyond the vehicle's safe capacity.
- Child seats are fitted when booked. Children must travel in a suitable seat as UK law requires.

## Licensing and complaints
- Every journey is carried out by a licensed private hire operator, vehicle and driver.
- If something goes wrong, contact us at {email} or {phone}. We answer every complaint within 10 working days.

{company}, {address}.`,
  privacy: `{company} ({address}) is responsible for the personal data you give on this website. This policy says what we keep, why, and for how long.

## What we keep and why
- Your booking: names, e-mail address, phone number, pickup and drop-off addresses, dates, times, passengers, luggage and any notes. We need them to carry out the journey, send your confirmation and keep accounts.
- A corporate account: your name, e-mail address, phone number and password (stored only as a one-way hash), to let you see your bookings.
- Messages you send us with the contact or quote forms, to answer them.
- Card payments are handled by our card processor. We keep its payment reference, never your card details.

## How long we keep it
- Your name, e-mail address, phone number, notes and addresses on a booking are kept for 12 months after the journey, as our licence requires, then removed; what stays of the booking names no one (its date, price, vehicle and the postcode district of each address).
- VAT invoices are kept for six years, as UK accounting rules require.
- Contact messages and quote requests are deleted 12 months after they were sent.
- Copies of the e-mails we send you are deleted 90 days after sending.
- Password reset codes and sign-in records are deleted within 30 days.

## In your browser
- This website uses no cookies and no tracking or advertising tools.
- While you book, your journey and details (never your password) are kept in your browser's local storage so a reload does not lose them. They are removed once your booking is confirmed; the confirmation itself stays in that browser tab until you close it. If you sign in to a corporate account, your sign-in is kept there until you log out.

## Who we share it with
- The licensed operator and driver who carry out your journey.
- Our card processor, when you pay by card.
- No one else, unless the law requires it.

## Your rights
You may ask for a copy of your data, its correction or its deletion (beyond what we must keep: VAT invoices, and a booking still to come until its journey) by e-mailing {email}. You may also complain to the Information Commissioner's Office (ico.org.uk).`,
  accessibility: `{company} wants everyone to be able to book a journey on this website, whatever device or assistive technology they use.

## How accessible this website is
- We aim to meet the Web Content Accessibility Guidelines (WCAG) 2.2 at level AA.
- Every page can be used with a keyboard alone. Focus moves to each new step's heading, and each step names itself in the page title.
- Forms have visible labels, required fields are marked, and errors are announced and shown next to the field they are about.
- Text and controls meet WCAG's colour contrast ratios, and pages work on phone and desktop screens and when zoomed in.
- Every page is checked automatically with axe on each change, on a phone-sized and a desktop-sized screen.

## What we know is not perfect
- Maps of your route are images with a text description of the route next to them. The route itself is given as text in the booking summary.
- Card fields are provided by our card processor. If you cannot use them, choose Pay in Car or call us.

## Tell us about a problem
If you find anything hard to use, call {phone} or e-mail {email} and say which page and what went wrong. We reply within 5 working days, and we can take your booking by phone meanwhile.`,
};
