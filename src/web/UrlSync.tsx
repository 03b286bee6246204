// The URL follows the machine. A location change made by the browser (typed
// URL, Back/Forward, a link) becomes one `url.changed` event with the path and
// the query; where the machine lands is then written back, replacing the entry
// when a guard redirected, pushing a new one when the machine moved on its own.
import { useEffect, useRef } from 'react';
import { useLocation, useSearch } from 'wouter';
import { urlOf } from '../domain/screens';
import { AppActor, machineLocationNow, useMachineLocation } from './appActor';

export function UrlSync() {
  const app = AppActor.useActorRef();
  const machine = useMachineLocation();
  const machineUrl = machine ? urlOf(machine) : null;
  const [path, navigate] = useLocation();
  const query = useSearch();
  const browserUrl = urlOf({ path, search: query ? `?${query}` : '' });
  const agreed = useRef<string | null>(null);

  useEffect(() => {
    if (machineUrl === null) return;
    let want = machineUrl;
    let replace = false;
    if (browserUrl !== agreed.current && browserUrl !== want) {
      app.send({ type: 'url.changed', path, search: query ? `?${query}` : '' });
      want = urlOf(machineLocationNow(app.getSnapshot())!);
      replace = true;
    }
    agreed.current = want;
    // Only the query changed (the card page's key arrived): the same screen, so the same history entry.
    if (want !== browserUrl) navigate(want, { replace: replace || want.split('?')[0] === browserUrl.split('?')[0] });
  }, [app, browserUrl, machineUrl, navigate]);

  return null;
}
