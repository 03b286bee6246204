// The drivers and cars on record (issue 41 §1), under Operator data: every member of staff keeps them, a company's
// staff their own company's (the server lists and accepts no other). Each list flags a document expired or expiring
// within 30 days; each form checks with the rules the server enforces (src/domain/fleetRecords.ts) before it sends.
import { useState } from 'react';
import {
  carRecordErrors, driverRecordErrors, type CarRecord, type CarRecordInput, type DriverRecord, type DriverRecordInput,
} from '../../../domain/fleetRecords';
import { formatPhone } from '../../../domain/phone';
import { formatDateLong } from '../../../domain/ukTime';
import { Card, Input, useSave } from './dataForm';

type Note = { flag: 'expired' | 'soon'; text: string };
type Company = { id: number; company_name: string };
export interface DriversData { drivers: (DriverRecord & { id: number; company_name: string; notes: Note[] })[]; companies: Company[] }
export interface CarsData {
  cars: (CarRecord & { id: number; company_name: string; category_name: string; notes: Note[] })[];
  companies: Company[]; vehicle_types: { id: number; category_name: string }[];
}

function Notes({ notes }: { notes: Note[] }) {
  if (!notes.length) return <span className="op-muted">In date</span>;
  return <>{notes.map((n) => <span key={n.text} className={`op-flag-${n.flag}`}>{n.flag === 'expired' ? 'Expired: ' : 'Due: '}{n.text}<br /></span>)}</>;
}

