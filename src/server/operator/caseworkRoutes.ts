// The console's Complaints and Lost property pages (issue 43 §3, decision 61), under /api/v1/operator/casework/{register}
// (complaints, lost-property): the list, one entry with its history and what the viewer may do, the office's own
// entries (open, change), closing with the outcome (the office only), and the CSV of the entries received in a range of
// days. Every member of staff; a company's staff see and work on the entries about their company's bookings only.
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../deps';
import { loadSettings } from '../deps';
import { readBody } from '../http/body';
import { DomainError } from '../errors';
import { isCalendarDate } from '../../domain/ukTime';
import { CloseBody, ComplaintBody, LostItemBody, isRegister, mayClose, REGISTER_LABELS, type Register } from '../../domain/casework';
import { closeEntry, openEntry, scopeOf, updateEntry, type CaseDeps } from '../casework/entries';
import { entryHistory, entryOf, entryRows, exportEntries, EXPORT_COLUMNS } from '../casework/queries';
import { requireStaff } from './session';
import { toCsv } from '../http/csv';

function registerOf(c: Context<AppEnv>): Register {
  const register = c.req.param('register') ?? '';
  if (!isRegister(register)) throw new DomainError('notFound', 'No such register: there are complaints and lost-property.');
  return register;
}

function idOf(c: Context<AppEnv>): number {
  const id = c.req.param('id') ?? '';
  if (!/^\d{1,9}$/.test(id)) throw new DomainError('notFound', 'No such entry.');
  return Number(id);
}

async function caseDeps(c: Context<AppEnv>): Promise<CaseDeps> {
  const { db, now } = c.var.deps;
  return { db, now: now(), settings: await loadSettings(db) };
}

const bodyOf = (register: Register) => (register === 'complaints' ? ComplaintBody : LostItemBody);

export const caseworkRoutes = new Hono<AppEnv>()
  .get('/operator/casework/:register', async (c) => {
    const staff = await requireStaff(c);
    const register = registerOf(c);
    const status = c.req.query('status') ?? 'open';
    if (status !== 'open' && status !== 'closed' && status !== 'all') throw new DomainError('invalid', 'status is open, closed or all', 'status');
    const list = await entryRows(c.var.deps.db, register, scopeOf(staff), { status, q: (c.req.query('q') ?? '').slice(0, 100) });
    return c.json({ register, title: REGISTER_LABELS[register].title, ...list });
  })
  // The entries received between two days (UK, inclusive) as a CSV file, as the Records page exports the bookings.
  .get('/operator/casework/:register/export', async (c) => {
    const staff = await requireStaff(c);
    const register = registerOf(c);
    const from = c.req.query('from') ?? '';
    const to = c.req.query('to') ?? '';
    if (!isCalendarDate(from)) throw new DomainError('invalid', 'Choose the first day, as a date.', 'from');
    if (!isCalendarDate(to)) throw new DomainError('invalid', 'Choose the last day, as a date.', 'to');
    if (to < from) throw new DomainError('invalid', 'The last day is before the first.', 'to');
    const rows = await exportEntries(c.var.deps.db, register, scopeOf(staff), from, to);
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="${register}-${from}-to-${to}.csv"`);
    return c.body(toCsv(rows, EXPORT_COLUMNS[register]));
  })
  .get('/operator/casework/:register/:id', async (c) => {
    const staff = await requireStaff(c);
    const register = registerOf(c);
    const id = idOf(c);
    const { db } = c.var.deps;
    const entry = await entryOf(db, register, scopeOf(staff), id);
    if (!entry) throw new DomainError('notFound', 'No such entry (or it is not about one of your bookings).');
    const open = entry.status === 'open';
    return c.json({ register, entry, history: await entryHistory(db, register, id), may: { edit: open, close: open && mayClose(staff.role) } });
  })
  .post('/operator/casework/:register', async (c) => {
    const staff = await requireStaff(c);
    const register = registerOf(c);
    const created = await openEntry(await caseDeps(c), staff, register, await readBody(c, bodyOf(register)));
    return c.json(created, 201);
  })
  .put('/operator/casework/:register/:id', async (c) => {
    const staff = await requireStaff(c);
    const register = registerOf(c);
    const id = idOf(c);
    return c.json(await updateEntry(await caseDeps(c), staff, register, id, await readBody(c, bodyOf(register))));
  })
  .post('/operator/casework/:register/:id/close', async (c) => {
    const staff = await requireStaff(c);
    const register = registerOf(c);
    const id = idOf(c);
    const closed = await closeEntry(await caseDeps(c), staff, register, id, await readBody(c, CloseBody));
    c.var.deps.mail.kick();
    return c.json(closed);
  });
