-- SMS in the one outgoing-message queue (issue 41 §4, decision 55): a text is a row of outbound_emails with channel
-- 'sms', to_address its E.164 number and body_text its words (subject: a short label for the console). It is written
-- in the transaction of what it is about and sent by the same sender, with the same lease, retries and Retry.
ALTER TABLE outbound_emails ADD COLUMN channel text NOT NULL DEFAULT 'email' CHECK (channel IN ('email', 'sms'));
-- The provider's id of a sent text (Twilio's MessageSid), and what its delivery reports said last.
ALTER TABLE outbound_emails ADD COLUMN provider_id text;
ALTER TABLE outbound_emails ADD COLUMN delivery_status text;
ALTER TABLE outbound_emails ADD COLUMN delivery_error text;
ALTER TABLE outbound_emails ADD COLUMN delivered_at timestamptz;
CREATE UNIQUE INDEX outbound_emails_provider ON outbound_emails (provider_id) WHERE provider_id IS NOT NULL;

-- Numbers that answered STOP (the provider refuses to text them: Twilio's error 21610): no text is sent to them again
-- until they opt back in (START), which the provider tells the same way.
CREATE TABLE sms_opt_outs (
  phone      text PRIMARY KEY,
  opted_out_at timestamptz NOT NULL DEFAULT now(),
  source     text NOT NULL
);
