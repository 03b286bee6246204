-- A booking's allowances are counted last in its statement (issue 40, decision 63): the booking is written first and
-- the allowance rows, which every booking from one address or to one e-mail shares, are held only from the count to
-- the commit. A count that finds one used up calls this, which undoes the whole statement; its message names the
-- allowances that were still within (JSON after the colon), so the refusal can name the one that was not.
CREATE FUNCTION allowance_used_up(within json) RETURNS json LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION USING ERRCODE = 'P0429', MESSAGE = 'An allowance is used up: ' || within::text; END $$;
