// Stripe.js stand-in for the local test gateway (./gateway.ts), served at
// /test-gateway/stripe.js when no Stripe keys are configured. Once it has run,
// `window.Stripe` exists, so `loadStripe()` from @stripe/stripe-js and the
// <Elements>/<CardNumberElement>/... components of @stripe/react-stripe-js use
// it unchanged. It follows Stripe.js's documented shapes for what the card page
// needs: split card Elements (cardNumber, cardExpiry, cardCvc) with Stripe's
// formatting, classes, events and messages, createPaymentMethod,
// retrievePaymentIntent, and handleCardAction with an in-page 3-D Secure test
// challenge. Plain browser JavaScript: no build step, no imports, no eval, no
// inline event handlers; essential styles go through element.style (CSSOM),
// which the page's Content-Security-Policy allows.
(() => {
  'use strict';

  // Where the gateway is: an override for tests, else next to this script.
  const loadedFrom = document.currentScript && document.currentScript.src;
  const scriptBase = loadedFrom ? loadedFrom.replace(/stripe\.js(?:[?#].*)?$/, '') : location.origin + '/test-gateway/';
  const base = () => {
    const override = window.__TEST_GATEWAY_BASE__;
    return typeof override === 'string' && override ? override.replace(/\/?$/, '/') : scriptBase;
  };

  // Stripe's own validation messages, by code.
  const MESSAGES = {
    incomplete_number: 'Your card number is incomplete.',
    invalid_number: 'Your card number is invalid.',
    incomplete_expiry: "Your card's expiration date is incomplete.",
    invalid_expiry_month: "Your card's expiration date is invalid.",
    invalid_expiry_month_past: "Your card's expiration date is in the past.",
    invalid_expiry_year_past: "Your card's expiration year is in the past.",
    invalid_expiry_year: "Your card's expiration year is invalid.",
    incomplete_cvc: "Your card's security code is incomplete.",
    invalid_cvc: "Your card's security code is invalid.",
  };
  const CONNECTION_MESSAGE = 'We could not reach the payment service. Please check your connection and try again.';
  const AUTH_FAILED = 'We are unable to authenticate your payment method. Please choose a different payment method and try again.';
  const ORDER = ['cardNumber', 'cardExpiry', 'cardCvc'];

  // ---- Card rules (the same brands as ./cards.ts) ----
  const digitsOf = (s) => String(s || '').replace(/\D/g, '');
  const brandOf = (d) => (/^4/.test(d) ? 'visa' : /^(5[1-5]|2[2-7])/.test(d) ? 'mastercard' : /^3[47]/.test(d) ? 'amex' : 'unknown');
  const numberLength = (brand) => (brand === 'amex' ? 15 : 16);
  const luhn = (d) => {
    let sum = 0;
    for (let i = 0; i < d.length; i++) {
      let n = Number(d[d.length - 1 - i]);
      if (i % 2 === 1) { n *= 2; if (n > 9) n -= 9; }
      sum += n;
    }
    return sum % 10 === 0;
  };
  // The CVC's length follows the brand typed in the same group's number Element.
  const cvcLength = (rec) => {
    const number = rec.group.byType.get('cardNumber');
    return number && brandOf(digitsOf(number.value)) === 'amex' ? 4 : 3;
  };

  // Each field: Stripe's label and placeholder, how typing is formatted, and
  // check(value) -> { complete, invalid?: code (shown at once), incomplete?: code (shown on blur) }.
  const FIELDS = {
    cardNumber: {
      label: 'Credit or debit card number', autocomplete: 'cc-number', placeholder: '1234 1234 1234 1234',
      format(raw) {
        const brand = brandOf(digitsOf(raw));
        const d = digitsOf(raw).slice(0, numberLength(brand));
        const groups = brand === 'amex' ? [4, 6, 5] : [4, 4, 4, 4];
        const out = [];
        for (let i = 0, g = 0; i < d.length; i += groups[g++]) out.push(d.slice(i, i + groups[g]));
        return out.join(' ');
      },
      check(value) {
        const d = digitsOf(value);
        if (d.length < numberLength(brandOf(d))) return { complete: false, incomplete: 'incomplete_number' };
        return luhn(d) ? { complete: true } : { complete: false, invalid: 'invalid_number' };
      },
    },
    cardExpiry: {
      label: 'Credit or debit card expiration date', autocomplete: 'cc-exp', placeholder: 'MM / YY',
      format(raw, rec, deleting) {
        const full = /^\s*(\d{1,2})\s*[/\-.]\s*(\d{4})\s*$/.exec(raw); // autofill such as "12/2030"
        let d = full ? full[1].padStart(2, '0') + full[2].slice(2) : digitsOf(raw);
        if (!full && !deleting && /^\s*\d\s*[/\-.]/.test(raw)) d = '0' + d; // typing "1/" means January
        if (/^[2-9]/.test(d)) d = '0' + d; // no month starts with 2-9
        d = d.slice(0, 4);
        if (d.length < 2) return d;
        if (d.length === 2) return deleting ? d : d + ' / ';
        return d.slice(0, 2) + ' / ' + d.slice(2);
      },
      check(value) {
        const d = digitsOf(value);
        const month = Number(d.slice(0, 2));
        if (d.length >= 2 && (month < 1 || month > 12)) return { complete: false, invalid: 'invalid_expiry_month' };
        const now = new Date();
        const thisYear = now.getFullYear();
        if (d.length === 3) { // one digit of the year: some decades are already known to be wrong
          const low = 2000 + Number(d[2]) * 10;
          if (low + 9 < thisYear) return { complete: false, invalid: 'invalid_expiry_year_past' };
          if (low > thisYear + 50) return { complete: false, invalid: 'invalid_expiry_year' };
        }
        if (d.length < 4) return { complete: false, incomplete: 'incomplete_expiry' };
        const year = 2000 + Number(d.slice(2));
        if (year < thisYear) return { complete: false, invalid: 'invalid_expiry_year_past' };
        if (year === thisYear && month < now.getMonth() + 1) return { complete: false, invalid: 'invalid_expiry_month_past' };
        if (year > thisYear + 50) return { complete: false, invalid: 'invalid_expiry_year' };
        return { complete: true };
      },
    },
    cardCvc: {
      label: 'Credit or debit card security code', autocomplete: 'cc-csc', placeholder: 'CVC',
      format: (raw, rec) => digitsOf(raw).slice(0, cvcLength(rec)),
      check(value, rec) {
        const d = digitsOf(value), need = cvcLength(rec);
        if (d.length > need) return { complete: false, invalid: 'invalid_cvc' };
        return d.length === need ? { complete: true } : { complete: false, incomplete: 'incomplete_cvc' };
      },
    },
  };

  // ---- Small helpers ----
  const STYLE_ID = 'tg-stripe-styles';
  // Enhancements only (a page's CSP may refuse this sheet; it carries the page's nonce when there is one).
  const CSS = '.tg-input::placeholder{color:var(--tg-placeholder,#6b7785);opacity:1}'
    + '.tg-input:disabled{cursor:not-allowed}'
    + '@media (forced-colors:active){.tg-dialog{border:2px solid CanvasText}}';
  function injectStyles() {
    if (document.getElementById(STYLE_ID)) return;
    const style = document.createElement('style');
    style.id = STYLE_ID;
    const carrier = document.querySelector('script[nonce],link[nonce],style[nonce]');
    const nonce = carrier && (carrier.nonce || carrier.getAttribute('nonce'));
    if (nonce) style.setAttribute('nonce', nonce);
    style.textContent = CSS;
    (document.head || document.documentElement).appendChild(style);
  }
  // An element with attributes and CSSOM styles (never a style attribute).
  function el(tag, attrs, styles, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    Object.assign(node.style, styles || {});
    if (text) node.textContent = text;
    return node;
  }
  const toggleClasses = (node, names, on) => String(names || '').split(/\s+/).filter(Boolean).forEach((c) => node.classList.toggle(c, on));
  const integrationError = (message) => ({ error: { type: 'invalid_request_error', message } });
  const validationError = (code) => ({ type: 'validation_error', code, message: MESSAGES[code] });

  // Stripe's form encoding: { card: { number: 1 } } -> card[number]=1 (undefined and null left out).
  function encode(value, prefix, out) {
    out = out || new URLSearchParams();
    if (value === undefined || value === null) return out;
    if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) encode(v, prefix ? prefix + '[' + k + ']' : k, out);
    } else out.append(prefix, String(value));
    return out;
  }

  // One API call; resolves { data } or { error } (Stripe's error object), never throws.
  async function request(key, method, path, params) {
    let url = base() + 'v1/' + path;
    const body = encode(params).toString();
    const init = { method, headers: { Authorization: 'Bearer ' + key }, credentials: 'omit' };
    if (method === 'GET') { if (body) url += '?' + body; } else {
      init.headers['Content-Type'] = 'application/x-www-form-urlencoded';
      init.body = body;
    }
    let res, json;
    try {
      res = await window.fetch(url, init);
      json = await res.json();
    } catch (e) {
      return { error: { type: 'api_connection_error', message: CONNECTION_MESSAGE } };
    }
    if (!res.ok || !json || json.error) {
      return { error: (json && json.error) || { type: 'api_error', message: 'An unknown error occurred in the local test gateway.' } };
    }
    return { data: json };
  }

  // ---- Elements ----
  const records = new WeakMap(); // element object -> its private state

  function createElement(group, type, options) {
    const spec = FIELDS[type];
    const rec = {
      type, spec, group, options: Object.assign({}, options), handlers: {}, container: null, input: null,
      value: '', focused: false, blurred: false, submitted: false, destroyed: false, state: null,
    };

    // What a change event says now: an invalid value at once, an incomplete one after blur or a submit.
    function evaluate() {
      const empty = rec.value === '';
      const result = spec.check(rec.value, rec);
      const code = result.invalid || ((rec.submitted || (rec.blurred && !empty)) && result.incomplete) || null;
      const state = { elementType: type, empty, complete: result.complete, error: code ? validationError(code) : undefined, value: undefined };
      if (type === 'cardNumber') state.brand = brandOf(digitsOf(rec.value));
      return state;
    }
    const same = (a, b) => a && b && a.empty === b.empty && a.complete === b.complete && a.brand === b.brand
      && (a.error && a.error.code) === (b.error && b.error.code);

    // Recomputes the state, repaints, and emits `change` when asked or when something changed.
    function refresh(always) {
      const before = rec.state;
      rec.state = evaluate();
      paint();
      if (always || !same(before, rec.state)) emit('change', Object.assign({}, rec.state));
      if (type === 'cardNumber') { const cvc = group.byType.get('cardCvc'); if (cvc) cvc.refresh(false); }
    }
    rec.refresh = refresh;

    // Stripe's classes on the container, and the input's look from options.style.
    function paint() {
      const { container, input, state } = rec;
      if (!container || !state) return;
      const classes = Object.assign({ base: 'StripeElement', complete: 'StripeElement--complete', empty: 'StripeElement--empty',
        focus: 'StripeElement--focus', invalid: 'StripeElement--invalid' }, rec.options.classes);
      toggleClasses(container, classes.base, true);
      toggleClasses(container, classes.empty, state.empty);
      toggleClasses(container, classes.focus, rec.focused);
      toggleClasses(container, classes.invalid, Boolean(state.error));
      toggleClasses(container, classes.complete, state.complete);
      input.setAttribute('aria-invalid', state.error ? 'true' : 'false');
      input.placeholder = rec.options.placeholder != null ? rec.options.placeholder : spec.placeholder;
      input.disabled = Boolean(rec.options.disabled);
      const style = rec.options.style || {};
      const variant = state.error ? style.invalid : state.complete ? style.complete : state.empty ? style.empty : null;
      for (const prop of ['color', 'fontFamily', 'fontSize', 'fontWeight', 'fontStyle', 'letterSpacing', 'lineHeight']) {
        input.style[prop] = (variant && variant[prop]) || (style.base && style.base[prop]) || 'inherit';
      }
      const placeholder = style.base && style.base['::placeholder'];
      if (placeholder && placeholder.color) input.style.setProperty('--tg-placeholder', placeholder.color);
    }

    function emit(name, payload) {
      for (const h of (rec.handlers[name] || []).slice()) {
        if (h.once) api.off(name, h.fn);
        try { h.fn(payload); } catch (err) { setTimeout(() => { throw err; }); }
      }
    }

    // Typing: format, keep the caret after the same digit, then tell listeners.
    function onInput(e) {
      const input = rec.input;
      let raw = input.value;
      let caret = input.selectionStart == null ? raw.length : input.selectionStart;
      // Browsers say how the value changed; without that (autofill, scripts), a shorter value means deleting.
      const deleting = typeof e.inputType === 'string' ? e.inputType.startsWith('delete') : raw.length < rec.value.length;
      // Backspace over a space or " / " takes the digit before it too, as in Stripe's inputs.
      if (e.inputType === 'deleteContentBackward' && digitsOf(raw) === digitsOf(rec.value)) {
        const cut = raw.slice(0, caret).search(/\d\D*$/);
        if (cut >= 0) { raw = raw.slice(0, cut) + raw.slice(cut + 1); caret = cut; }
      }
      const digitsBefore = digitsOf(raw.slice(0, caret)).length;
      const next = spec.format(raw, rec, deleting);
      input.value = next;
      if (caret < raw.length && document.activeElement === input) {
        let pos = 0;
        for (let seen = 0; pos < next.length && seen < digitsBefore; pos++) if (/\d/.test(next[pos])) seen++;
        input.setSelectionRange(pos, pos);
      }
      if (next === rec.value) return;
      rec.value = next;
      rec.blurred = false;
      rec.submitted = false;
      refresh(true);
    }

    const api = {
      mount(target) {
        if (rec.destroyed) throw new Error('This Element has already been destroyed. Please create a new one.');
        if (rec.container) throw new Error('This Element is already mounted. Use `unmount()` to unmount the Element before re-mounting.');
        const node = typeof target === 'string' ? document.querySelector(target) : target;
        if (!node || node.nodeType !== 1) throw new Error('Invalid DOM element. Make sure to call mount() with a valid DOM element or selector.');
        injectStyles();
        // No name attribute: a native form submission never carries the card details.
        const input = el('input', {
          type: 'text', inputmode: 'numeric', autocomplete: spec.autocomplete, 'aria-label': spec.label,
          autocorrect: 'off', spellcheck: 'false', class: 'tg-input',
        }, {
          display: 'block', width: '100%', minWidth: '0', boxSizing: 'border-box', margin: '0', padding: '0',
          border: '0', background: 'transparent', boxShadow: 'none', outline: 'none', appearance: 'none',
        });
        input.value = rec.value;
        input.addEventListener('input', onInput);
        input.addEventListener('focus', () => { rec.focused = true; paint(); emit('focus', { elementType: type }); });
        input.addEventListener('blur', () => {
          rec.focused = false;
          rec.blurred = true;
          emit('blur', { elementType: type });
          refresh(false);
        });
        input.addEventListener('keydown', (e) => { if (e.key === 'Escape') emit('escape', { elementType: type }); });
        rec.container = node;
        rec.input = input;
        node.appendChild(input);
        rec.state = evaluate();
        paint();
        setTimeout(() => { if (rec.input === input) emit('ready', { elementType: type }); }, 0);
        return api;
      },
      unmount() {
        if (!rec.container) return api;
        const classes = Object.assign({ base: 'StripeElement' }, rec.options.classes);
        for (const c of [classes.base, 'StripeElement--empty', 'StripeElement--focus', 'StripeElement--invalid', 'StripeElement--complete',
          classes.empty, classes.focus, classes.invalid, classes.complete]) toggleClasses(rec.container, c, false);
        rec.input.remove();
        rec.container = rec.input = null;
        rec.focused = false;
        return api;
      },
      destroy() {
        api.unmount();
        if (group.byType.get(type) === rec) group.byType.delete(type);
        rec.destroyed = true;
        rec.handlers = {};
      },
      on(name, fn) { (rec.handlers[name] = rec.handlers[name] || []).push({ fn, once: false }); return api; },
      once(name, fn) { (rec.handlers[name] = rec.handlers[name] || []).push({ fn, once: true }); return api; },
      off(name, fn) {
        if (rec.handlers[name]) rec.handlers[name] = fn ? rec.handlers[name].filter((h) => h.fn !== fn) : [];
        return api;
      },
      update(options) {
        Object.assign(rec.options, options);
        paint();
        return api;
      },
      focus() { if (rec.input) rec.input.focus(); },
      blur() { if (rec.input) rec.input.blur(); },
      clear() {
        rec.value = '';
        if (rec.input) rec.input.value = '';
        rec.blurred = rec.submitted = false;
        refresh(true);
      },
    };
    rec.api = api;
    rec.state = evaluate();
    records.set(api, rec);
    group.byType.set(type, rec);
    return api;
  }

  // ---- The Express Checkout Element's stand-in (issue 44): one test wallet button ----
  // Offered unless a test sets window.__TEST_GATEWAY_WALLET__ = false (a browser with no wallet). Its click asks the
  // page (the 'click' event, answered with resolve()), then a sheet stands in for Google Pay's; Pay gives the 'confirm'
  // event, after which createPaymentMethod({ elements }) makes the wallet's card a payment method.
  function createExpressCheckout(group, options) {
    const rec = { handlers: {}, container: null, button: null, confirmed: null, destroyed: false, options: Object.assign({}, options) };
    const emit = (name, payload) => {
      for (const h of (rec.handlers[name] || []).slice()) {
        if (h.once) api.off(name, h.fn);
        try { h.fn(payload); } catch (err) { setTimeout(() => { throw err; }); }
      }
    };
    const offered = () => window.__TEST_GATEWAY_WALLET__ !== false;
    async function onClick() {
      if (rec.busy) return;
      rec.busy = true;
      try {
        // A page listening to 'click' must resolve it (Stripe waits for it); one that does not goes on at once.
        if ((rec.handlers.click || []).length) {
          const resolved = await new Promise((resolve) => {
            emit('click', { elementType: 'expressCheckout', expressPaymentType: 'google_pay', resolve: () => resolve(true) });
            setTimeout(() => resolve(false), 5000);
          });
          if (!resolved) return;
        }
        const choice = await walletSheet(group.options.amount, group.options.currency);
        if (choice !== 'pay') { emit('cancel', { elementType: 'expressCheckout' }); return; }
        rec.confirmed = { expressPaymentType: 'google_pay' };
        emit('confirm', {
          elementType: 'expressCheckout', expressPaymentType: 'google_pay', billingDetails: { name: 'Test Wallet', email: null, phone: null, address: null },
          paymentFailed() {},
        });
      } finally {
        rec.busy = false;
      }
    }
    const api = {
      mount(target) {
        const node = typeof target === 'string' ? document.querySelector(target) : target;
        if (!node || node.nodeType !== 1) throw new Error('Invalid DOM element. Make sure to call mount() with a valid DOM element or selector.');
        rec.container = node;
        if (offered()) {
          const b = el('button', { type: 'button', class: 'tg-wallet', 'aria-label': 'Pay with Test wallet' }, {
            display: 'block', width: '100%', minHeight: '48px', borderRadius: '8px', border: '0', background: '#000000', color: '#ffffff',
            font: 'inherit', fontWeight: '600', fontSize: '16px', cursor: 'pointer',
          }, 'Book with  Test wallet');
          b.addEventListener('focus', () => { b.style.outline = '3px solid #1d4ed8'; b.style.outlineOffset = '3px'; });
          b.addEventListener('blur', () => { b.style.outline = 'none'; });
          b.addEventListener('click', onClick);
          rec.button = b;
          node.appendChild(b);
        }
        const available = offered() ? { applePay: false, googlePay: true, link: false, paypal: false, amazonPay: false } : undefined;
        setTimeout(() => emit('ready', { elementType: 'expressCheckout', availablePaymentMethods: available }), 0);
        return api;
      },
      unmount() { if (rec.button) rec.button.remove(); rec.button = rec.container = null; return api; },
      destroy() { api.unmount(); rec.destroyed = true; rec.handlers = {}; group.wallet = null; },
      on(name, fn) { (rec.handlers[name] = rec.handlers[name] || []).push({ fn, once: false }); return api; },
      once(name, fn) { (rec.handlers[name] = rec.handlers[name] || []).push({ fn, once: true }); return api; },
      off(name, fn) {
        if (rec.handlers[name]) rec.handlers[name] = fn ? rec.handlers[name].filter((h) => h.fn !== fn) : [];
        return api;
      },
      update(next) { Object.assign(rec.options, next); return api; },
      focus() { if (rec.button) rec.button.focus(); },
      blur() { if (rec.button) rec.button.blur(); },
    };
    group.wallet = rec;
    return api;
  }

  /** The wallet's sheet: the amount, Pay or Cancel (Escape cancels); resolves 'pay' or 'cancel'. */
  function walletSheet(amount, currency) {
    return new Promise((resolve) => {
      injectStyles();
      const returnTo = document.activeElement;
      const backdrop = el('div', { class: 'tg-backdrop' }, {
        position: 'fixed', top: '0', right: '0', bottom: '0', left: '0', zIndex: '2147483647', display: 'flex', padding: '16px', boxSizing: 'border-box',
        background: 'rgba(10, 15, 25, 0.78)',
      });
      const dialog = el('div', { class: 'tg-dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'tg-wallet-title', tabindex: '-1' }, {
        margin: 'auto 0 0', width: '100%', boxSizing: 'border-box', padding: '24px', borderRadius: '12px 12px 0 0', background: '#ffffff',
        color: '#111827', fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif', fontSize: '16px', lineHeight: '1.5',
      });
      const title = el('h2', { id: 'tg-wallet-title' }, { margin: '0 0 8px', fontSize: '1.3rem' }, 'Test wallet');
      const note = el('p', {}, { margin: '0 0 16px', fontSize: '0.875rem', color: '#374151' },
        'Local test gateway: this stands in for Apple Pay or Google Pay. No real card is charged.');
      const line = el('p', {}, { margin: '0 0 20px', fontSize: '1.1rem' }, 'Pay ');
      line.appendChild(el('strong', {}, {}, formatAmount(amount || 0, currency || 'gbp')));
      const button = (label, colours) => el('button', { type: 'button' }, Object.assign({
        minHeight: '48px', width: '100%', padding: '10px 16px', borderRadius: '8px', font: 'inherit', fontWeight: '600', cursor: 'pointer', marginTop: '8px',
      }, colours), label);
      const pay = button('Pay', { background: '#000000', color: '#ffffff', border: '2px solid #000000' });
      const cancel = button('Cancel', { background: '#ffffff', color: '#111827', border: '2px solid #6b7280' });
      dialog.append(title, note, line, pay, cancel);
      backdrop.appendChild(dialog);
      const onKeydown = (e) => { if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); done('cancel'); } };
      function done(choice) {
        document.removeEventListener('keydown', onKeydown, true);
        backdrop.remove();
        if (returnTo && returnTo.isConnected && typeof returnTo.focus === 'function') returnTo.focus();
        resolve(choice);
      }
      pay.addEventListener('click', () => done('pay'));
      cancel.addEventListener('click', () => done('cancel'));
      document.addEventListener('keydown', onKeydown, true);
      document.body.appendChild(backdrop);
      pay.focus();
    });
  }

  const groups = new WeakMap(); // an Elements group's object -> its private state

  function createElementsGroup(options) {
    const group = { options: Object.assign({}, options), byType: new Map(), wallet: null };
    const elements = {
      create(type, elementOptions) {
        if (type === 'expressCheckout') {
          if (group.wallet) throw new Error('Can only create one Element of type expressCheckout.');
          return createExpressCheckout(group, elementOptions);
        }
        if (!FIELDS[type]) {
          throw new Error('The local test gateway\'s Stripe.js offers only the cardNumber, cardExpiry and cardCvc Elements, not "' + type + '".');
        }
        if (group.byType.has(type)) throw new Error('Can only create one Element of type ' + type + '.');
        return createElement(group, type, elementOptions);
      },
      // react-stripe-js passes its component (which has __elementType); Stripe also takes the type name.
      getElement(which) {
        const type = which && typeof which !== 'string' ? which.__elementType : which;
        const rec = group.byType.get(type);
        return rec ? rec.api : null;
      },
      update(next) { Object.assign(group.options, next); },
      fetchUpdates: () => Promise.resolve({}),
      // Express Checkout: nothing to check here before createPaymentMethod (Stripe validates its own sheet).
      submit: () => Promise.resolve({}),
    };
    groups.set(elements, group);
    return elements;
  }

  // ---- 3-D Secure test challenge ----
  let activeChallenge = null; // one at a time, page-wide

  function formatAmount(amount, currency) {
    try {
      return new Intl.NumberFormat('en-GB', { style: 'currency', currency: String(currency).toUpperCase() }).format(amount / 100);
    } catch (e) {
      return (amount / 100).toFixed(2) + ' ' + String(currency).toUpperCase();
    }
  }

  // An accessible modal with Stripe's test-page buttons; resolves as handleCardAction does.
  function challenge(key, clientSecret, intent) {
    return new Promise((resolve) => {
      injectStyles();
      const returnTo = document.activeElement;
      const backdrop = el('div', { class: 'tg-backdrop' }, {
        position: 'fixed', top: '0', right: '0', bottom: '0', left: '0', zIndex: '2147483647', display: 'flex', padding: '16px', boxSizing: 'border-box',
        overflowY: 'auto', background: 'rgba(10, 15, 25, 0.78)',
      });
      const dialog = el('div', {
        class: 'tg-dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'tg-3ds-title', 'aria-describedby': 'tg-3ds-note tg-3ds-amount', tabindex: '-1',
      }, {
        margin: 'auto', width: '100%', maxWidth: '440px', boxSizing: 'border-box', padding: '24px', borderRadius: '10px',
        background: '#ffffff', color: '#111827', outline: 'none', overflowWrap: 'anywhere', boxShadow: '0 12px 40px rgba(0,0,0,0.45)',
        fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif', fontSize: '16px', lineHeight: '1.5',
      });
      const title = el('h2', { id: 'tg-3ds-title' }, { margin: '0 0 8px', fontSize: '1.3rem', lineHeight: '1.3', color: '#111827' }, '3D Secure authentication');
      const note = el('p', { id: 'tg-3ds-note' }, { margin: '0 0 16px', fontSize: '0.875rem', color: '#374151' },
        "Local test gateway: this stands in for your bank's check. No real card is charged.");
      const amount = el('p', { id: 'tg-3ds-amount' }, { margin: '0 0 20px', fontSize: '1.1rem' }, 'Amount: ');
      amount.appendChild(el('strong', {}, {}, formatAmount(intent.amount, intent.currency)));
      const actions = el('div', {}, { display: 'flex', flexDirection: 'column', gap: '12px' });
      const button = (label, colours) => {
        const b = el('button', { type: 'button', class: 'tg-button' }, Object.assign({
          minHeight: '48px', width: '100%', padding: '10px 16px', borderRadius: '8px', font: 'inherit', fontWeight: '600',
          cursor: 'pointer', boxSizing: 'border-box', whiteSpace: 'normal', outline: 'none',
        }, colours), label);
        // A visible focus ring through CSSOM (no stylesheet needed).
        b.addEventListener('focus', () => { b.style.outline = '3px solid #1d4ed8'; b.style.outlineOffset = '3px'; });
        b.addEventListener('blur', () => { b.style.outline = 'none'; });
        return b;
      };
      const approve = button('Complete authentication', { background: '#14532d', color: '#ffffff', border: '2px solid #14532d' });
      const fail = button('Fail authentication', { background: '#ffffff', color: '#9f1239', border: '2px solid #9f1239' });
      const status = el('p', { role: 'status' }, { margin: '12px 0 0', fontSize: '0.875rem', color: '#374151', minHeight: '1.3em' });
      actions.append(approve, fail);
      dialog.append(title, note, amount, actions, status);
      backdrop.appendChild(dialog);

      let pending = false;
      const buttons = [approve, fail];
      function onKeydown(e) {
        if (e.key === 'Escape') { // the shopper closed the bank's window
          e.preventDefault(); e.stopPropagation();
          choose('fail');
        } else if (e.key === 'Tab') { // keep focus inside: Tab cycles through the buttons
          e.preventDefault();
          const live = buttons.filter((b) => !b.disabled);
          if (!live.length) { dialog.focus(); return; }
          const at = live.indexOf(document.activeElement);
          const next = e.shiftKey ? (at <= 0 ? live.length - 1 : at - 1) : (at + 1) % live.length;
          live[next].focus();
        }
      }
      function onFocusIn(e) { if (!backdrop.contains(e.target)) (pending ? dialog : approve).focus(); }
      const keepFocus = (e) => { if (e.target === backdrop) e.preventDefault(); };
      document.addEventListener('keydown', onKeydown, true);
      document.addEventListener('focusin', onFocusIn, true);
      backdrop.addEventListener('mousedown', keepFocus);
      function close() {
        document.removeEventListener('keydown', onKeydown, true);
        document.removeEventListener('focusin', onFocusIn, true);
        backdrop.remove();
        if (returnTo && returnTo.isConnected && typeof returnTo.focus === 'function') returnTo.focus();
      }

      async function choose(outcome) {
        if (pending) return;
        pending = true;
        dialog.focus();
        buttons.forEach((b) => { b.disabled = true; b.style.opacity = '0.6'; b.style.cursor = 'progress'; });
        status.textContent = 'Sending your answer to the bank...';
        const id = clientSecret.split('_secret_')[0];
        const r = await request(key, 'POST', 'payment_intents/' + encodeURIComponent(id) + '/test_authentication', { client_secret: clientSecret, outcome });
        close();
        if (r.error) return resolve({ error: r.error });
        const pi = r.data;
        if (outcome === 'approve') return resolve({ paymentIntent: pi });
        resolve({ error: Object.assign({ type: 'invalid_request_error', code: 'payment_intent_authentication_failure', message: AUTH_FAILED },
          pi.last_payment_error, { payment_intent: pi }) });
      }
      approve.addEventListener('click', () => choose('approve'));
      fail.addEventListener('click', () => choose('fail'));

      document.body.appendChild(backdrop);
      approve.focus();
    });
  }

  // ---- Stripe(publishableKey) ----
  // Stripe's second argument (apiVersion, locale, stripeAccount) changes nothing here.
  function Stripe(publishableKey) {
    if (typeof publishableKey !== 'string' || !publishableKey) {
      throw new Error('Please call Stripe() with your publishable key. You used an empty string or no key.');
    }
    const key = publishableKey;
    const notOffered = (name) => () => Promise.resolve(integrationError(
      name + ' is not offered by the local test gateway; this site uses createPaymentMethod and server-side confirmation.'));

    async function retrievePaymentIntent(clientSecret) {
      const id = typeof clientSecret === 'string' && clientSecret.includes('_secret_') ? clientSecret.split('_secret_')[0] : '';
      if (!id) return integrationError('Invalid value for retrievePaymentIntent: clientSecret should be a client secret of the form ${id}_secret_${secret}.');
      const r = await request(key, 'GET', 'payment_intents/' + encodeURIComponent(id), { client_secret: clientSecret });
      return r.error ? { error: r.error } : { paymentIntent: r.data };
    }

    async function handleCardAction(clientSecret) {
      if (activeChallenge) {
        return activeChallenge.secret === clientSecret ? activeChallenge.promise
          : integrationError('Another 3D Secure authentication is already in progress.');
      }
      const run = (async () => {
        const got = await retrievePaymentIntent(clientSecret);
        if (got.error) return got;
        const pi = got.paymentIntent;
        if (pi.status !== 'requires_action') {
          return { error: { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', payment_intent: pi,
            message: 'The PaymentIntent does not need authentication: its status is ' + pi.status + '.' } };
        }
        return challenge(key, clientSecret, pi);
      })().catch(() => ({ error: { type: 'api_connection_error', message: CONNECTION_MESSAGE } }));
      const mine = { secret: clientSecret, promise: run };
      activeChallenge = mine;
      run.then(() => { if (activeChallenge === mine) activeChallenge = null; });
      return run;
    }

    // createPaymentMethod({ type: 'card', card, billing_details }) or the older ('card', card, data).
    async function createPaymentMethod(a, b, c) {
      const params = typeof a === 'string' ? Object.assign({}, c, { type: a, card: b }) : Object.assign({}, a);
      // createPaymentMethod({ elements, params }) after the Express Checkout's confirm: the wallet's card (a test Visa).
      if (params.elements) {
        const group = groups.get(params.elements);
        if (!group || !group.wallet || !group.wallet.confirmed) {
          return integrationError('createPaymentMethod: elements must hold an Express Checkout Element whose payment was confirmed.');
        }
        group.wallet.confirmed = null;
        const extra = params.params || {};
        const r = await request(key, 'POST', 'payment_methods', {
          type: 'card', card: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getFullYear() + 3, cvc: '123' },
          billing_details: extra.billing_details, metadata: extra.metadata,
        });
        return r.error ? { error: r.error } : { paymentMethod: r.data };
      }
      if (params.type !== 'card') return integrationError('Only card payment methods are offered by the local test gateway.');
      const rec = params.card && records.get(params.card);
      if (!rec) return integrationError('createPaymentMethod: card must be a cardNumber, cardExpiry or cardCvc Element made by this Stripe.js.');
      if (!rec.container) {
        return integrationError('We could not retrieve data from the specified Element. Please make sure the Element you are attempting to use is still mounted.');
      }
      // The first problem in the order number, expiry, CVC, shown on its Element too.
      for (const type of ORDER) {
        const field = rec.group.byType.get(type);
        const result = field ? field.spec.check(field.value, field) : { complete: false, incomplete: 'incomplete_' + type.slice(4).toLowerCase() };
        if (result.complete) continue;
        const code = result.invalid || result.incomplete;
        if (field) { field.submitted = true; field.refresh(false); }
        return { error: validationError(code) };
      }
      const get = (type) => digitsOf(rec.group.byType.get(type).value);
      const expiry = get('cardExpiry');
      const r = await request(key, 'POST', 'payment_methods', {
        type: 'card',
        card: { number: get('cardNumber'), exp_month: Number(expiry.slice(0, 2)), exp_year: 2000 + Number(expiry.slice(2)), cvc: get('cardCvc') },
        billing_details: params.billing_details, metadata: params.metadata,
      });
      return r.error ? { error: r.error } : { paymentMethod: r.data };
    }

    const never = (fn) => (...args) => fn(...args).catch(() => ({ error: { type: 'api_connection_error', message: CONNECTION_MESSAGE } }));
    return {
      elements: (elementsOptions) => createElementsGroup(elementsOptions),
      createPaymentMethod: never(createPaymentMethod),
      retrievePaymentIntent: never(retrievePaymentIntent),
      handleCardAction,
      handleNextAction: (opts) => handleCardAction(opts && opts.clientSecret),
      createToken: notOffered('createToken'),
      createSource: notOffered('createSource'),
      confirmCardPayment: notOffered('confirmCardPayment'),
      confirmPayment: notOffered('confirmPayment'),
      _registerWrapper() {},
      registerAppInfo() {},
    };
  }
  Stripe.version = 'endive'; // the release train @stripe/stripe-js expects

  window.Stripe = Stripe;
})();
