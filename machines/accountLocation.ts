// Where the corporate account is, as the address bar shows it: the screen its state names in `meta` (the wanted
// protected screen while its token is checked, so the address bar does not jump), and that screen's path.
import { locationOfScreen, needsSignIn, pathOfScreen, redirectSearch, screenOfPath, type AccountScreen, type Location } from '../src/domain/screens';
import type { AccountSnapshot } from './account';

/** The screen on show, as the state's meta says. */
export function accountScreen(s: AccountSnapshot): AccountScreen | null {
  for (const meta of Object.values(s.getMeta())) {
    if (meta?.screen === 'wanted') {
      const wanted = screenOfPath(s.context.wanted?.path ?? '');
      return wanted !== null && needsSignIn(wanted) ? wanted as AccountScreen : 'bookings';
    }
    if (meta?.screen) return meta.screen;
  }
  return null;
}

/** The account's URL: /login keeps the wanted page in ?redirect= (SPEC 2 'Route guard'). */
export function accountLocation(s: AccountSnapshot): Location | null {
  const screen = accountScreen(s);
  if (screen === null) return null;
  if (screen === 'login') return locationOfScreen('login', s.context.wanted ? redirectSearch(s.context.wanted) : '');
  if (s.matches('checking')) return s.context.wanted;
  return { path: pathOfScreen(screen), search: '' };
}
