import '../screens.css';

/** Card brand marks, drawn inline so nothing is fetched from a third party. */
export function CardLogos() {
  return (
    <ul className="card-logos" aria-label="Cards accepted: Visa, Mastercard, American Express">
      <li aria-hidden="true">
        <svg viewBox="0 0 48 30" width="48" height="30"><rect width="48" height="30" rx="4" fill="#1a1f71" /><text x="24" y="20" fill="#fff" fontSize="12" fontWeight="700" fontStyle="italic" textAnchor="middle" fontFamily="Arial">VISA</text></svg>
      </li>
      <li aria-hidden="true">
        <svg viewBox="0 0 48 30" width="48" height="30"><rect width="48" height="30" rx="4" fill="#fff" stroke="#dde3ea" /><circle cx="19" cy="15" r="8" fill="#eb001b" /><circle cx="29" cy="15" r="8" fill="#f79e1b" fillOpacity=".9" /></svg>
      </li>
      <li aria-hidden="true">
        <svg viewBox="0 0 48 30" width="48" height="30"><rect width="48" height="30" rx="4" fill="#2e77bc" /><text x="24" y="19" fill="#fff" fontSize="9" fontWeight="700" textAnchor="middle" fontFamily="Arial">AMEX</text></svg>
      </li>
    </ul>
  );
}
