// @vitest-environment jsdom
// The local test gateway's Stripe.js stand-in (src/server/testGateway/stripe.js),
// run in jsdom against a fake fetch: Stripe.js's shapes for what the card page uses,
// and that @stripe/stripe-js and @stripe/react-stripe-js accept it unchanged.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createElement, StrictMode, act } from 'react';
import { createRoot } from 'react-dom/client';
import { loadStripe } from '@stripe/stripe-js/pure';
import { CardNumberElement, CardCvcElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeCardNumberElement, StripeCardNumberElementChangeEvent, StripeElements } from '@stripe/stripe-js';

// (A path, not a URL object: jsdom's URL is not Node's.)
const SCRIPT = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../src/server/testGateway/stripe.js'), 'utf8');
const BASE = 'http://shop.test/test-gateway/';
const PK = 'pk_test_local_0123456789';
const SECRET = 'pi_123_secret_abc';
const AUTH_FAILED = 'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

type Win = Window & typeof globalThis & { __TEST_GATEWAY_BASE__?: string };
const win = window as Win;

interface Call { url: string; method: string; headers: Record<string, string>; form: Record<string, string> }
let calls: Call[] = [];
let replies: ((call: Call) => Response | Promise<Response>)[] = [];
const json = (body: unknown, status = 200) => () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function load() {
  new Function(SCRIPT)();
}

let stripe: Stripe;
let elements: StripeElements;

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  // Dates in June 2026 (timers stay real).
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 5, 15, 12));
  win.__TEST_GATEWAY_BASE__ = BASE;
  load();
});
afterAll(() => vi.useRealTimers());

beforeEach(() => {
  calls = [];
  replies = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit) => {
    const method = init.method ?? 'GET';
    const form = Object.fromEntries(method === 'GET' ? new URL(url).searchParams : new URLSearchParams(String(init.body)));
    const call = { url, method, headers: init.headers as Record<string, string>, form };
    calls.push(call);
    const reply = replies.shift();
    if (!reply) throw new Error(`Unexpected fetch ${method} ${url}`);
    return reply(call);
  }));
  stripe = win.Stripe!(PK);
  elements = stripe.elements();
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

function mount(type: 'cardNumber' | 'cardExpiry' | 'cardCvc', group = elements) {
  const container = document.createElement('div');
  document.body.appendChild(container);
  // Typed as the number Element: all three have its methods, and createPaymentMethod takes any of them here.
  const element = group.create(type as 'cardNumber');
  const changes: StripeCardNumberElementChangeEvent[] = [];
  element.on('change', (e) => changes.push(e));
  element.mount(container);
  const input = container.querySelector('input')!;
  const last = () => changes[changes.length - 1];
  return { element, container, input, changes, last };
}

function typeInto(input: HTMLInputElement, value: string) {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/** A backspace as a browser reports it: the value without the character before the caret, and inputType. */
function backspace(input: HTMLInputElement, caret = input.value.length) {
  input.value = input.value.slice(0, caret - 1) + input.value.slice(caret);
  input.setSelectionRange(caret - 1, caret - 1);
  input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'deleteContentBackward' }));
}

function filledCard(number = '4242424242424242', expiry = '1230', cvc = '123') {
  const num = mount('cardNumber');
  typeInto(num.input, number);
  typeInto(mount('cardExpiry').input, expiry);
  typeInto(mount('cardCvc').input, cvc);
  return num.element;
}

