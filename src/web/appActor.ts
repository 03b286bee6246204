// The one app actor for the page, and hooks to its two areas. The machine here
// is the abstract one: main.tsx hands the Provider the live services
// (./liveApp.ts) as its `logic`, and a test can hand it others.
import { useMemo } from 'react';
import { createActorContext, useSelector } from '@xstate/react';
import { appMachine, areaOf, isLazyArea, lazyAreaLocation, locationOf, siteLocation, type AppSnapshot } from '../../machines/app';
import type { contactMachine } from '../../machines/contact';
import type { ActorRefFrom } from 'xstate';
import type { BookingSnapshot } from '../../machines/booking';
import { bookingLocation } from '../../machines/bookingLocation';
import type { AccountSnapshot } from '../../machines/account';
import { accountLocation } from '../../machines/accountLocation';
import type { Location } from '../domain/screens';

export const AppActor = createActorContext(appMachine);

type Ref<S> = NonNullable<AppSnapshot['context'][S extends BookingSnapshot ? 'booking' : 'account']>;

function childHooks<S extends BookingSnapshot | AccountSnapshot>(key: 'booking' | 'account') {
  const useActorRef = (): Ref<S> => {
    const ref = AppActor.useSelector((s) => s.context[key]);
    if (!ref) throw new Error(`the ${key} area is used before the settings loaded`);
    return ref as Ref<S>;
  };
  return {
    useActorRef,
    useSelector<T>(selector: (s: S) => T, compare?: (a: T, b: T) => boolean): T {
      return useSelector(useActorRef() as never, selector as never, compare) as T;
    },
  };
}

/** The booking wizard (machines/booking.ts), as the views see it. */
export const BookingActor = childHooks<BookingSnapshot>('booking');
/** The corporate account (machines/account.ts), as the views see it. */
export const AccountActor = childHooks<AccountSnapshot>('account');

/** Settings as the app machine holds them. */
export function useSettings() {
  return AppActor.useSelector((s) => s.context.settings);
}

/**
 * Where the machine is: the location the address bar should show (null while the settings load). It selects only
 * the location, so a keystroke in a form does not re-render the app.
 */
export function useMachineLocation(): Location | null {
  const area = AppActor.useSelector(areaOf);
  const bookingRef = AppActor.useSelector((s) => s.context.booking) ?? undefined;
  const accountRef = AppActor.useSelector((s) => s.context.account) ?? undefined;
  const bookingPath = useSelector(bookingRef, (s) => (s ? bookingLocation(s)?.path ?? null : null));
  const bookingSearch = useSelector(bookingRef, (s) => (s ? bookingLocation(s)?.search ?? '' : ''));
  const accountPath = useSelector(accountRef, (s) => (s ? accountLocation(s)?.path ?? null : null));
  const accountSearch = useSelector(accountRef, (s) => (s ? accountLocation(s)?.search ?? '' : ''));
  const sitePath = AppActor.useSelector((s) => (areaOf(s) === 'site' ? siteLocation(s).path : null));
  // A lazily loaded area's location lives in its own actor (machines/operator.ts, manage.ts, driver.ts `context.location`).
  const lazyArea = isLazyArea(area) ? area : null;
  const lazyRef = AppActor.useSelector((s) => (lazyArea ? s.context.areas[lazyArea] : undefined));
  const appLocation = AppActor.useSelector((s) => (lazyArea ? lazyAreaLocation(s, lazyArea) : null));
  const lazyPath = useSelector(lazyRef, (s) => (s as { context?: { location?: Location } } | undefined)?.context?.location?.path ?? null) ?? appLocation?.path ?? null;
  const lazySearch = useSelector(lazyRef, (s) => (s as { context?: { location?: Location } } | undefined)?.context?.location?.search ?? null) ?? appLocation?.search ?? '';
  return useMemo(() => {
    if (area === 'wizard' && bookingPath !== null) return { path: bookingPath, search: bookingSearch };
    if (area === 'account' && accountPath !== null) return { path: accountPath, search: accountSearch };
    if (area === 'site' && sitePath !== null) return { path: sitePath, search: '' };
    if (lazyArea && lazyPath !== null) return { path: lazyPath, search: lazySearch };
    return null;
  }, [area, bookingPath, bookingSearch, accountPath, accountSearch, sitePath, lazyArea, lazyPath, lazySearch]);
}

/** The same, read now (after sending an event). */
export function machineLocationNow(app: AppSnapshot): Location | null {
  return locationOf(app, app.context.booking?.getSnapshot(), app.context.account?.getSnapshot());
}

export const useArea = () => AppActor.useSelector(areaOf);

/** The contact form's machine (machines/contact.ts), running while a page of the site area is open. */
export function useContactActor(): ActorRefFrom<typeof contactMachine> | undefined {
  return AppActor.useSelector((s) => s.children.contact as ActorRefFrom<typeof contactMachine> | undefined);
}
