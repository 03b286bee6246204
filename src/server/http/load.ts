// How busy this process is: the API requests it is answering now, counted by the API's first step (app.ts). The mail
// queue's sender yields to them under load (mail/queue.ts, issue 40): a visitor waiting for an answer comes before an
// e-mail, which goes a few seconds later.
let inFlight = 0;
/** When the count last reached BUSY_AT (performance.now()). */
let lastBusy = Number.NEGATIVE_INFINITY;

/**
 * Requests in flight at which the site counts as under load: more than a page asks at once (two or three things
 * together). With the window below, a few visitors' pages hold an e-mail back for a quarter of a second at most; two
 * server processes sharing a load read 0.95x of d38bf12 at 4 and 0.77x at 6 (issue 40).
 */
export const BUSY_AT = 4;
/**
 * How long the site still counts as under load after the count last reached BUSY_AT: under a steady load the count
 * dips between one answer and the next request, and a sender let in at each dip took a sixth of the throughput of two
 * server processes (issue 40).
 */
export const BUSY_WINDOW_MS = 250;

export const requestLoad = {
  started(): void {
    inFlight++;
    if (inFlight >= BUSY_AT) lastBusy = performance.now();
  },
  ended(): void { inFlight--; },
  get inFlight(): number { return inFlight; },
};

export const underLoad = (now = performance.now()): boolean => inFlight >= BUSY_AT || now - lastBusy < BUSY_WINDOW_MS;
