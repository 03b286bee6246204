// How busy this process is: the API requests it is answering now, counted by the API's first step (app.ts). The mail
// queue's sender yields to them under load (mail/queue.ts, issue 40): a visitor waiting for an answer comes before an
// e-mail, which goes a few seconds later.
let inFlight = 0;

export const requestLoad = {
  started(): void { inFlight++; },
  ended(): void { inFlight--; },
  get inFlight(): number { return inFlight; },
};

/** Requests in flight at which the site counts as under load: more than a page's own few calls at once. */
export const BUSY_AT = 4;

export const underLoad = (): boolean => inFlight >= BUSY_AT;
