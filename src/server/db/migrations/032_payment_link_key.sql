-- A card payment link's page gives the passenger who paid a "Manage your booking" key once (issue 43): whichever
-- completed the payment (the page, the provider's webhook), the page's first completion call after it gets the key; a
-- link sent by text must never keep giving out keys to the booking.
ALTER TABLE payment_links ADD COLUMN manage_key_given_at timestamptz;
