// How busy this process is: the API requests it is answering now, counted by the API's first step (app.ts). The mail
// queue's sender yields to them under load (mail/queue.ts, issue 40): a visitor waiting for an answer comes before an
// e-mail, which goes a few seconds later.
let inFlight = 0;

export const requestLoad = {
  started(): void { inFlight++; },
  ended(): void { inFlight--; },
  get inFlight(): number { return inFlight; },
};

/**
 * Requests in flight at which the site counts as under load: well above what a few visitors' pages ask at once (a page
 * asks for two or three things together), so an e-mail waits only when many people are waiting for answers.
 */
export const BUSY_AT = 8;

export const underLoad = (): boolean => inFlight >= BUSY_AT;
