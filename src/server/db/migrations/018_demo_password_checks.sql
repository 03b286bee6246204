-- Issue 39: a server for customers (NODE_ENV=production) refuses to start while a README demo password still signs
-- anyone in (src/server/operator/demoAccounts.ts, decision 47). Trying a stored hash against those passwords costs a
-- full scrypt each, so each hash is tried once in its life: one found to hold none of them is kept here. A changed
-- password is a new hash (a new salt), tried at the next start.
CREATE TABLE demo_password_checks (
  password_hash text PRIMARY KEY,
  checked_at    timestamptz NOT NULL DEFAULT now()
);
