// Operator data (issue 26): settings by kind, companies, the fleet and its rates, places and staff for administrators;
// the drivers and cars on record for every member of staff (issue 41, ./FleetRecordsView.tsx). Each form checks what the server checks, sends one change, and the part is loaded again after it.
import { useState, type FormEvent, type MouseEvent } from 'react';
import { useLocation } from 'wouter';
import { pathOfScreen } from '../../../domain/screens';
import { SECTION_LABELS, sectionsFor } from '../../../domain/operatorData';
import { SETTING_GROUPS, isOn, onOff, settingProblem, type SettingInfo } from '../../../domain/settingsCatalogue';
import { ROLE_LABELS, STAFF_ROLES } from '../../../domain/operatorDesk';
import { useOperator, useOperatorRef } from './operatorActor';
import { Card, Input, useSave, type Row } from './dataForm';
import { CarsPart, DriversPart, type CarsData, type DriversData } from './FleetRecordsView';
import { dbsErrors, formatDbs, type DbsErrors } from '../../../domain/staffRegister';
import { ukToday } from '../../../domain/ukTime';

export function DataView() {
  const actor = useOperatorRef();
  const section = useOperator((s) => s.context.dataSection);
  const data = useOperator((s) => s.context.data);
  const loading = useOperator((s) => s.matches({ signedIn: { data: 'loading' } }));
  const failed = useOperator((s) => s.matches({ signedIn: { data: 'failed' } }));
  const notice = useOperator((s) => s.context.notice);
  const error = useOperator((s) => s.context.error);
  const password = useOperator((s) => s.context.password);
  const sections = useOperator((s) => sectionsFor(s.context.staff?.role));
  const admin = useOperator((s) => s.context.staff?.role === 'admin');
  const [, navigate] = useLocation();
  const follow = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(pathOfScreen('operatorAccounts'));
  };
  return (
    <section className="op-page" aria-labelledby="data-title">
      <h1 id="data-title" tabIndex={-1}>{admin ? 'Operator data' : 'Drivers and vehicles'}</h1>
      {/* Issue 44: the corporate accounts have a page of their own. */}
      <p className="op-muted">
        Corporate accounts (their booking fields, bookers and invoices) are kept under <a href={pathOfScreen('operatorAccounts')} onClick={follow}>Accounts</a>.
      </p>
      <div className="op-tabs" role="group" aria-label="Which data">
        {sections.map((s) => (
          <button key={s} type="button" className="op-tab" aria-pressed={section === s} onClick={() => actor.send({ type: 'data.show', section: s })}>{SECTION_LABELS[s]}</button>
        ))}
      </div>
      <div aria-live="polite">
        {notice && <p className="banner-ok">{notice}</p>}
        {password && <p className="op-password">One-time password: <strong className="op-code">{password}</strong></p>}
      </div>
      {error && !error.field && <p className="banner-error" role="alert">{error.message}</p>}
      {failed && <p><button type="button" className="btn btn-secondary" onClick={() => actor.send({ type: 'retry' })}>Try again</button></p>}
      {loading && !data && <p className="op-count">Loading...</p>}
      {data !== null && !loading && (
        <>
          {section === 'settings' && <SettingsPart settings={data as (SettingInfo & { value: string })[]} />}
          {section === 'companies' && <CompaniesPart companies={data as Row[]} />}
          {section === 'fleet' && <FleetPart fleet={data as { vehicles: Row[]; rates: Row[] }} />}
          {section === 'places' && <PlacesPart places={data as { known: Row[]; banned: Row[] }} />}
          {section === 'staff' && <StaffPart staff={data as Row[]} />}
          {section === 'drivers' && <DriversPart data={data as DriversData} />}
          {section === 'cars' && <CarsPart data={data as CarsData} />}
          {section === 'audit' && <AuditPart entries={data as Row[]} />}
        </>
      )}
    </section>
  );
}

function SettingsPart({ settings }: { settings: (SettingInfo & { value: string })[] }) {
  return (
    <div className="op-grid">
      {SETTING_GROUPS.map((group) => (
        <Card key={group} title={group}>
          <div className="op-settings">{settings.filter((s) => s.group === group).map((s) => <SettingRow key={s.name} setting={s} />)}</div>
        </Card>
      ))}
    </div>
  );
}

