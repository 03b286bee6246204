// The keys of "Manage your booking" links (issue 27), kept for this tab only. A link carries its key in the fragment
// (/manage/BK-...#key=...), which browsers never send to a server; before the app starts, the key is moved from the
// address bar into the tab's storage, so it does not stay in the history or get copied with the address.
const PREFIX = 'manage-key:';

export function rememberManageKey(reference: string, key: string): void {
  try {
    sessionStorage.setItem(PREFIX + reference.toUpperCase(), key);
  } catch {
    // Storage blocked: the link still opens the page it was clicked on, from the fragment (manageKeyFor).
  }
}

let fromAddress: { reference: string; key: string } | null = null;

export function manageKeyFor(reference: string): string | null {
  const ref = reference.toUpperCase();
  try {
    const kept = sessionStorage.getItem(PREFIX + ref);
    if (kept) return kept;
  } catch {
    // Storage blocked: see below.
  }
  return fromAddress?.reference === ref ? fromAddress.key : null;
}

/** A card payment link's key (issue 43: /pay/BK-...#key=...), kept the same way under its own name. */
const PAY_PREFIX = 'pay-key:';
let payFromAddress: { reference: string; key: string } | null = null;

export function payKeyFor(reference: string): string | null {
  const ref = reference.toUpperCase();
  try {
    const kept = sessionStorage.getItem(PAY_PREFIX + ref);
    if (kept) return kept;
  } catch {
    // Storage blocked: the link still opens the page it was clicked on.
  }
  return payFromAddress?.reference === ref ? payFromAddress.key : null;
}

/** Called once as the page starts: a link's key (a booking's or a payment link's), moved from the address bar into the tab's storage. */
export function captureManageKey(): void {
  const match = /^\/(manage|pay)\/([^/]+)$/i.exec(window.location.pathname);
  const key = new URLSearchParams(window.location.hash.slice(1)).get('key');
  if (!match || !key) return;
  const reference = decodeURIComponent(match[2]).toUpperCase();
  if (match[1].toLowerCase() === 'pay') {
    payFromAddress = { reference, key };
    try { sessionStorage.setItem(PAY_PREFIX + reference, key); } catch { /* kept in payFromAddress */ }
  } else {
    fromAddress = { reference, key };
    rememberManageKey(reference, key);
  }
  history.replaceState(history.state, '', window.location.pathname + window.location.search);
}
