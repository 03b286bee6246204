-- The operator's books (issue 43): how each booking was taken and by whom, a price set by hand with its reason, and the
-- card payment links of bookings taken by phone.
--
-- How a booking was taken: on the website ('web'), by a signed-in corporate passenger ('account'), or by the office on
-- the telephone ('phone'). Bookings made before this were all made on the website; those of a corporate sign-in cannot
-- be told apart any more and stay 'web'.
ALTER TABLE bookings ADD COLUMN booked_via text NOT NULL DEFAULT 'web' CHECK (booked_via IN ('web', 'account', 'phone'));
-- Who took a booking by phone: the member of staff, and their name as it was (kept whatever becomes of the staff row).
ALTER TABLE bookings ADD COLUMN booked_by_staff_id integer REFERENCES staff(id) ON DELETE SET NULL;
ALTER TABLE bookings ADD COLUMN booked_by_name text;
-- A price the office set by hand: { "quoted_pence": the site's price, "reason": why }. The booking's total is the price
-- charged; the record shows both.
ALTER TABLE bookings ADD COLUMN price_override jsonb;
CREATE INDEX bookings_pick_up_date ON bookings (pick_up_date);

-- A link that lets the passenger of a booking taken by phone pay it by card on the site (/pay/BK-...#key=...). Only a
-- hash of its key is kept. The booking waits as 'pending' until paid (bookings.paid_at); the link works until expires_at.
CREATE TABLE payment_links (
  booking_id     integer PRIMARY KEY REFERENCES bookings(id) ON DELETE CASCADE,
  key_hash       text NOT NULL UNIQUE,
  sent_to        text NOT NULL,
  created_by     integer REFERENCES staff(id) ON DELETE SET NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL
);
