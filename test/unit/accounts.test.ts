// Issue 44's rules (src/domain/accounts.ts, accountPayment.ts): the account and booking-field forms, the checks of a
// booking's field values, why an account cannot be used, the credit limit, and an invoice's month, due day and status.
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_STATUSES, AccountFieldError, FIELD_VALUE_MAX, MAX_OPTIONS, accountErrors, accountRecord, accountRefusal, amountDue,
  bookingFieldErrors, bookingFieldValues, chargeErrors, creditRefusal, dueOn, fieldErrors, fieldRecord, formatVatNumber, invoiceStatus,
  isVatNumber, mayAdjustCharge, monthLabel, monthStart, optionsOf, previousMonth, type AccountField,
} from '../../src/domain/accounts';

const GOOD = {
  name: 'Northbridge Consulting', address: '40 Bank Street, London E14 5NR', billing_email: 'accounts@northbridge.example', vat_number: '',
  terms_days: '30', credit_limit: '5000', status: 'active', status_reason: '', company_id: '',
};

describe('the account form', () => {
  it('takes a complete account, and says what is wrong with each field in words', () => {
    expect(accountErrors(GOOD)).toEqual({});
    expect(accountErrors({})).toEqual({
      name: "Enter the company's name.", billing_email: 'Enter the e-mail address invoices are sent to.',
      terms_days: 'Payment terms: a whole number of days from 0 to 120.', credit_limit: 'Credit limit: an amount in pounds, like 5000 or 2500.50.',
    });
    expect(accountErrors({ ...GOOD, name: 'x'.repeat(121) }).name).toBe("The company's name is at most 120 characters.");
    expect(accountErrors({ ...GOOD, name: 'x'.repeat(120) }).name).toBeUndefined();
    expect(accountErrors({ ...GOOD, address: 'a'.repeat(301) }).address).toBe('The address is at most 300 characters.');
    expect(accountErrors({ ...GOOD, address: 'a'.repeat(300) }).address).toBeUndefined();
    expect(accountErrors({ ...GOOD, billing_email: 'not an address' }).billing_email).toBe('Please enter a valid email address');
    expect(accountErrors({ ...GOOD, vat_number: 'GB12345' }).vat_number).toBe('Enter a UK VAT number, e.g. GB 123 4567 89, or leave it empty.');
    expect(accountErrors({ ...GOOD, vat_number: 'GB 123 4567 89' }).vat_number).toBeUndefined();
  });

  it('takes payment terms of 0 to 120 days and a limit in pounds and pence', () => {
    for (const t of ['0', '120', '7']) expect(accountErrors({ ...GOOD, terms_days: t }).terms_days, t).toBeUndefined();
    for (const t of ['121', '-1', '1.5', 'thirty', '1000']) expect(accountErrors({ ...GOOD, terms_days: t }).terms_days, t).toBeDefined();
    for (const l of ['0', '2500.50', '9999999', '12.5']) expect(accountErrors({ ...GOOD, credit_limit: l }).credit_limit, l).toBeUndefined();
    for (const l of ['10000000', '1.234', '£50', '-5', '']) expect(accountErrors({ ...GOOD, credit_limit: l }).credit_limit, l).toBeDefined();
  });

  it('needs the reason a suspended or closed account\'s bookers are shown, and knows only its three statuses', () => {
    expect(ACCOUNT_STATUSES).toEqual(['active', 'suspended', 'closed']);
    expect(accountErrors({ ...GOOD, status: 'suspended' }).status_reason).toBe(
      "Say why, in words the account's bookers are shown (e.g. Invoice INV-000123 is overdue).");
    expect(accountErrors({ ...GOOD, status: 'closed', status_reason: 'At their request' })).toEqual({});
    expect(accountErrors({ ...GOOD, status: 'frozen' }).status).toBe('Choose active, suspended or closed.');
    expect(accountErrors({ ...GOOD, status: '' })).toEqual({});
    expect(accountErrors({ ...GOOD, status: 'suspended', status_reason: 'r'.repeat(201) }).status_reason).toBe('The reason is at most 200 characters.');
    expect(accountErrors({ ...GOOD, company_id: 'Metro' }).company_id).toBe('Choose the company that looks after the account, or none.');
    expect(accountErrors({ ...GOOD, company_id: '3' }).company_id).toBeUndefined();
  });

  it('makes the record: VAT number as HMRC prints it, limit in pence, no reason while active, a company or none', () => {
    expect(accountRecord({ ...GOOD, vat_number: 'gb123456789', credit_limit: '2500.5', status_reason: 'ignored', company_id: '4' })).toEqual({
      name: 'Northbridge Consulting', address: '40 Bank Street, London E14 5NR', billing_email: 'accounts@northbridge.example',
      vat_number: 'GB 123 4567 89', terms_days: 30, credit_limit_pence: 250050, status: 'active', status_reason: '', company_id: 4,
    });
    expect(accountRecord({ ...GOOD, status: 'suspended', status_reason: ' Overdue ' })).toMatchObject({ status: 'suspended', status_reason: 'Overdue', company_id: null });
    expect(accountRecord({ ...GOOD, status: '' }).status).toBe('active');
  });

  it('reads UK VAT numbers, with or without GB and spaces', () => {
    for (const v of ['GB123456789', '123456789', 'gb 123 4567 89', 'GB123456789012', 'GBGD123', 'GBHA456']) expect(isVatNumber(v), v).toBe(true);
    for (const v of ['GB12345678', 'FR123456789', 'GB1234567890', 'GBGD12', '']) expect(isVatNumber(v), v).toBe(false);
    expect(formatVatNumber('123456789012')).toBe('GB 123 4567 89 012');
    expect(formatVatNumber('gbgd123')).toBe('GBGD123');
    expect(formatVatNumber('  ')).toBe('');
  });
});

