-- One identity per message for all its attempts (issue 24): the same Message-ID header on every send, and in the
-- outbox one file name, so a message sent again after a crash replaces its file instead of adding a copy.
ALTER TABLE outbound_emails ADD COLUMN message_key text NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', '');
