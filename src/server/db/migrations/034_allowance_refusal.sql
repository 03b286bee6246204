-- A booking's allowances are counted in its statement after the booking and its manage key are written (issue 40,
-- decision 63), so the allowance rows, which every booking from one address or to one e-mail shares, are not held while
-- the booking is written. A count that finds one used up calls this, which undoes the whole statement; its message
-- names the allowances that were still within (JSON after the colon), so the refusal can name the one that was not.
CREATE FUNCTION allowance_used_up(within json) RETURNS json LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION USING ERRCODE = 'P0429', MESSAGE = 'An allowance is used up: ' || within::text; END $$;