function SettingRow({ setting }: { setting: SettingInfo & { value: string } }) {
  const { saving, fieldError, save } = useSave();
  const [value, setValue] = useState(setting.value);
  const [problem, setProblem] = useState<string | null>(null);
  const id = `setting-${setting.name}`;
  const toggle = setting.kind === 'toggle' || setting.kind === 'yesNo';
  const submit = (e: FormEvent, v = value) => {
    e.preventDefault();
    const p = settingProblem(setting, v);
    setProblem(p);
    if (!p) save({ kind: 'setting', name: setting.name, value: v });
  };
  if (toggle) {
    const on = isOn(setting, setting.value);
    return (
      <form className="op-setting op-setting-toggle" onSubmit={(e) => submit(e, onOff(setting, !on))} aria-label={setting.label}>
        <span className="op-setting-label">{setting.label}</span>
        <span className={on ? 'op-on' : 'op-off'}>{on ? 'On' : 'Off'}</span>
        <button type="submit" className="btn btn-secondary op-small" disabled={saving} aria-label={`${on ? 'Turn off' : 'Turn on'}: ${setting.label}`}>{on ? 'Turn off' : 'Turn on'}</button>
      </form>
    );
  }
  return (
    <form className="op-setting" onSubmit={submit} noValidate aria-label={setting.label}>
      <Input id={id} label={setting.label} value={value} onChange={setValue} hint={setting.hint}
        type={setting.kind === 'longText' ? 'textarea' : setting.kind === 'email' ? 'email' : setting.kind === 'minutes' || setting.kind === 'money' ? 'text' : 'text'}
        error={problem ?? fieldError(setting.name)} />
      <button type="submit" className="btn btn-secondary op-small" disabled={saving || value === setting.value} aria-label={`Save: ${setting.label}`}>Save</button>
    </form>
  );
}

function CompaniesPart({ companies }: { companies: Row[] }) {
  const { saving, fieldError, save } = useSave();
  const empty = { company_name: '', contact_phone: '', contact_email: '', address: '' };
  const [form, setForm] = useState(empty);
  const set = (k: keyof typeof empty) => (v: string) => setForm({ ...form, [k]: v });
  return (
    <>
      <table className="op-table">
        <caption className="sr-only">Companies</caption>
        <thead><tr><th scope="col">Company</th><th scope="col">Phone</th><th scope="col">E-mail (hears of its bookings)</th><th scope="col">Offered</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
        <tbody>
          {companies.map((c) => (
            <tr key={String(c.id)}>
              <td data-label="Company"><div>{String(c.company_name)}<br /><span className="muted">{String(c.address)}</span></div></td>
              <td data-label="Phone"><div>{String(c.contact_phone)}</div></td>
              <td data-label="E-mail"><div>{String(c.contact_email) || '—'}</div></td>
              <td data-label="Offered"><div>{c.active ? 'Yes' : 'No'}</div></td>
              <td data-label=""><div className="op-row-buttons">
                <button type="button" className="btn btn-secondary op-small" onClick={() => setForm({ company_name: String(c.company_name), contact_phone: String(c.contact_phone), contact_email: String(c.contact_email), address: String(c.address) })}
                  aria-label={`Edit ${String(c.company_name)}`}>Edit</button>
                <button type="button" className="btn btn-secondary op-small" disabled={saving} onClick={() => save({ kind: 'companyActive', company_name: String(c.company_name), active: !c.active })}
                  aria-label={`${c.active ? 'Stop offering' : 'Offer'} ${String(c.company_name)}`}>{c.active ? 'Stop offering' : 'Offer again'}</button>
              </div></td>
            </tr>
          ))}
        </tbody>
      </table>
      <Card title="Add or change a company">
        <form className="op-form op-form-grid" noValidate onSubmit={(e) => { e.preventDefault(); save({ kind: 'company', ...form }); }} aria-label="Company">
          <Input id="company_name" label="Company name" value={form.company_name} onChange={set('company_name')} error={fieldError('company_name')} required hint="A company with this name is changed; any other is added." />
          <Input id="contact_phone" label="Phone" value={form.contact_phone} onChange={set('contact_phone')} />
          <Input id="contact_email" label="E-mail" type="email" value={form.contact_email} onChange={set('contact_email')} error={fieldError('contact_email')} />
          <Input id="company_address" label="Address" value={form.address} onChange={set('address')} />
          <div><button type="submit" className="btn btn-primary" disabled={saving}>Save company</button></div>
        </form>
      </Card>
    </>
  );
}

