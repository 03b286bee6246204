// The console's Records page (issue 43 §2): GET /operator/records?from=&to= answers the operator's name and licence (the
// page's heading, printed on every copy) and the bookings' records; /operator/records.csv the same as a CSV file. Any
// member of staff; a company's staff see their own company's bookings only.
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../deps';
import { loadSettings } from '../deps';
import { DomainError } from '../errors';
import { recordColumns, recordsRangeProblem, type RecordsRange } from '../../domain/bookingRecords';
import { requireStaff } from './session';
import { ukToday } from '../../domain/ukTime';
import { scopeOf } from './deskQueries';
import { bookingRecords, RECORDS_LIMIT } from './records';
import { toCsv } from '../http/csv';

/** The range asked for; none at all is today (UK). */
function rangeOf(c: Context<AppEnv>): RecordsRange {
  const from = c.req.query('from') ?? '';
  const to = c.req.query('to') ?? '';
  const today = ukToday(c.var.deps.now());
  const range = from === '' && to === '' ? { from: today, to: today } : { from, to };
  const problem = recordsRangeProblem(range);
  if (problem) throw new DomainError('invalid', problem.message, problem.field);
  return range;
}

export const recordsRoutes = new Hono<AppEnv>()
  .get('/operator/records', async (c) => {
    const staff = await requireStaff(c);
    const range = rangeOf(c);
    const { db } = c.var.deps;
    const [settings, records] = await Promise.all([loadSettings(db), bookingRecords(db, scopeOf(staff), range)]);
    return c.json({
      operator: {
        name: settings.Company_Name ?? '', licence_number: settings.OPERATOR_LICENCE_NUMBER ?? '',
        licensing_authority: settings.OPERATOR_LICENSING_AUTHORITY ?? '', address: settings.Company_Address ?? '',
      },
      range, company: staff.company_name ?? null, records: records.slice(0, RECORDS_LIMIT), more: records.length > RECORDS_LIMIT,
    });
  })
  .get('/operator/records.csv', async (c) => {
    const staff = await requireStaff(c);
    const range = rangeOf(c);
    const records = await bookingRecords(c.var.deps.db, scopeOf(staff), range);
    if (records.length > RECORDS_LIMIT) {
      throw new DomainError('invalid', `More than ${RECORDS_LIMIT.toLocaleString('en-GB')} bookings were picked up in these days: choose fewer days.`, 'to');
    }
    const columns = recordColumns();
    const rows = records.map((r) => Object.fromEntries(columns.map(([name, read]) => [name, read(r)])));
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="booking-records-${range.from}-to-${range.to}.csv"`);
    return c.body(toCsv(rows, columns.map(([name]) => name)));
  });