function Select({ id, label, value, onChange, options, error, required }: {
  id: string; label: string; value: string; onChange: (v: string) => void; options: { value: string; label: string }[]; error?: string; required?: boolean;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}{required && <span className="required-mark" aria-hidden="true"> *</span>}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined}>
        <option value="">Choose</option>
        {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
      {error && <p className="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}

const YES_NO = [{ value: 'yes', label: 'Yes' }, { value: 'no', label: 'No' }];

/** The form's own check and the server's refusal, field by field: the form's first. */
function useChecked<T>(rules: (v: T) => Partial<Record<keyof T, string>>) {
  const { saving, fieldError, save } = useSave();
  const [shown, setShown] = useState<Partial<Record<keyof T, string>>>({});
  const error = (k: keyof T & string) => shown[k] ?? fieldError(k);
  const check = (v: T) => { const e = rules(v); setShown(e); return Object.keys(e).length === 0; };
  return { saving, error, check, save, reset: () => setShown({}) };
}

const NEW_DRIVER: DriverRecordInput = {
  name: '', mobile: '', email: '', licence_number: '', licensing_authority: 'Transport for London', licence_expiry: '', company_id: '', active: 'yes',
};

export function DriversPart({ data }: { data: DriversData }) {
  const { saving, error, check, save, reset } = useChecked<DriverRecordInput>(driverRecordErrors);
  const only = data.companies.length === 1 ? String(data.companies[0].id) : '';
  const [form, setForm] = useState<DriverRecordInput & { id?: number }>({ ...NEW_DRIVER, company_id: only });
  const set = (k: keyof DriverRecordInput) => (v: string) => setForm({ ...form, [k]: v });
  const edit = (d: DriversData['drivers'][number]) => {
    reset();
    setForm({ id: d.id, name: d.name, mobile: formatPhone(d.mobile), email: d.email, licence_number: d.licence_number, licensing_authority: d.licensing_authority,
      licence_expiry: d.licence_expiry, company_id: String(d.company_id), active: d.active ? 'yes' : 'no' });
  };
  return (
    <>
      <table className="op-table">
        <caption className="sr-only">Drivers on record</caption>
        <thead><tr><th scope="col">Driver</th><th scope="col">PHV driver licence</th><th scope="col">Company</th><th scope="col">Documents</th><th scope="col"><span className="sr-only">Edit</span></th></tr></thead>
        <tbody>
          {data.drivers.map((d) => (
            <tr key={d.id}>
              <td data-label="Driver"><div><strong>{d.name}</strong>{!d.active && ' (not active)'}<br /><span className="op-muted">{formatPhone(d.mobile)}{d.email ? ` · ${d.email}` : ''}</span></div></td>
              <td data-label="Licence"><div>{d.licence_number}, {d.licensing_authority}<br /><span className="op-muted">to {formatDateLong(d.licence_expiry)}</span></div></td>
              <td data-label="Company"><div>{d.company_name}</div></td>
              <td data-label="Documents"><div><Notes notes={d.notes} /></div></td>
              <td data-label=""><div><button type="button" className="btn btn-secondary op-small" onClick={() => edit(d)} aria-label={`Edit ${d.name}`}>Edit</button></div></td>
            </tr>
          ))}
          {data.drivers.length === 0 && <tr><td colSpan={5}>No driver on record yet: add one below.</td></tr>}
        </tbody>
      </table>
      <Card title={form.id ? `Change ${form.name || 'the driver'}` : 'Add a driver'}>
        <form className="op-form op-form-grid" noValidate aria-label={form.id ? 'Change the driver' : 'Add a driver'} onSubmit={(e) => {
          e.preventDefault();
          if (check(form)) save({ kind: 'driver', ...form });
        }}>
          <Input id="driver-name" label="Name" value={form.name} onChange={set('name')} error={error('name')} required />
          <Input id="driver-mobile" label="Mobile" type="tel" value={form.mobile} onChange={set('mobile')} error={error('mobile')} required hint="A UK mobile: jobs and sign-in codes are sent to it by SMS." />
          <Input id="driver-email" label="E-mail" type="email" value={form.email} onChange={set('email')} error={error('email')} />
          <Input id="driver-licence" label="PHV driver licence number" value={form.licence_number} onChange={set('licence_number')} error={error('licence_number')} required />
          <Input id="driver-authority" label="Licensing authority" value={form.licensing_authority} onChange={set('licensing_authority')} error={error('licensing_authority')} required />
          <Input id="driver-expiry" label="Licence expiry" type="date" value={form.licence_expiry} onChange={set('licence_expiry')} error={error('licence_expiry')} required />
          <Select id="driver-company" label="Company" value={form.company_id} onChange={set('company_id')} error={error('company_id')} required
            options={data.companies.map((c) => ({ value: String(c.id), label: c.company_name }))} />
          <Select id="driver-active" label="Active (may be dispatched)" value={form.active} onChange={set('active')} error={error('active')} options={YES_NO} />
          <div className="op-dialog-buttons">
            <button type="submit" className="btn btn-primary" disabled={saving}>{form.id ? 'Save driver' : 'Add driver'}</button>
            {form.id && <button type="button" className="btn btn-secondary" onClick={() => { reset(); setForm({ ...NEW_DRIVER, company_id: only }); }}>Add a new driver instead</button>}
          </div>
        </form>
      </Card>
    </>
  );
}

const NEW_CAR: CarRecordInput = {
  registration: '', make: '', model: '', colour: '', vehicle_type_id: '', passengers: '4', suitcases: '2', wheelchair: 'no', licence_number: '',
  licence_expiry: '', mot_expiry: '', insurance_expiry: '', company_id: '', active: 'yes',
};

export function CarsPart({ data }: { data: CarsData }) {
  const { saving, error, check, save, reset } = useChecked<CarRecordInput>(carRecordErrors);
  const only = data.companies.length === 1 ? String(data.companies[0].id) : '';
  const [form, setForm] = useState<CarRecordInput & { id?: number }>({ ...NEW_CAR, company_id: only });
  const set = (k: keyof CarRecordInput) => (v: string) => setForm({ ...form, [k]: v });
  const edit = (c: CarsData['cars'][number]) => {
    reset();
    setForm({ id: c.id, registration: c.registration, make: c.make, model: c.model, colour: c.colour, vehicle_type_id: String(c.vehicle_type_id),
      passengers: String(c.passengers), suitcases: String(c.suitcases), wheelchair: c.wheelchair ? 'yes' : 'no', licence_number: c.licence_number,
      licence_expiry: c.licence_expiry, mot_expiry: c.mot_expiry, insurance_expiry: c.insurance_expiry, company_id: String(c.company_id), active: c.active ? 'yes' : 'no' });
  };
  return (
    <>
      <table className="op-table">
        <caption className="sr-only">Vehicles on record</caption>
        <thead><tr><th scope="col">Vehicle</th><th scope="col">Type and seats</th><th scope="col">Company</th><th scope="col">Documents</th><th scope="col"><span className="sr-only">Edit</span></th></tr></thead>
        <tbody>
          {data.cars.map((c) => (
            <tr key={c.id}>
              <td data-label="Vehicle"><div><strong>{c.registration}</strong>{!c.active && ' (not in service)'}<br /><span className="op-muted">{c.colour} {c.make} {c.model} · PHV {c.licence_number}</span></div></td>
              <td data-label="Type"><div>{c.category_name}<br /><span className="op-muted">{c.passengers} passengers, {c.suitcases} suitcases{c.wheelchair ? ', wheelchair accessible' : ''}</span></div></td>
              <td data-label="Company"><div>{c.company_name}</div></td>
              <td data-label="Documents"><div><Notes notes={c.notes} /></div></td>
              <td data-label=""><div><button type="button" className="btn btn-secondary op-small" onClick={() => edit(c)} aria-label={`Edit ${c.registration}`}>Edit</button></div></td>
            </tr>
          ))}
          {data.cars.length === 0 && <tr><td colSpan={5}>No vehicle on record yet: add one below.</td></tr>}
        </tbody>
      </table>
      <Card title={form.id ? `Change ${form.registration || 'the vehicle'}` : 'Add a vehicle'}>
        <form className="op-form op-form-grid" noValidate aria-label={form.id ? 'Change the vehicle' : 'Add a vehicle'} onSubmit={(e) => {
          e.preventDefault();
          if (check(form)) save({ kind: 'car', ...form });
        }}>
          <Input id="car-registration" label="Registration" value={form.registration} onChange={set('registration')} error={error('registration')} required hint="As on the plate, e.g. LB19 XKE." />
          <Input id="car-make" label="Make" value={form.make} onChange={set('make')} error={error('make')} required />
          <Input id="car-model" label="Model" value={form.model} onChange={set('model')} error={error('model')} required />
          <Input id="car-colour" label="Colour" value={form.colour} onChange={set('colour')} error={error('colour')} required />
          <Select id="car-type" label="Vehicle type" value={form.vehicle_type_id} onChange={set('vehicle_type_id')} error={error('vehicle_type_id')} required
            options={data.vehicle_types.map((v) => ({ value: String(v.id), label: v.category_name }))} />
          <Input id="car-passengers" label="Passengers" value={form.passengers} onChange={set('passengers')} error={error('passengers')} required />
          <Input id="car-suitcases" label="Suitcases" value={form.suitcases} onChange={set('suitcases')} error={error('suitcases')} required />
          <Select id="car-wheelchair" label="Wheelchair accessible" value={form.wheelchair} onChange={set('wheelchair')} error={error('wheelchair')} options={YES_NO} />
          <Input id="car-licence" label="PHV vehicle licence number" value={form.licence_number} onChange={set('licence_number')} error={error('licence_number')} required />
          <Input id="car-licence-expiry" label="Vehicle licence expiry" type="date" value={form.licence_expiry} onChange={set('licence_expiry')} error={error('licence_expiry')} required />
          <Input id="car-mot" label="MOT expiry" type="date" value={form.mot_expiry} onChange={set('mot_expiry')} error={error('mot_expiry')} required />
          <Input id="car-insurance" label="Insurance expiry" type="date" value={form.insurance_expiry} onChange={set('insurance_expiry')} error={error('insurance_expiry')} required />
          <Select id="car-company" label="Company" value={form.company_id} onChange={set('company_id')} error={error('company_id')} required
            options={data.companies.map((c) => ({ value: String(c.id), label: c.company_name }))} />
          <Select id="car-active" label="In service (may be dispatched)" value={form.active} onChange={set('active')} error={error('active')} options={YES_NO} />
          <div className="op-dialog-buttons">
            <button type="submit" className="btn btn-primary" disabled={saving}>{form.id ? 'Save vehicle' : 'Add vehicle'}</button>
            {form.id && <button type="button" className="btn btn-secondary" onClick={() => { reset(); setForm({ ...NEW_CAR, company_id: only }); }}>Add a new vehicle instead</button>}
          </div>
        </form>
      </Card>
    </>
  );
}