describe('loading', () => {
  it('defines only window.Stripe, at version endive, whose object passes react-stripe-js isStripe', async () => {
    const before = new Set(Object.getOwnPropertyNames(window));
    load();
    expect(Object.getOwnPropertyNames(window).filter((k) => !before.has(k))).toEqual([]);
    expect(typeof win.Stripe).toBe('function');
    expect((win.Stripe as unknown as { version: string }).version).toBe('endive');
    for (const fn of ['elements', 'createToken', 'createPaymentMethod', 'confirmCardPayment', 'retrievePaymentIntent',
      'handleCardAction', 'handleNextAction', '_registerWrapper', 'registerAppInfo']) {
      expect(typeof (stripe as unknown as Record<string, unknown>)[fn]).toBe('function');
    }
    const loaded = await loadStripe(PK);
    expect(typeof loaded?.elements).toBe('function');
    expect(() => win.Stripe!('')).toThrow(/publishable key/);
  });

  it('keeps to what a strict Content-Security-Policy allows: no eval, markup strings or style attributes', () => {
    for (const banned of ['eval(', 'new Function', 'innerHTML', 'insertAdjacentHTML', "setAttribute('style'", 'cssText', 'import ', 'require(']) {
      expect(SCRIPT, banned).not.toContain(banned);
    }
    expect(SCRIPT).not.toMatch(/setAttribute\('on/);
  });

  it('finds the gateway next to the script when no override is set', async () => {
    const saved = win.__TEST_GATEWAY_BASE__;
    delete win.__TEST_GATEWAY_BASE__;
    Object.defineProperty(document, 'currentScript', { configurable: true, get: () => ({ src: 'http://site.test/test-gateway/stripe.js?v=1' }) });
    try {
      load();
      replies.push(json({ id: 'pi_123', status: 'requires_action' }));
      const { paymentIntent } = await win.Stripe!(PK).retrievePaymentIntent(SECRET);
      expect(paymentIntent?.id).toBe('pi_123');
      expect(calls[0].url).toBe('http://site.test/test-gateway/v1/payment_intents/pi_123?client_secret=pi_123_secret_abc');
      expect(calls[0].headers.Authorization).toBe(`Bearer ${PK}`);
    } finally {
      delete (document as { currentScript?: unknown }).currentScript;
      win.__TEST_GATEWAY_BASE__ = saved;
      load();
    }
  });

  it('stubs the confirmation calls the site never uses', async () => {
    const { error } = await stripe.confirmCardPayment(SECRET);
    expect(error?.message).toBe('confirmCardPayment is not offered by the local test gateway; this site uses createPaymentMethod and server-side confirmation.');
    expect((await stripe.createToken(mount('cardNumber').element)).error?.type).toBe('invalid_request_error');
    expect(calls).toEqual([]);
  });
});

describe('Elements', () => {
  it('mounts a labelled input and keeps Stripe classes on the container', async () => {
    const ready = vi.fn();
    const num = mount('cardNumber');
    num.element.on('ready', ready);
    expect(num.container.querySelectorAll('input')).toHaveLength(1);
    expect(num.input.getAttribute('aria-label')).toBe('Credit or debit card number');
    expect(num.input.getAttribute('autocomplete')).toBe('cc-number');
    expect(num.input.getAttribute('inputmode')).toBe('numeric');
    expect(num.input.placeholder).toBe('1234 1234 1234 1234');
    expect(num.input.hasAttribute('name')).toBe(false);
    expect([...num.container.classList]).toEqual(['StripeElement', 'StripeElement--empty']);
    expect(ready).not.toHaveBeenCalled();
    await new Promise((r) => setTimeout(r, 0));
    expect(ready).toHaveBeenCalledWith({ elementType: 'cardNumber' });

    const exp = mount('cardExpiry');
    expect(exp.input.getAttribute('aria-label')).toBe('Credit or debit card expiration date');
    expect(exp.input.placeholder).toBe('MM / YY');
    const cvc = mount('cardCvc');
    expect(cvc.input.getAttribute('aria-label')).toBe('Credit or debit card security code');
    expect(cvc.input.getAttribute('autocomplete')).toBe('cc-csc');

    num.input.focus();
    expect(num.container.classList.contains('StripeElement--focus')).toBe(true);
    typeInto(num.input, '4242424242424242');
    expect(num.container.classList.contains('StripeElement--complete')).toBe(true);
    expect(num.container.classList.contains('StripeElement--empty')).toBe(false);
    const onceFocus = vi.fn();
    num.element.once('focus', onceFocus);
    num.input.blur();
    num.element.focus();
    num.element.blur();
    num.element.focus();
    expect(onceFocus).toHaveBeenCalledTimes(1);
    num.element.clear();
    expect(num.input.value).toBe('');
    expect(num.last()).toMatchObject({ empty: true, complete: false, error: undefined });
    num.element.unmount();
    expect(num.container.className).toBe('');
    num.element.mount(num.container);
    expect(num.container.querySelectorAll('input')).toHaveLength(1);
    num.element.destroy();
    expect(num.container.className).toBe('');
    expect(num.container.querySelector('input')).toBeNull();
    expect(document.querySelectorAll('#tg-stripe-styles')).toHaveLength(1);
  });

  it('applies options: placeholder, style, disabled, and update()', () => {
    const container = document.createElement('div');
    document.body.appendChild(container);
    const el = elements.create('cardCvc', {
      placeholder: '123', style: { base: { color: 'rgb(20, 35, 60)', fontSize: '16px' }, invalid: { color: 'rgb(180, 35, 24)' } },
    });
    el.mount(container);
    const input = container.querySelector('input')!;
    expect(input.placeholder).toBe('123');
    expect(input.style.color).toBe('rgb(20, 35, 60)');
    expect(input.style.fontSize).toBe('16px');
    expect(input.style.borderTopWidth).toMatch(/^0(px)?$/);
    expect(input.style.backgroundColor).toBe('transparent');
    expect(input.style.width).toBe('100%');
    typeInto(input, '1');
    input.focus();
    input.blur();
    expect(input.style.color).toBe('rgb(180, 35, 24)');
    el.update({ disabled: true });
    expect(input.disabled).toBe(true);
  });

  it('gets elements by type or component, refuses other types and duplicates', () => {
    const { element } = mount('cardNumber');
    expect(elements.getElement('cardNumber')).toBe(element);
    expect(elements.getElement(CardNumberElement)).toBe(element);
    expect(elements.getElement('cardCvc')).toBeNull();
    expect(() => (elements.create as (t: string) => unknown)('card')).toThrow(/cardNumber, cardExpiry and cardCvc/);
    expect(() => elements.create('cardNumber')).toThrow(/one Element of type cardNumber/);
  });

  it('formats the card number and reports brand and completeness', () => {
    const { input, last, changes } = mount('cardNumber');
    typeInto(input, '4242424');
    expect(input.value).toBe('4242 424');
    expect(last()).toEqual({ elementType: 'cardNumber', empty: false, complete: false, error: undefined, brand: 'visa', value: undefined });
    typeInto(input, '4242 4242 4242 42429999');
    expect(input.value).toBe('4242 4242 4242 4242');
    expect(last()).toMatchObject({ complete: true, error: undefined, brand: 'visa' });
    typeInto(input, '378282246310005');
    expect(input.value).toBe('3782 822463 10005');
    expect(last()).toMatchObject({ complete: true, brand: 'amex' });
    typeInto(input, '5555 5555 5555 4444');
    expect(last()).toMatchObject({ complete: true, brand: 'mastercard' });
    const count = changes.length;
    typeInto(input, '5555 5555 5555 4444x');
    expect(input.value).toBe('5555 5555 5555 4444');
    expect(changes).toHaveLength(count);
    input.focus();
    backspace(input, 5); // "5555 |5555..." -> the 5 before the space goes, the caret stays after the 3rd digit
    expect(input.value).toBe('5555 5555 5554 444');
    expect(input.selectionStart).toBe(3);
    typeInto(input, '');
    expect(last()).toMatchObject({ empty: true, complete: false, error: undefined, brand: 'unknown' });
  });

  it('formats the expiry as MM / YY', () => {
    const { input, last } = mount('cardExpiry');
    typeInto(input, '1');
    expect(input.value).toBe('1');
    typeInto(input, '12');
    expect(input.value).toBe('12 / ');
    expect(last()).toMatchObject({ elementType: 'cardExpiry', complete: false, error: undefined });
    typeInto(input, '12 /'); // the separator deleted by a script: the digits stay
    expect(input.value).toBe('12');
    typeInto(input, '12');
    backspace(input); // backspace over the separator takes the digit before it
    expect(input.value).toBe('1');
    typeInto(input, '1/');
    expect(input.value).toBe('01 / ');
    typeInto(input, '');
    typeInto(input, '3');
    expect(input.value).toBe('03 / ');
    typeInto(input, '1230');
    expect(input.value).toBe('12 / 30');
    expect(last()).toMatchObject({ complete: true, error: undefined });
    typeInto(input, '12/2031'); // autofill
    expect(input.value).toBe('12 / 31');
  });

  it('sizes the CVC by the brand in the same group', () => {
    const num = mount('cardNumber');
    const cvc = mount('cardCvc');
    typeInto(cvc.input, '12345');
    expect(cvc.input.value).toBe('123');
    expect(cvc.last()).toMatchObject({ elementType: 'cardCvc', complete: true });
    typeInto(num.input, '3782');
    expect(cvc.last()).toMatchObject({ complete: false, error: undefined });
    typeInto(cvc.input, '12345');
    expect(cvc.input.value).toBe('1234');
    expect(cvc.last()).toMatchObject({ complete: true });
  });

  it('reports an incomplete value only on blur, and clears it when typing again', () => {
    const { input, container, last, element } = mount('cardNumber');
    const blur = vi.fn();
    element.on('blur', blur);
    input.focus();
    typeInto(input, '4242');
    expect(last().error).toBeUndefined();
    input.blur();
    expect(blur).toHaveBeenCalledWith({ elementType: 'cardNumber' });
    expect(last().error).toEqual({ type: 'validation_error', code: 'incomplete_number', message: 'Your card number is incomplete.' });
    expect(container.classList.contains('StripeElement--invalid')).toBe(true);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    typeInto(input, '42424');
    expect(last().error).toBeUndefined();
    expect(container.classList.contains('StripeElement--invalid')).toBe(false);

    const cvc = mount('cardCvc');
    cvc.input.focus();
    cvc.input.blur();
    expect(cvc.changes).toHaveLength(0); // empty: no error
    cvc.input.focus();
    typeInto(cvc.input, '1');
    cvc.input.blur();
    expect(cvc.last().error?.message).toBe("Your card's security code is incomplete.");
    const exp = mount('cardExpiry');
    typeInto(exp.input, '12');
    exp.input.focus();
    exp.input.blur();
    expect(exp.last().error).toMatchObject({ code: 'incomplete_expiry', message: "Your card's expiration date is incomplete." });
  });

  it('reports invalid numbers and dates as soon as they are known', () => {
    const num = mount('cardNumber');
    typeInto(num.input, '4242424242424241');
    expect(num.last()).toMatchObject({ complete: false, error: { type: 'validation_error', code: 'invalid_number', message: 'Your card number is invalid.' } });
    expect(num.container.classList.contains('StripeElement--invalid')).toBe(true);
    const exp = mount('cardExpiry');
    const cases: [string, string, string][] = [
      ['1225', 'invalid_expiry_year_past', "Your card's expiration year is in the past."],
      ['0526', 'invalid_expiry_month_past', "Your card's expiration date is in the past."],
      ['13', 'invalid_expiry_month', "Your card's expiration date is invalid."],
      ['121', 'invalid_expiry_year_past', "Your card's expiration year is in the past."],
    ];
    for (const [typed, code, message] of cases) {
      typeInto(exp.input, typed);
      expect(exp.last().error, typed).toEqual({ type: 'validation_error', code, message });
    }
    typeInto(exp.input, '0626');
    expect(exp.last()).toMatchObject({ complete: true, error: undefined });
  });
});

describe('createPaymentMethod', () => {
  it('refuses empty and incomplete inputs without calling the gateway, showing the error on the element', async () => {
    const num = mount('cardNumber');
    const exp = mount('cardExpiry');
    mount('cardCvc');
    let result = await stripe.createPaymentMethod({ type: 'card', card: num.element });
    expect(result.error).toEqual({ type: 'validation_error', code: 'incomplete_number', message: 'Your card number is incomplete.' });
    expect(num.last().error?.code).toBe('incomplete_number');
    expect(num.container.classList.contains('StripeElement--invalid')).toBe(true);

    typeInto(num.input, '4242424242424242');
    typeInto(exp.input, '12 / 3');
    result = await stripe.createPaymentMethod({ type: 'card', card: num.element });
    expect(result.error).toMatchObject({ code: 'incomplete_expiry', message: "Your card's expiration date is incomplete." });
    expect(exp.last().error?.code).toBe('incomplete_expiry');

    typeInto(exp.input, '1230');
    // Stripe's older positional form: ('card', element, data).
    const positional = stripe.createPaymentMethod as unknown as (...a: unknown[]) => Promise<{ error?: { code?: string } }>;
    expect((await positional('card', num.element, {})).error?.code).toBe('incomplete_cvc');
    expect(calls).toEqual([]);
  });

  it('posts the card form-encoded with the publishable key, and resolves the payment method', async () => {
    const card = filledCard();
    replies.push(json({ id: 'pm_1', object: 'payment_method', card: { brand: 'visa', last4: '4242' } }));
    const result = await stripe.createPaymentMethod({ type: 'card', card, billing_details: { name: 'Ada Lovelace', email: 'ada@example.com', phone: undefined } });
    expect(result.paymentMethod?.id).toBe('pm_1');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      url: `${BASE}v1/payment_methods`, method: 'POST',
      headers: { Authorization: `Bearer ${PK}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(calls[0].form).toEqual({
      type: 'card', 'card[number]': '4242424242424242', 'card[exp_month]': '12', 'card[exp_year]': '2030', 'card[cvc]': '123',
      'billing_details[name]': 'Ada Lovelace', 'billing_details[email]': 'ada@example.com',
    });
  });

  it("passes the gateway's error through", async () => {
    const card = filledCard('4000000000000002');
    const error = { type: 'card_error', code: 'invalid_expiry_year', param: 'card[exp_year]', message: "Your card's expiration year is invalid." };
    replies.push(json({ error }, 402));
    expect(await stripe.createPaymentMethod({ type: 'card', card })).toEqual({ error });
  });

  it('resolves a connection error when the gateway cannot be reached', async () => {
    const card = filledCard();
    replies.push(() => { throw new TypeError('Failed to fetch'); });
    expect(await stripe.createPaymentMethod({ type: 'card', card })).toEqual({
      error: { type: 'api_connection_error', message: 'We could not reach the payment service. Please check your connection and try again.' },
    });
  });
});

describe('handleCardAction', () => {
  const intent = { id: 'pi_123', object: 'payment_intent', amount: 5460, currency: 'gbp', status: 'requires_action', client_secret: SECRET, last_payment_error: null };
  const dialog = () => document.querySelector<HTMLElement>('[role="dialog"]');
  const opened = async () => {
    await vi.waitFor(() => expect(dialog()).not.toBeNull());
    return dialog()!;
  };
  const button = (label: string) => [...document.querySelectorAll('button')].find((b) => b.textContent === label)!;

  it('opens an accessible challenge; Complete authentication approves and resolves the intent', async () => {
    const pay = document.body.appendChild(document.createElement('button'));
    pay.focus();
    replies.push(json(intent));
    const pending = stripe.handleCardAction(SECRET);
    const d = await opened();
    expect(d.getAttribute('aria-modal')).toBe('true');
    expect(document.getElementById(d.getAttribute('aria-labelledby')!)?.textContent).toBe('3D Secure authentication');
    expect(d.textContent).toContain("Local test gateway: this stands in for your bank's check. No real card is charged.");
    expect(d.textContent).toContain('£54.60');
    const [approve, fail] = [button('Complete authentication'), button('Fail authentication')];
    expect(document.activeElement).toBe(approve);
    fail.focus();
    fail.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true }));
    expect(document.activeElement).toBe(approve);
    approve.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', shiftKey: true, bubbles: true }));
    expect(document.activeElement).toBe(fail);

    replies.push(json({ ...intent, status: 'requires_confirmation' }));
    approve.click();
    expect(approve.disabled && fail.disabled).toBe(true);
    const result = await pending;
    expect(result).toEqual({ paymentIntent: { ...intent, status: 'requires_confirmation' } });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      `GET ${BASE}v1/payment_intents/pi_123?client_secret=${SECRET}`,
      `POST ${BASE}v1/payment_intents/pi_123/test_authentication`,
    ]);
    expect(calls[1].form).toEqual({ client_secret: SECRET, outcome: 'approve' });
    expect(dialog()).toBeNull();
    expect(document.activeElement).toBe(pay);
  });

  it('Escape fails the authentication with the intent’s error', async () => {
    replies.push(json(intent));
    const pending = stripe.handleNextAction({ clientSecret: SECRET });
    await opened();
    const failed = {
      ...intent, status: 'requires_payment_method',
      last_payment_error: { type: 'invalid_request_error', code: 'payment_intent_authentication_failure', message: AUTH_FAILED },
    };
    replies.push(json(failed));
    document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    const { error } = await pending;
    expect(calls[1].form).toEqual({ client_secret: SECRET, outcome: 'fail' });
    expect(error).toEqual({ ...failed.last_payment_error, payment_intent: failed });
    expect(dialog()).toBeNull();
  });

  it('Fail authentication fails too', async () => {
    replies.push(json(intent));
    const pending = stripe.handleCardAction(SECRET);
    await opened();
    replies.push(json({ ...intent, status: 'requires_payment_method', last_payment_error: { type: 'invalid_request_error', code: 'payment_intent_authentication_failure', message: AUTH_FAILED } }));
    button('Fail authentication').click();
    expect((await pending).error?.message).toBe(AUTH_FAILED);
  });

  it('refuses an intent that needs no authentication', async () => {
    replies.push(json({ ...intent, status: 'succeeded' }));
    const { error } = await stripe.handleCardAction(SECRET);
    expect(error).toMatchObject({ type: 'invalid_request_error', code: 'payment_intent_unexpected_state' });
    expect(dialog()).toBeNull();
    expect(calls).toHaveLength(1);
  });
});

describe('with @stripe/react-stripe-js', () => {
  it('mounts CardNumberElement, reports changes, and exposes the stripe object and elements', async () => {
    const host = document.body.appendChild(document.createElement('div'));
    const root = createRoot(host);
    const seen: { stripe: Stripe | null; elements: StripeElements | null } = { stripe: null, elements: null };
    const onChange = vi.fn();
    function Probe() {
      seen.stripe = useStripe();
      seen.elements = useElements();
      return null;
    }
    await act(async () => {
      root.render(createElement(StrictMode, null, createElement(Elements, { stripe: loadStripe(PK), options: { locale: 'en-GB' } },
        createElement(CardNumberElement, { className: 'card-input', onChange }),
        createElement(CardCvcElement, { className: 'card-input', options: { disabled: false } }),
        createElement(Probe))));
    });
    const input = host.querySelector<HTMLInputElement>('.card-input input')!;
    expect(input.getAttribute('aria-label')).toBe('Credit or debit card number');
    expect(host.querySelectorAll('input')).toHaveLength(2);
    expect(host.querySelector('.card-input')!.classList.contains('StripeElement')).toBe(true);
    act(() => typeInto(input, '4242'));
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ elementType: 'cardNumber', brand: 'visa', complete: false }));
    expect(seen.elements?.getElement(CardNumberElement)).not.toBeNull();
    expect(typeof seen.stripe?.createPaymentMethod).toBe('function');
    act(() => root.unmount());
    expect(host.querySelectorAll('input')).toHaveLength(0);
  });
});
