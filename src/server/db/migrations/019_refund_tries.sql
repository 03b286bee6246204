-- Refunds exactly once, however late the retry (issue 39, decision 50).
--
-- A refund is asked of the card provider under its own idempotency key, which the provider remembers for a day. A try
-- whose outcome is unknown (its process stopped after the provider answered, or it failed, or timed out) and is
-- retried after that day would make a second refund, so each try is claimed first, by one statement: `tries` counts
-- them (a first try asks once; any later try first looks the payment's refunds up at the provider, by the refund's id
-- in their metadata), and `asked_at` is when the running try was claimed, so two processes never ask at once (a try
-- that stopped midway is given up after a lease).
ALTER TABLE refunds ADD COLUMN tries integer NOT NULL DEFAULT 0;
ALTER TABLE refunds ADD COLUMN asked_at timestamptz;
-- Written before: whether they were asked is not known, so their next try looks them up first.
UPDATE refunds SET tries = 1 WHERE status <> 'succeeded';

-- A company's staff cancel without a refund: the office refunds what is left later, once (`after_cancel`). A
-- cancellation still gives back each payment once, and what is left of it once more at most.
ALTER TABLE refunds ADD COLUMN after_cancel boolean NOT NULL DEFAULT false;
DROP INDEX refunds_cancel_once;
CREATE UNIQUE INDEX refunds_cancel_once ON refunds (booking_id, payment_intent_id, after_cancel) WHERE change_id IS NULL;