function FleetPart({ fleet }: { fleet: { vehicles: Row[]; rates: Row[] } }) {
  const { saving, fieldError, save } = useSave();
  const [vehicle, setVehicle] = useState({ category_name: '', seats: '', luggage: '', hand_luggage: '', sort_order: '' });
  const [rate, setRate] = useState<{ company_id: number; vehicle_type_id: number; label: string; base: string; minimum: string; hourly: string; bands: { from_miles: string; per_mile: string }[] } | null>(null);
  const edit = (r: Row) => {
    const bands = (r.bands as { from_miles: number; per_mile: string }[]).map((b) => ({ from_miles: String(b.from_miles), per_mile: b.per_mile }));
    while (bands.length < 3) bands.push({ from_miles: '', per_mile: '' });
    setRate({ company_id: r.company_id as number, vehicle_type_id: r.vehicle_type_id as number, label: `${String(r.company_name)}, ${String(r.category_name)}`, base: String(r.base), minimum: String(r.minimum), hourly: String(r.hourly), bands });
  };
  return (
    <>
      <Card title="Vehicle types">
        <table className="op-lines op-fleet">
          <thead><tr><th scope="col">Type</th><th scope="col">Seats</th><th scope="col">Luggage</th><th scope="col">Hand luggage</th><th scope="col"><span className="sr-only">Edit</span></th></tr></thead>
          <tbody>{fleet.vehicles.map((v) => (
            <tr key={String(v.id)}>
              <th scope="row">{String(v.category_name)}</th><td>{String(v.seats)}</td><td>{String(v.luggage)}</td><td>{String(v.hand_luggage)}</td>
              <td><button type="button" className="btn btn-secondary op-small" aria-label={`Edit ${String(v.category_name)}`}
                onClick={() => setVehicle({ category_name: String(v.category_name), seats: String(v.seats), luggage: String(v.luggage), hand_luggage: String(v.hand_luggage), sort_order: String(v.sort_order) })}>Edit</button></td>
            </tr>
          ))}</tbody>
        </table>
        <form className="op-form op-form-grid" noValidate aria-label="Vehicle type" onSubmit={(e) => { e.preventDefault(); save({ kind: 'vehicle', ...vehicle }); }}>
          <Input id="category_name" label="Vehicle type" value={vehicle.category_name} onChange={(v) => setVehicle({ ...vehicle, category_name: v })} error={fieldError('category_name')} required hint="A type with this name is changed; any other is added." />
          <Input id="seats" label="Seats" value={vehicle.seats} onChange={(v) => setVehicle({ ...vehicle, seats: v })} error={fieldError('seats')} required />
          <Input id="luggage" label="Luggage" value={vehicle.luggage} onChange={(v) => setVehicle({ ...vehicle, luggage: v })} error={fieldError('luggage')} required />
          <Input id="hand_luggage" label="Hand luggage" value={vehicle.hand_luggage} onChange={(v) => setVehicle({ ...vehicle, hand_luggage: v })} error={fieldError('hand_luggage')} required />
          <Input id="sort_order" label="Order on the site" value={vehicle.sort_order} onChange={(v) => setVehicle({ ...vehicle, sort_order: v })} error={fieldError('sort_order')} />
          <div><button type="submit" className="btn btn-primary" disabled={saving}>Save vehicle type</button></div>
        </form>
      </Card>
      <table className="op-table">
        <caption className="sr-only">Rates</caption>
        <thead><tr><th scope="col">Company and vehicle</th><th scope="col">Base</th><th scope="col">Minimum</th><th scope="col">Per hour</th><th scope="col">Per mile</th><th scope="col"><span className="sr-only">Edit</span></th></tr></thead>
        <tbody>
          {fleet.rates.map((r) => (
            <tr key={`${String(r.company_id)}-${String(r.vehicle_type_id)}`}>
              <td data-label="Rate"><div>{String(r.company_name)}, {String(r.category_name)}</div></td>
              <td data-label="Base"><div>£{String(r.base)}</div></td>
              <td data-label="Minimum"><div>£{String(r.minimum)}</div></td>
              <td data-label="Per hour"><div>£{String(r.hourly)}</div></td>
              <td data-label="Per mile"><div>{(r.bands as { from_miles: number; per_mile: string }[]).map((b) => `from mile ${b.from_miles}: £${b.per_mile}`).join('; ')}</div></td>
              <td data-label=""><div><button type="button" className="btn btn-secondary op-small" onClick={() => edit(r)} aria-label={`Edit the rate of ${String(r.company_name)}, ${String(r.category_name)}`}>Edit</button></div></td>
            </tr>
          ))}
        </tbody>
      </table>
      {rate && (
        <Card title={`Rate: ${rate.label}`}>
          <form className="op-form op-form-grid" noValidate aria-label="Rate" onSubmit={(e) => {
            e.preventDefault();
            const { label: _l, ...change } = rate;
            save({ kind: 'rate', ...change });
          }}>
            <Input id="base" label="Base fare (£)" value={rate.base} onChange={(v) => setRate({ ...rate, base: v })} error={fieldError('base')} />
            <Input id="minimum" label="Minimum fare (£)" value={rate.minimum} onChange={(v) => setRate({ ...rate, minimum: v })} error={fieldError('minimum')} />
            <Input id="hourly" label="Per hour (£)" value={rate.hourly} onChange={(v) => setRate({ ...rate, hourly: v })} error={fieldError('hourly')} />
            <fieldset className="op-fieldset op-bands">
              <legend>Per mile, from the mile given (the first from mile 0)</legend>
              {rate.bands.map((b, i) => (
                <div key={i} className="op-band">
                  <Input id={`band-${i}-from`} label={`Band ${i + 1}: from mile`} value={b.from_miles} error={fieldError(`bands.${i}.from_miles`)}
                    onChange={(v) => setRate({ ...rate, bands: rate.bands.map((x, j) => (j === i ? { ...x, from_miles: v } : x)) })} />
                  <Input id={`band-${i}-rate`} label={`Band ${i + 1}: per mile (£)`} value={b.per_mile} error={fieldError(`bands.${i}.per_mile`)}
                    onChange={(v) => setRate({ ...rate, bands: rate.bands.map((x, j) => (j === i ? { ...x, per_mile: v } : x)) })} />
                </div>
              ))}
              {fieldError('bands') && <p className="field-error">{fieldError('bands')}</p>}
            </fieldset>
            <div className="op-dialog-buttons">
              <button type="submit" className="btn btn-primary" disabled={saving}>Save rate</button>
              <button type="button" className="btn btn-secondary" onClick={() => setRate(null)}>Close</button>
            </div>
          </form>
        </Card>
      )}
    </>
  );
}