describe('booking fields', () => {
  const FIELDS: AccountField[] = [
    { id: 7, label: 'PO number', required: true, options: [] },
    { id: 8, label: 'Cost centre', required: false, options: ['Sales', 'Finance'] },
  ];

  it('lists allowed values one per line or by commas, each once whatever its case', () => {
    expect(optionsOf(' Sales \nFinance, sales,, \n Ops ')).toEqual(['Sales', 'Finance', 'Ops']);
    expect(optionsOf('')).toEqual([]);
  });

  it("checks a field's form", () => {
    expect(fieldErrors({ label: 'PO number', required: 'yes', options: '' })).toEqual({});
    expect(fieldErrors({ label: ' ' }).label).toBe("Enter the field's name, e.g. PO number.");
    expect(fieldErrors({ label: 'l'.repeat(41) }).label).toBe("The field's name is at most 40 characters.");
    expect(fieldErrors({ label: 'l'.repeat(40) }).label).toBeUndefined();
    expect(fieldErrors({ label: 'L', options: Array.from({ length: MAX_OPTIONS + 1 }, (_, i) => `v${i}`).join('\n') }).options).toBe('At most 50 values.');
    expect(fieldErrors({ label: 'L', options: Array.from({ length: MAX_OPTIONS }, (_, i) => `v${i}`).join('\n') }).options).toBeUndefined();
    expect(fieldErrors({ label: 'L', options: 'x'.repeat(FIELD_VALUE_MAX + 1) }).options).toBe('Each value is at most 60 characters.');
    expect(fieldErrors({ label: 'L', required: 'maybe' }).required).toBe('Choose whether the field is required.');
    expect(fieldErrors({ label: 'L', active: 'perhaps' }).active).toBe('Choose whether the field is asked.');
    expect(fieldRecord({ label: ' PO ', required: 'yes', options: 'A\nB' })).toEqual({ label: 'PO', required: true, options: ['A', 'B'], active: true });
    expect(fieldRecord({ label: 'PO', required: 'no', active: 'no' })).toEqual({ label: 'PO', required: false, options: [], active: false });
    expect(fieldRecord({ label: 'PO', required: true, active: true })).toMatchObject({ required: true, active: true });
  });

  it("checks a booking's values: required filled, a list's value from the list, free text at most 60, no unknown field", () => {
    expect(bookingFieldErrors(FIELDS, { 7: 'PO-1', 8: 'finance' })).toEqual({});
    expect(bookingFieldErrors(FIELDS, { 7: 'PO-1' })).toEqual({});
    expect(bookingFieldErrors(FIELDS, { 7: '  ', 8: 'Sales' })).toEqual({ 7: 'Enter the PO number: your company asks for it on every booking.' });
    expect(bookingFieldErrors(FIELDS, { 7: 'PO-1', 8: 'Marketing' })).toEqual({ 8: 'Choose the Cost centre from the list.' });
    expect(bookingFieldErrors(FIELDS, { 7: 'x'.repeat(61) })).toEqual({ 7: 'The PO number is at most 60 characters.' });
    expect(bookingFieldErrors(FIELDS, { 7: 'x'.repeat(60) })).toEqual({});
    expect(bookingFieldErrors(FIELDS, { 7: 'PO-1', 99: 'x' })).toEqual({ 99: 'This field is no longer asked: reload the page.' });
    expect(bookingFieldErrors(FIELDS, { 7: 'PO-1', 99: '' })).toEqual({});
    expect(bookingFieldErrors([], {})).toEqual({});
    // The office booking for the account's booker is told whose the field is.
    expect(bookingFieldErrors(FIELDS, { 8: 'Sales' }, 'Northbridge Consulting')).toEqual({ 7: 'Enter the PO number: Northbridge Consulting asks for it on every booking.' });
  });

  it('keeps the values by label, a list value in the list\'s own case, leaving out what is empty', () => {
    expect(bookingFieldValues(FIELDS, { 7: ' PO-1 ', 8: 'finance' })).toEqual([{ label: 'PO number', value: 'PO-1' }, { label: 'Cost centre', value: 'Finance' }]);
    expect(bookingFieldValues(FIELDS, { 7: 'PO-1', 8: '' })).toEqual([{ label: 'PO number', value: 'PO-1' }]);
  });

  it('carries the field a refused value is about', () => {
    const e = new AccountFieldError('Enter the PO number', '7');
    expect([e.message, e.fieldId, e instanceof Error]).toEqual(['Enter the PO number', '7', true]);
  });
});

