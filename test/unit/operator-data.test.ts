// Issue 26 and 41: which parts of the operator data each role opens, and which changes it may make: an administrator
// every part and change; a dispatcher and a company's staff the drivers and vehicles only; anyone else nothing.
import { describe, expect, it } from 'vitest';
import { DATA_SECTIONS, SECTION_LABELS, isDataSection, mayChange, sectionsFor } from '../../src/domain/operatorData';
import { DATA_CHANGE_KINDS } from '../../src/domain/consoleSchemas';

describe('the operator data', () => {
  it('opens every part to an administrator, in the order the console lists them', () => {
    expect(sectionsFor('admin')).toEqual(['settings', 'companies', 'fleet', 'places', 'staff', 'drivers', 'cars', 'audit']);
    expect(sectionsFor('admin')).toEqual([...DATA_SECTIONS]);
  });

  it('opens only the drivers and vehicles to a dispatcher and to a company’s staff', () => {
    expect(sectionsFor('dispatcher')).toEqual(['drivers', 'cars']);
    expect(sectionsFor('company')).toEqual(['drivers', 'cars']);
  });

  it('opens nothing to someone who is no member of staff', () => {
    for (const role of [null, undefined, '', 'passenger', 'driver', 'Admin']) expect(sectionsFor(role)).toEqual([]);
  });

  it('lets an administrator make every change, other staff only the drivers’ and cars’, anyone else none', () => {
    for (const kind of DATA_CHANGE_KINDS) expect(mayChange('admin', kind), kind).toBe(true);
    for (const role of ['dispatcher', 'company']) {
      for (const kind of DATA_CHANGE_KINDS) expect(mayChange(role, kind), `${role} ${kind}`).toBe(kind === 'driver' || kind === 'car');
    }
    for (const role of [null, undefined, 'driver', 'passenger']) {
      expect(mayChange(role, 'driver')).toBe(false);
      expect(mayChange(role, 'car')).toBe(false);
    }
    expect(mayChange('dispatcher', 'toString')).toBe(false);
  });

  it('names each part, and knows a part from any other word', () => {
    expect(SECTION_LABELS).toEqual({
      settings: 'Settings', companies: 'Companies', fleet: 'Fleet and rates', places: 'Places', staff: 'Staff', drivers: 'Drivers', cars: 'Vehicles', audit: 'Audit log',
    });
    expect(isDataSection('drivers')).toBe(true);
    expect(isDataSection('trucks')).toBe(false);
  });
});
