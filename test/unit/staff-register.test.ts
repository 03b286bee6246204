// Issue 43 §4: the register of booking and dispatch staff, with the DBS certificate each showed (the DfT Statutory
// Standards): the number's and the date's rules, both or neither, and the register's rows as its CSV has them.
import { describe, expect, it } from 'vitest';
import { REGISTER_COLUMNS, dbsErrors, dbsRecord, formatDbs, registerRows } from '../../src/domain/staffRegister';

const TODAY = '2026-11-28';

describe("a member of staff's DBS record", () => {
  it('takes a 12-digit certificate number, spaces and dashes as typed, seen on a date up to today', () => {
    expect(dbsErrors({ dbs_number: '001234567890', dbs_seen_on: '2026-11-28' }, TODAY)).toEqual({});
    expect(dbsErrors({ dbs_number: ' 0012 3456-7890 ', dbs_seen_on: ' 2024-02-29 ' }, TODAY)).toEqual({});
    expect(dbsRecord({ dbs_number: ' 0012 3456-7890 ', dbs_seen_on: ' 2024-02-29 ' })).toEqual({ dbs_number: '001234567890', dbs_seen_on: '2024-02-29' });
  });

  it('is neither, or both', () => {
    expect(dbsErrors({}, TODAY)).toEqual({});
    expect(dbsErrors({ dbs_number: ' ', dbs_seen_on: '' }, TODAY)).toEqual({});
    expect(dbsRecord({ dbs_number: '', dbs_seen_on: '' })).toEqual({ dbs_number: null, dbs_seen_on: null });
    expect(dbsErrors({ dbs_number: '001234567890' }, TODAY)).toEqual({ dbs_seen_on: 'Enter the date the certificate was seen.' });
    expect(dbsErrors({ dbs_seen_on: '2026-01-05' }, TODAY)).toEqual({ dbs_number: 'Enter the certificate number that was seen.' });
  });

  it('refuses a number that is not 12 digits and a date that is none or still to come, each on its field', () => {
    const number = 'A DBS certificate number is 12 digits, as printed on the certificate.';
    for (const bad of ['00123456789', '0012345678901', '00123456789X', 'E12345678901']) {
      expect(dbsErrors({ dbs_number: bad, dbs_seen_on: '2026-01-05' }, TODAY)).toEqual({ dbs_number: number });
    }
    expect(dbsErrors({ dbs_number: '001234567890', dbs_seen_on: '2026-02-30' }, TODAY)).toEqual({ dbs_seen_on: 'Enter the date the certificate was seen, as a date.' });
    expect(dbsErrors({ dbs_number: '001234567890', dbs_seen_on: '05/01/2026' }, TODAY)).toEqual({ dbs_seen_on: 'Enter the date the certificate was seen, as a date.' });
    expect(dbsErrors({ dbs_number: '001234567890', dbs_seen_on: '2026-11-29' }, TODAY)).toEqual({ dbs_seen_on: 'The date the certificate was seen cannot be in the future.' });
    // A wrong number with no date is told about the number, not asked for a date as well.
    expect(dbsErrors({ dbs_number: '123' }, TODAY)).toEqual({ dbs_number: number });
    expect(dbsErrors({ dbs_seen_on: 'soon' }, TODAY)).toEqual({ dbs_seen_on: 'Enter the date the certificate was seen, as a date.' });
  });

  it('reads its number in groups of four', () => {
    expect(formatDbs('001234567890')).toBe('0012 3456 7890');
    expect(formatDbs(null)).toBe('');
    expect(formatDbs('12')).toBe('12');
  });
});

describe('the register', () => {
  it('has one row a member of staff, under its columns', () => {
    const rows = registerRows([
      { name: 'Priya Shah', email: 'ops@albion.example', role: 'admin', company_name: null, active: true, created_at: '01-11-2026 09:00', dbs_number: '001234567890', dbs_seen_on: '2026-10-01' },
      { name: 'Tom Okafor', email: 'tom@metro.example', role: 'company', company_name: 'Metro Cars London', active: false, created_at: '02-11-2026 10:00', dbs_number: null, dbs_seen_on: null },
    ], (role) => role.toUpperCase());
    expect(rows.map((r) => Object.keys(r))).toEqual([[...REGISTER_COLUMNS], [...REGISTER_COLUMNS]]);
    expect(rows).toEqual([
      { Name: 'Priya Shah', 'E-mail': 'ops@albion.example', Role: 'ADMIN', Company: '', 'Can sign in': 'Yes', Added: '01-11-2026 09:00', 'DBS certificate number': '0012 3456 7890', 'DBS certificate seen on': '2026-10-01' },
      { Name: 'Tom Okafor', 'E-mail': 'tom@metro.example', Role: 'COMPANY', Company: 'Metro Cars London', 'Can sign in': 'No', Added: '02-11-2026 10:00', 'DBS certificate number': '', 'DBS certificate seen on': '' },
    ]);
  });
});
