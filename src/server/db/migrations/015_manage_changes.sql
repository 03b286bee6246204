-- Manage my booking, changes and cancelling (issue 27).
--
-- A booking can now be paid in more than one payment: the first, and the difference of a pickup-time change that
-- raised the price. `paid_pence` is what the first payment took (the booking's total may change later); a
-- change's payment is kept on the change. A refund names the payment it gives back from, so a booking may have
-- several: one per payment when it is cancelled, one per payment for a change that lowered the price.
ALTER TABLE bookings ADD COLUMN paid_pence integer;
UPDATE bookings SET paid_pence = total_booking_amount_pence WHERE payment_method = 'card' AND paid_at IS NOT NULL;

-- The words on the driver's meet-and-greet sign; none reads as the passenger's name.
ALTER TABLE booking_details ADD COLUMN sign_text text;
-- The free waiting time the booking was made with (45 minutes after landing at an airport, 15 elsewhere, by settings).
ALTER TABLE booking_details ADD COLUMN free_waiting_minutes integer;
ALTER TABLE booking_details ADD COLUMN free_waiting_airport boolean NOT NULL DEFAULT false;

-- Each change a passenger asks for: its values before and after, the price before and after, and where it stands.
-- A change that raises a card booking's price waits for its difference to be paid ('awaiting_payment') and is
-- applied once, by whichever comes first of the browser and the provider's webhook.
CREATE TABLE booking_changes (
  id                serial PRIMARY KEY,
  booking_id        integer NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
  before            jsonb NOT NULL,
  after             jsonb NOT NULL,
  old_total_pence   integer NOT NULL,
  new_total_pence   integer NOT NULL,
  price_breakdown   jsonb,
  status            text NOT NULL CHECK (status IN ('awaiting_payment', 'applied', 'replaced')),
  payment_intent_id text UNIQUE,
  payment_id        text,
  paid_pence        integer,
  created_at        timestamptz NOT NULL DEFAULT now(),
  applied_at        timestamptz
);
CREATE INDEX booking_changes_booking ON booking_changes (booking_id, id);
-- One change waits for its payment at a time: asking for another replaces it.
CREATE UNIQUE INDEX booking_changes_one_waiting ON booking_changes (booking_id) WHERE status = 'awaiting_payment';

ALTER TABLE refunds ADD COLUMN payment_intent_id text;
ALTER TABLE refunds ADD COLUMN change_id integer REFERENCES booking_changes(id);
UPDATE refunds r SET payment_intent_id = b.payment_intent_id FROM bookings b WHERE b.id = r.booking_id;
ALTER TABLE refunds ALTER COLUMN payment_intent_id SET NOT NULL;
DROP INDEX refunds_one_per_booking;
-- A cancellation gives back each payment once; a change gives back once.
CREATE UNIQUE INDEX refunds_cancel_once ON refunds (booking_id, payment_intent_id) WHERE change_id IS NULL;
CREATE UNIQUE INDEX refunds_change_once ON refunds (change_id, payment_intent_id) WHERE change_id IS NOT NULL;