function PlacesPart({ places }: { places: { known: Row[]; banned: Row[] } }) {
  const { saving, fieldError, save } = useSave();
  const [ban, setBan] = useState({ pattern: '', reason: '' });
  const [place, setPlace] = useState({ address: '', postcode: '', lat: '', lon: '' });
  return (
    <div className="op-grid">
      <Card title="Banned places">
        <p className="muted">A pickup, drop-off or stop containing this text is refused and sent to the quote form.</p>
        <ul className="op-list">
          {places.banned.map((b) => (
            <li key={String(b.pattern)}>
              <span><strong>{String(b.pattern)}</strong>{b.reason ? <span className="muted"> ({String(b.reason)})</span> : null}</span>
              <button type="button" className="btn btn-secondary op-small" disabled={saving} onClick={() => save({ kind: 'unban', pattern: String(b.pattern) })} aria-label={`Allow ${String(b.pattern)} again`}>Allow again</button>
            </li>
          ))}
          {places.banned.length === 0 && <li className="muted">None.</li>}
        </ul>
        <form className="op-form" noValidate aria-label="Ban a place" onSubmit={(e) => { e.preventDefault(); save({ kind: 'ban', ...ban }); }}>
          <Input id="pattern" label="Text to refuse" value={ban.pattern} onChange={(v) => setBan({ ...ban, pattern: v })} error={fieldError('pattern')} required />
          <Input id="reason" label="Reason (for the office)" value={ban.reason} onChange={(v) => setBan({ ...ban, reason: v })} />
          <div><button type="submit" className="btn btn-primary" disabled={saving}>Ban</button></div>
        </form>
      </Card>
      <Card title="Known places">
        <p className="muted">{places.known.length} places are suggested as people type (airports, stations, landmarks).</p>
        <form className="op-form" noValidate aria-label="Add a place" onSubmit={(e) => { e.preventDefault(); save({ kind: 'address', ...place }); }}>
          <Input id="address" label="Address" value={place.address} onChange={(v) => setPlace({ ...place, address: v })} error={fieldError('address')} required />
          <Input id="postcode" label="Postcode" value={place.postcode} onChange={(v) => setPlace({ ...place, postcode: v })} />
          <Input id="lat" label="Latitude" value={place.lat} onChange={(v) => setPlace({ ...place, lat: v })} error={fieldError('lat')} required hint="e.g. 51.4700" />
          <Input id="lon" label="Longitude" value={place.lon} onChange={(v) => setPlace({ ...place, lon: v })} error={fieldError('lon')} required hint="e.g. -0.4543" />
          <div><button type="submit" className="btn btn-primary" disabled={saving}>Add place</button></div>
        </form>
      </Card>
    </div>
  );
}