describe('paying on account', () => {
  it("says why a suspended or closed account cannot be used, with the office's phone", () => {
    expect(accountRefusal({ name: 'Acme', status: 'active', reason: '' }, '020 7946 0321')).toBeNull();
    expect(accountRefusal({ name: 'Acme', status: 'suspended', reason: 'invoice INV-000012 is overdue' }, '020 7946 0321')).toBe(
      "Acme's account is on hold: invoice INV-000012 is overdue. Bookings cannot be paid on account for now. Please call us on 020 7946 0321.");
    expect(accountRefusal({ name: 'Acme', status: 'suspended', reason: '' }, '')).toBe(
      "Acme's account is on hold. Bookings cannot be paid on account for now. Please contact us.");
    expect(accountRefusal({ name: 'Acme', status: 'closed', reason: 'x' }, '020 7946 0321')).toBe(
      "Acme's account is closed: bookings can no longer be paid on account. Please call us on 020 7946 0321.");
  });

  it('refuses a booking that would take the account past its limit, saying what is left', () => {
    expect(creditRefusal(10000, 6000, 4000, '020')).toBeNull();
    expect(creditRefusal(10000, 6000, 4001, '020 7946 0321')).toBe(
      "This booking (£40.01) would take your company's account past its credit limit: £40.00 of £100.00 is left. Please call us on 020 7946 0321, or pay by another method.");
    expect(creditRefusal(10000, 12000, 1, '')).toBe(
      "This booking (£0.01) would take your company's account past its credit limit: £0.00 of £100.00 is left. Please contact us, or pay by another method.");
    // Said to the office booking for the account's booker: the account named, and what the office may do.
    expect(creditRefusal(10000, 6000, 4001, { account: 'Northbridge Consulting' })).toBe(
      "This booking (£40.01) would take Northbridge Consulting's account past its credit limit: £40.00 of £100.00 is left. Choose another way to pay; the office can raise the limit under Accounts.");
    expect(creditRefusal(10000, 6000, 4000, { account: 'Northbridge Consulting' })).toBeNull();
  });

  it('lets the office change the charge of a journey on account once it is completed or a no-show', () => {
    expect(mayAdjustCharge({ status: 'completed', account_id: 3 })).toBe(true);
    expect(mayAdjustCharge({ status: 'no_show', account_id: 3 })).toBe(true);
    expect(mayAdjustCharge({ status: 'confirmed', account_id: 3 })).toBe(false);
    expect(mayAdjustCharge({ status: 'completed', account_id: null })).toBe(false);
    expect(chargeErrors({ amount: '84.50', reason: 'Waiting time' })).toEqual({});
    expect(chargeErrors({ amount: '0', reason: 'Waived' })).toEqual({});
    expect(chargeErrors({ amount: '84.505', reason: '' })).toEqual({
      amount: 'The new charge: an amount in pounds, like 84.50 (0 to waive it).',
      reason: 'Say why the charge changes (the account is sent a credit or debit note saying so).',
    });
    expect(chargeErrors({ amount: '123456', reason: 'r'.repeat(201) })).toEqual({
      amount: 'The new charge: an amount in pounds, like 84.50 (0 to waive it).', reason: 'The reason is at most 200 characters.',
    });
  });
});

describe('the monthly invoice', () => {
  it('is for the calendar month before, across a year end', () => {
    expect(previousMonth('2026-11-28')).toEqual({ start: '2026-10-01', end: '2026-11-01' });
    expect(previousMonth('2027-01-01')).toEqual({ start: '2026-12-01', end: '2027-01-01' });
    expect(previousMonth('2026-03-31')).toEqual({ start: '2026-02-01', end: '2026-03-01' });
    expect(monthLabel('2026-10-01')).toBe('October 2026');
    expect(monthStart('2026-10')).toBe('2026-10-01');
    expect(monthStart(' 2026-10-17 ')).toBe('2026-10-01');
    expect(monthStart('2026-13')).toBeNull();
    expect(monthStart('October')).toBeNull();
  });

  it('is due after the account\'s terms, overdue after that day, paid once marked', () => {
    expect(dueOn('2026-11-01', 30)).toBe('2026-12-01');
    expect(dueOn('2026-12-15', 30)).toBe('2027-01-14');
    expect(dueOn('2026-11-01', 0)).toBe('2026-11-01');
    expect(invoiceStatus({ paid_on: null, due_on: '2026-12-01' }, '2026-12-01')).toBe('due');
    expect(invoiceStatus({ paid_on: null, due_on: '2026-12-01' }, '2026-12-02')).toBe('overdue');
    expect(invoiceStatus({ paid_on: '2026-12-05', due_on: '2026-12-01' }, '2026-12-09')).toBe('paid');
  });

  it('asks the invoice less its credit notes and plus its debit notes', () => {
    expect(amountDue(10000, [])).toBe(10000);
    expect(amountDue(10000, [{ kind: 'credit', gross_pence: 2500 }, { kind: 'debit', gross_pence: 300 }])).toBe(7800);
  });
});
