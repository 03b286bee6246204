// Model-based tests of machines/operator.ts, the office's console (issue 26): paths generated from the model
// (./models/operator.ts) cover every transition, with the facts checked after each step.
import { describe, expect, it } from 'vitest';
import { run, testModel } from './modelPaths';
import { MESSAGES } from '../../src/domain/operatorDesk';
import { unseenCount } from '../../machines/operator';
import { INPUTS, REF, refusal, board, companyDesk, getSession, loadBoard, loadBooking, loadRecords, model, page, records, runAction, signIn, staff, url } from './models/operator';

testModel(model);

describe('what the console does on its way', () => {
  it("opens the booking of the office's e-mail after signing in, and comes back to it when the session ends", async () => {
    const sut = run(model, INPUTS["a link to a booking from the office's e-mail"]);
    await sut.exec(getSession.done(null));
    expect(sut.snapshot.context.location).toEqual({ path: '/operator/login', search: '' });
    await sut.exec({ type: 'signIn', email: staff.email, password: 'x' });
    await sut.exec(signIn.done(staff));
    expect(sut.snapshot.context.location.path).toBe(`/operator/bookings/${REF}`);
    expect(sut.calls.at(-1)).toEqual({ service: 'loadBooking', input: { reference: REF } });
    await sut.exec(loadBooking.fails(refusal(MESSAGES.sessionEnded, { status: 401 })));
    expect([sut.snapshot.context.location.path, sut.snapshot.context.error?.message]).toEqual(['/operator/login', MESSAGES.sessionEnded]);
    await sut.exec({ type: 'signIn', email: staff.email, password: 'x' });
    await sut.exec(signIn.done(staff));
    expect(sut.snapshot.context.location.path).toBe(`/operator/bookings/${REF}`);
    sut.stop();
  });

  it('counts bookings that arrive while the board is open, and Show counts them seen', async () => {
    const sut = run(model, INPUTS['a visit to /operator']);
    await sut.exec(getSession.done(staff));
    await sut.exec(loadBoard.done(board));
    expect(unseenCount(sut.snapshot)).toBe(0);
    await sut.exec({ type: 'latest', latest: { latest_id: 9, count: 7 } });
    expect(unseenCount(sut.snapshot)).toBe(2);
    expect(sut.calls.at(-1)?.service).toBe('loadBoard');
    await sut.exec(loadBoard.done({ ...board, latest: { latest_id: 9, count: 7 } }));
    expect(unseenCount(sut.snapshot)).toBe(2);
    // A board answered before the watch's news does not forget it.
    await sut.exec({ type: 'board.query', query: { tab: 'past' } });
    await sut.exec(loadBoard.done(board));
    expect(unseenCount(sut.snapshot)).toBe(2);
    await sut.exec({ type: 'board.showNew' });
    await sut.exec(loadBoard.done({ ...board, latest: { latest_id: 9, count: 7 } }));
    expect(unseenCount(sut.snapshot)).toBe(0);
    sut.stop();
  });

  it('loads the record before the assign dialog, sends the driver and car only once confirmed, and keeps the form open with the field the server refused', async () => {
    const sut = run(model, INPUTS["a link to a booking from the office's e-mail"]);
    await sut.exec(getSession.done(staff));
    await sut.exec(loadBooking.done(page));
    await sut.exec({ type: 'action.start', action: 'complete' });
    expect(sut.snapshot.matches({ signedIn: { booking: 'confirming' } })).toBe(false);
    await sut.exec({ type: 'action.start', action: 'assignDriver' });
    expect(sut.calls.at(-1)).toEqual({ service: 'loadRecords', input: undefined });
    await sut.exec(loadRecords.done(records));
    expect(sut.snapshot.matches({ signedIn: { booking: 'confirming' } })).toBe(true);
    expect(sut.calls.map((c) => c.service)).not.toContain('runAction');
    const assign = { driver_id: '4', car_id: '5' };
    await sut.exec({ type: 'action.confirm', action: { kind: 'assignDriver', assign } });
    expect(sut.calls.at(-1)).toEqual({ service: 'runAction', input: { reference: REF, action: { kind: 'assignDriver', assign } } });
    await sut.exec(runAction.fails(refusal('LB19 XKE takes 1 passenger; this booking is for 2.', { field: 'car_id', status: 422 })));
    expect(sut.snapshot.context.error).toEqual({ message: 'LB19 XKE takes 1 passenger; this booking is for 2.', field: 'car_id', status: 422 });
    expect(sut.snapshot.matches({ signedIn: { booking: 'confirming' } })).toBe(true);
    sut.stop();
  });

  it("changes what a journey on account is charged once confirmed with the reason, and says what the server answered (issue 44)", async () => {
    const sut = run(model, INPUTS["a link to a booking from the office's e-mail"]);
    await sut.exec(getSession.done(staff));
    const finished = { ...page, desk: { ...page.desk, status: 'completed', actions: ['adjustCharge' as const], account: { id: 12, name: 'Northbridge Consulting' } } };
    await sut.exec(loadBooking.done(finished));
    await sut.exec({ type: 'action.start', action: 'adjustCharge' });
    expect(sut.snapshot.matches({ signedIn: { booking: 'confirming' } })).toBe(true);
    const charge = { amount: '0', reason: 'Flight diverted: the charge is waived' };
    await sut.exec({ type: 'action.confirm', action: { kind: 'adjustCharge', charge } });
    expect(sut.calls.at(-1)).toEqual({ service: 'runAction', input: { reference: REF, action: { kind: 'adjustCharge', charge } } });
    const done = "Charge changed: credit note CN-000004 issued on the account's invoice.";
    await sut.exec(runAction.done({ kind: 'adjustCharge', done, note: 'CN-000004' }));
    expect([sut.snapshot.value, sut.snapshot.context.notice, sut.snapshot.context.action]).toEqual([{ signedIn: { booking: 'loading' } }, done, null]);
    sut.stop();
  });

  it('opens the Accounts and Invoices pages for every member of staff, each run as its own machine with the address', async () => {
    const sut = run(model, { location: { path: '/operator/invoices', search: '?account=7' } });
    await sut.exec(getSession.done(companyDesk));
    expect(sut.snapshot.matches({ signedIn: 'invoices' })).toBe(true);
    const pageContext = () => (sut.snapshot.children.page?.getSnapshot() as unknown as { context: Record<string, unknown> }).context;
    expect(pageContext().account).toBe(7);
    await sut.exec(url('/operator/accounts?id=12'));
    expect(sut.snapshot.matches({ signedIn: 'accounts' })).toBe(true);
    expect(pageContext()).toMatchObject({ id: 12, office: false });
    sut.stop();
  });

  it("opens a company's staff on their drivers when they ask for the operator data, never on an administrator's part", async () => {
    const sut = run(model, { location: { path: '/operator/data', search: '?section=settings' } });
    await sut.exec(getSession.done(companyDesk));
    expect([sut.snapshot.context.dataSection, sut.snapshot.context.location]).toEqual(['drivers', { path: '/operator/data', search: '?section=drivers' }]);
    await sut.exec({ type: 'data.show', section: 'staff' });
    expect(sut.snapshot.context.dataSection).toBe('drivers');
    await sut.exec({ type: 'data.show', section: 'cars' });
    expect(sut.snapshot.context.location.search).toBe('?section=cars');
    sut.stop();
  });

  it('keeps the board query in the address', async () => {
    const sut = run(model, INPUTS['a visit to /operator']);
    await sut.exec(getSession.done(staff));
    await sut.exec({ type: 'board.query', query: { tab: 'past', q: 'smith' } });
    expect(sut.snapshot.context.location).toEqual({ path: '/operator', search: '?tab=past&q=smith' });
    await sut.exec(url('/operator?tab=cancelled'));
    expect(sut.snapshot.context.query.tab).toBe('cancelled');
    sut.stop();
  });
});