/** The register of booking and dispatch staff (issue 43): who may sign in, and the DBS certificate each showed. */
function StaffPart({ staff }: { staff: Row[] }) {
  const { saving, fieldError, save } = useSave();
  const companies = useOperator((s) => s.context.filters?.companies ?? []);
  const me = useOperator((s) => s.context.staff?.email);
  const [form, setForm] = useState({ email: '', name: '', role: 'dispatcher', company: '', dbs_number: '', dbs_seen_on: '' });
  const [problems, setProblems] = useState<DbsErrors>({});
  const [dbs, setDbs] = useState<{ email: string; name: string; dbs_number: string; dbs_seen_on: string } | null>(null);
  const [dbsProblems, setDbsProblems] = useState<DbsErrors>({});
  const add = (e: FormEvent) => {
    e.preventDefault();
    const p = dbsErrors(form, ukToday());
    setProblems(p);
    if (Object.keys(p).length === 0) save({ kind: 'addStaff', ...form, company: form.role === 'company' ? form.company : undefined });
  };
  const saveDbs = (e: FormEvent) => {
    e.preventDefault();
    if (!dbs) return;
    const p = dbsErrors(dbs, ukToday());
    setDbsProblems(p);
    if (Object.keys(p).length === 0) save({ kind: 'staffDbs', email: dbs.email, dbs_number: dbs.dbs_number, dbs_seen_on: dbs.dbs_seen_on });
  };
  return (
    <>
      <p className="muted">The register of booking and dispatch staff, with the DBS certificate each showed (the Statutory Standards ask for it). <span className="op-code">npm run admin -- staff --csv</span> prints it as CSV.</p>
      <table className="op-table">
        <caption className="sr-only">Staff</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">DBS certificate</th><th scope="col">Can sign in</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
        <tbody>
          {staff.map((p) => (
            <tr key={String(p.id)}>
              <td data-label="Name"><div>{String(p.name)}</div></td>
              <td data-label="E-mail"><div>{String(p.email)}</div></td>
              <td data-label="Role"><div>{ROLE_LABELS[p.role as keyof typeof ROLE_LABELS]}{p.company_name ? `: ${String(p.company_name)}` : ''}</div></td>
              <td data-label="DBS certificate"><div>{p.dbs_number ? <>{formatDbs(String(p.dbs_number))}<br /><span className="muted">seen {String(p.dbs_seen_on)}</span></> : <span className="muted">Not recorded</span>}</div></td>
              <td data-label="Can sign in"><div>{p.active ? 'Yes' : 'No'}</div></td>
              <td data-label=""><div className="op-row-buttons">
                <button type="button" className="btn btn-secondary op-small" aria-label={`DBS certificate of ${String(p.name)}`}
                  onClick={() => { setDbsProblems({}); setDbs({ email: String(p.email), name: String(p.name), dbs_number: p.dbs_number ? String(p.dbs_number) : '', dbs_seen_on: p.dbs_seen_on ? String(p.dbs_seen_on) : '' }); }}>DBS</button>
                {Boolean(p.active) && p.email !== me && (
                  <button type="button" className="btn btn-secondary op-small" disabled={saving} onClick={() => save({ kind: 'removeStaff', email: String(p.email) })} aria-label={`Remove ${String(p.name)}`}>Remove</button>
                )}
              </div></td>
            </tr>
          ))}
        </tbody>
      </table>
      {fieldError('email') && !form.email && !dbs && <p className="banner-error" role="alert">{fieldError('email')}</p>}
      {dbs && (
        <Card title={`DBS certificate: ${dbs.name}`}>
          <form className="op-form op-form-grid" noValidate aria-label={`DBS certificate of ${dbs.name}`} onSubmit={saveDbs}>
            <Input id="dbs-number" label="DBS certificate number" value={dbs.dbs_number} onChange={(v) => setDbs({ ...dbs, dbs_number: v })}
              error={dbsProblems.dbs_number ?? fieldError('dbs_number')} hint="12 digits, as printed on the certificate. Both empty: clear the record." />
            <Input id="dbs-seen" label="Seen on" type="date" value={dbs.dbs_seen_on} onChange={(v) => setDbs({ ...dbs, dbs_seen_on: v })}
              error={dbsProblems.dbs_seen_on ?? fieldError('dbs_seen_on')} />
            <div className="op-dialog-buttons">
              <button type="submit" className="btn btn-primary" disabled={saving}>Save DBS record</button>
              <button type="button" className="btn btn-secondary" onClick={() => setDbs(null)}>Close</button>
            </div>
          </form>
        </Card>
      )}
      <Card title="Add staff">
        <form className="op-form op-form-grid" noValidate aria-label="Add staff" onSubmit={add}>
          <Input id="staff-name" label="Name" value={form.name} onChange={(v) => setForm({ ...form, name: v })} error={fieldError('name')} required />
          <Input id="staff-email" label="E-mail" type="email" value={form.email} onChange={(v) => setForm({ ...form, email: v })} error={form.email ? fieldError('email') : undefined} required />
          <div className="field">
            <label htmlFor="staff-role">Role</label>
            <select id="staff-role" value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value })}>
              {STAFF_ROLES.map((r) => <option key={r} value={r}>{ROLE_LABELS[r]}</option>)}
            </select>
          </div>
          {form.role === 'company' && (
            <div className="field">
              <label htmlFor="staff-company">Company</label>
              <select id="staff-company" value={form.company} onChange={(e) => setForm({ ...form, company: e.target.value })} aria-describedby={fieldError('company') ? 'staff-company-error' : undefined}>
                <option value="">Choose</option>
                {companies.map((c) => <option key={c.id} value={c.company_name}>{c.company_name}</option>)}
              </select>
              {fieldError('company') && <p className="field-error" id="staff-company-error">{fieldError('company')}</p>}
            </div>
          )}
          <Input id="staff-dbs-number" label="DBS certificate number" value={form.dbs_number} onChange={(v) => setForm({ ...form, dbs_number: v })}
            error={problems.dbs_number ?? (dbs ? undefined : fieldError('dbs_number'))} hint="12 digits; may be added later." />
          <Input id="staff-dbs-seen" label="DBS certificate seen on" type="date" value={form.dbs_seen_on} onChange={(v) => setForm({ ...form, dbs_seen_on: v })}
            error={problems.dbs_seen_on ?? (dbs ? undefined : fieldError('dbs_seen_on'))} />
          <div><button type="submit" className="btn btn-primary" disabled={saving}>Add staff</button></div>
        </form>
      </Card>
    </>
  );
}

function AuditPart({ entries }: { entries: Row[] }) {
  const show = (v: unknown) => (v === null || v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));
  return (
    <table className="op-table">
      <caption className="sr-only">The last 200 changes made from the console</caption>
      <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
      <tbody>
        {entries.map((a) => (
          <tr key={String(a.id)}>
            <td data-label="When"><div>{String(a.at)}</div></td>
            <td data-label="Who"><div>{String(a.staff_name)}</div></td>
            <td data-label="What"><div>{String(a.action)}{a.booking_number ? `: ${String(a.booking_number)}` : ''}{a.subject ? <><br /><span className="muted">{String(a.subject)}</span></> : null}</div></td>
            <td data-label="Before"><div className="op-code">{show(a.before)}</div></td>
            <td data-label="After"><div className="op-code">{show(a.after)}</div></td>
          </tr>
        ))}
        {entries.length === 0 && <tr><td colSpan={5}>Nothing has been changed from the console yet.</td></tr>}
      </tbody>
    </table>
  );
}
