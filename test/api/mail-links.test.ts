// Issue 39 item 5, through the API: links only where the site put them. Notes that are a bare web address arrive as
// text in the passenger's confirmation, the office's notice of the booking, and a change's notices: no <a> but the
// site's own (the manage link, the console, Find my booking), no run a mail client would make a link of, in the HTML
// and in the text part; the words still read as they were typed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SITE_URL, storedMessages, testApp } from './setup';
import { setSetting } from '../../src/server/operator/operator';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
  await setSetting(t.db, 'MEET_AND_GREET', '10');
  t.clock.now = new Date('2030-09-01T12:00:00Z');
});
afterAll(async () => { await t.db.close(); });

const form = {
  pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
  pickup_date: '2030-09-12', pickup_hour: '7am', pickup_min: '15', passengers: 2, luggages: 1, meet_and_greet: 'yes', pickup_fight_number: '',
};
const URL_NOTES = 'https://evil.example/refund-form';

const mails = (bookingId: number, kind: string) => storedMessages(t.db, bookingId, kind);

/**
 * The message makes links of the site's own pages alone, and nothing in it reads to a mail client as a web address
 * but those (a scheme's "://" or a dotted name); what the visitor typed is still there to read.
 */
function onlySiteLinks(m: { body_text: string; body_html: string }, typed: string) {
  const hrefs = [...m.body_html.matchAll(/<a\b[^>]*href="([^"]*)"/g)].map((a) => a[1]);
  for (const href of hrefs) expect(href.startsWith(`${TEST_SITE_URL}/`), href).toBe(true);
  const withoutSite = (s: string) => s.replaceAll(/<a\b[^>]*>[^<]*<\/a>/g, '').replaceAll(new RegExp(`${TEST_SITE_URL}\\S*`, 'g'), '');
  for (const part of [withoutSite(m.body_html), withoutSite(m.body_text)]) {
    expect(part).not.toMatch(/[a-z]+:\/\//i);
    expect(part).not.toMatch(/evil\.example|www\./);
  }
  expect(m.body_text.replaceAll('\u200B', '')).toContain(typed);
  expect(m.body_html.replaceAll('&#8203;', '')).toContain(typed);
}

describe('a web address in the notes', () => {
  it('arrives as text in the confirmation and in the office\'s notice; the manage and console links stay links', async () => {
    const { body } = await t.call('POST', '/calculate-distance-price', form);
    const res = await t.call('POST', '/booking', {
      selectedVehicleData: body.price_details.find((p: any) => p.company_name === 'Metro Cars London' && p.vehicle_type === 'Saloon'),
      selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, hourlyRateForm: null, payment_method: 'car', selected_passenger: 'guest_login',
      registrationData: { firstName: 'Amelia', surname: 'Hart', number: '07700 900012', email: 'links.1@example.com', additionalInfo: URL_NOTES },
      stripe_session_id: null, paymentId: null,
    });
    expect(res.status).toBe(200);
    const { booking: { id, booking_number: ref }, manage_key: key } = res.body.data;
    const [confirmation] = await mails(id, 'booking_confirmation');
    onlySiteLinks(confirmation, URL_NOTES);
    expect(confirmation.body_html).toContain(`<a href="${TEST_SITE_URL}/manage/${ref}#key=${key}">`);
    const [notice] = await mails(id, 'new_booking_notice');
    onlySiteLinks(notice, URL_NOTES);
    expect(notice.body_html).toContain(`<a href="${TEST_SITE_URL}/operator/bookings/${ref}">`);
    expect(notice.body_text).toMatch(new RegExp(`In the console +${TEST_SITE_URL}/operator/bookings/${ref}\\n`));

    // A change of the notes to another address, www. and all: the passenger's and the office's notices.
    const changed = 'Pay at www.evil.example or http://evil.example/pay now.';
    expect((await t.call('POST', `/manage/${ref}/changes`, { additional_info: changed }, { 'X-Manage-Key': key })).status).toBe(200);
    const [toPassenger] = await mails(id, 'booking_changed');
    onlySiteLinks(toPassenger, changed);
    const [toOffice] = await mails(id, 'booking_change_notice');
    onlySiteLinks(toOffice, changed);
    expect(toOffice.body_html).toContain(`<a href="${TEST_SITE_URL}/operator/bookings/${ref}">`);
  });
});
