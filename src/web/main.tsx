import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { BookingActor } from './bookingActor';
import { readStoredBooking } from './storage';

const input = { path: window.location.pathname, stored: readStoredBooking() };

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BookingActor.Provider options={{ input }}>
      <App />
    </BookingActor.Provider>
  </StrictMode>,
);
