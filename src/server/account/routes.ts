// SPEC 7 corporate calls: POST /check-passenger-login, GET /get_booking/{passenger_id},
// PATCH /update-passenger, POST /passenger/validate-token, POST /passenger/logout.
// All but the sign-in need `Authorization: Bearer <token>`, and act on the
// token's passenger whatever id the request names (another id is a 403).
import { Hono } from 'hono';
import { UpdatePassengerRequest } from '../../domain/schemas';
import { PassengerLoginRequest } from '../../domain/requestSchemas';
import { INVALID_CREDENTIALS, LOGIN_OK, PROFILE_UPDATED } from '../../domain/messages';
import { DomainError } from '../errors';
import { readBody } from '../http/body';
import { signIn } from '../auth/passengers';
import { clientAddress } from '../http/clientAddress';
import { bearerToken, issueToken, passengerOfToken, requirePassenger, revokeToken } from '../auth/tokens';
import { bookingsOf, profileOf, updateProfile } from './account';
import { loadSettings, type AppEnv } from '../deps';

const NOT_YOURS = 'You can only see and change your own account.';

/** A request naming a passenger id must name the signed-in one. */
function ownId(named: string | number | null | undefined, signedIn: number): void {
  if (named !== undefined && named !== null && named !== '' && Number(named) !== signedIn) throw new DomainError('forbidden', NOT_YOURS);
}

export const accountRoutes = new Hono<AppEnv>()
  .post('/check-passenger-login', async (c) => {
    const { db, security } = c.var.deps;
    const { email, password } = await readBody(c, PassengerLoginRequest);
    const result = await signIn(db, { email, password, client: clientAddress(c, security.trustProxy), hashCost: security.passwordHashCost });
    if (!result.ok) return c.json({ success: false, message: INVALID_CREDENTIALS }, 401);
    const access_token = await issueToken(db, result.account.id);
    return c.json({ success: true, message: LOGIN_OK, access_token, token_type: 'Bearer', passenger: await profileOf(db, result.account.id) });
  })
  .get('/get_booking/:passenger_id', async (c) => {
    const { db } = c.var.deps;
    const me = await requirePassenger(c, db);
    ownId(c.req.param('passenger_id'), me);
    return c.json(await bookingsOf(db, me));
  })
  .patch('/update-passenger', async (c) => {
    const { db, security, mail } = c.var.deps;
    const me = await requirePassenger(c, db);
    const body = await readBody(c, UpdatePassengerRequest);
    ownId(body.passenger_id, me);
    const passenger = await updateProfile({
      db, passengerId: me, token: bearerToken(c)!, client: clientAddress(c, security.trustProxy), hashCost: security.passwordHashCost,
      settings: await loadSettings(db),
    }, body);
    mail.kick();
    return c.json({ success: true, message: PROFILE_UPDATED, passenger });
  })
  .post('/passenger/validate-token', async (c) => {
    const token = bearerToken(c);
    return c.json({ valid: token !== null && (await passengerOfToken(c.var.deps.db, token)) !== null });
  })
  .post('/passenger/logout', async (c) => {
    const token = bearerToken(c);
    if (token) await revokeToken(c.var.deps.db, token);
    return c.json({ success: true, message: 'Logged out' });
  });
