// How to reach the office from a passenger's booking page: the phone and the e-mail in the settings, as links. A
// refusal that asks the passenger to call or e-mail us (a change over an allowance, a deadline passed) says how.
import { telHref } from '../../components/SiteBar';
import type { Settings } from '../../../domain/settings';

/** "call us on <phone> or e-mail <address>" (capital: to start a sentence), or "contact us" when the settings have neither. */
export function Office({ settings, capital = false }: { settings: Settings; capital?: boolean }) {
  const phone = settings.Company_Contact_Info?.trim();
  const email = settings.Company_Email?.trim();
  if (!phone && !email) return <>{capital ? 'Contact us' : 'contact us'}</>;
  return (
    <>
      {phone && <>{capital ? 'Call' : 'call'} us on <a className="nowrap" href={telHref(phone)}>{phone}</a></>}
      {phone && email && ' or '}
      {email && <>{capital && !phone ? 'E-mail' : 'e-mail'} <a href={`mailto:${email}`}>{email}</a></>}
    </>
  );
}

/** A refusal's words; when they ask the passenger to call or e-mail us and the settings say how, followed by how. */
export function Refusal({ message, settings }: { message: string; settings: Settings }) {
  const reachable = Boolean(settings.Company_Contact_Info?.trim() || settings.Company_Email?.trim());
  return <>{message}{reachable && /\b(call|e-mail) us\b|\bcall or e-mail\b/i.test(message) && <> <Office settings={settings} capital />.</>}</>;
}
