import { StrictMode, startTransition } from 'react';
import type { InspectionEvent } from 'xstate';
import { createRoot } from 'react-dom/client';
import { App, preloadFirstView } from './App';
import { AppActor } from './appActor';
import { liveApp } from './liveApp';
import { installFocusHelpers } from './focus';
import { readSession, readStoredBooking } from './storage';
import { settingsInPage } from './api';
import { captureManageKey } from './manageKeys';

type InspectionHook = (event: InspectionEvent) => void;

captureManageKey();

const input = {
  location: { path: window.location.pathname, search: window.location.search },
  stored: readStoredBooking(),
  session: readSession(),
  // Sent with the page (decision 30): the first render does not wait for GET /setting.
  settings: settingsInPage(),
};

installFocusHelpers();
preloadFirstView(window.location.pathname);

// QA's generated paths (test/paths) watch the machines run in the page through XState's inspection API; a page
// without the hook (every real visit) passes nothing.
const inspect = (window as { __xstateInspect?: InspectionHook }).__xstateInspect;

const root = createRoot(document.getElementById('root')!);
// In a transition, React renders the first page in slices of about 5 ms, none of them a long task (decision 32).
startTransition(() => root.render(
  <StrictMode>
    <AppActor.Provider logic={liveApp} options={{ input, inspect }}>
      <App />
    </AppActor.Provider>
  </StrictMode>,
));
