// A page of the corporate area run as a child machine of the account's (issue 44: Journeys, Invoices), as its view
// reaches it: the view hands the account the page's machine once this chunk runs (`page.loaded`, as a lazy area's code
// is handed to the app), and reads the page's actor while it runs.
import { useEffect } from 'react';
import type { ActorRefFrom, AnyActorLogic } from 'xstate';
import type { AccountPage } from '../../../../machines/account';
import { AccountActor } from '../../appActor';

export function useAccountPage<L extends AnyActorLogic>(screen: AccountPage, logic: L): ActorRefFrom<L> | null {
  const account = AccountActor.useActorRef();
  const page = AccountActor.useSelector((s) => s.context.page);
  useEffect(() => {
    if (!page) account.send({ type: 'page.loaded', screen, logic });
  }, [account, page, screen, logic]);
  return page as ActorRefFrom<L> | null;
}

/** The account's own notice ('Login Successfully' after a sign-in that led to the page), shown for a while. */
export function AccountNotice() {
  const notice = AccountActor.useSelector((s) => s.context.notice);
  return notice ? <p className="banner-ok" role="status">{notice}</p> : null;
}
