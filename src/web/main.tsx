import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { AppActor } from './appActor';
import { liveApp } from './liveApp';
import { installFocusHelpers } from './focus';
import { readSession, readStoredBooking } from './storage';

const input = {
  location: { path: window.location.pathname, search: window.location.search },
  stored: readStoredBooking(),
  session: readSession(),
};

installFocusHelpers();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppActor.Provider logic={liveApp} options={{ input }}>
      <App />
    </AppActor.Provider>
  </StrictMode>,
);
