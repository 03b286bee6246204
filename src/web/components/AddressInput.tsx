// Address field with suggestions from the operator's address list, filtered by
// case-insensitive substring (SPEC 5). Opens on focus, closes on selection or
// when focus leaves. When the list is capped, a line under it (a polite live
// region) says how many more match (decision 23).
import { lazy, Suspense, useEffect, useId, useMemo, useState } from 'react';
import type { AddressItem } from '../../domain/schemas';
import { fetchAddresses } from '../api';
import { useMapsReady } from '../maps';
import type { PlaceSuggestion } from './useGooglePlaces';
import { useSettledError } from './settledError';
import { RequiredMark } from './fields';
import { afterFirstPaint } from '../hooks';

const loadPlaces = () => import('./useGooglePlaces');
const GooglePlacesFeed = lazy(() => loadPlaces().then((m) => ({ default: m.GooglePlacesFeed })));

type Option = { key: string; address: string; place?: PlaceSuggestion };

/** SPEC 5: every known address containing the text, case aside. */
export function matchAddresses(list: AddressItem[], text: string): AddressItem[] {
  const needle = text.trim().toLowerCase();
  return list.filter((a) => a.address.toLowerCase().includes(needle));
}

interface Props {
  id: string; label: string; value: string; placeholder?: string; limit?: number;
  /** The form's own check of the field. */
  error?: string;
  /** The server's refusal of the address (decision 23), shown when the form has nothing to say, and announced. */
  refusal?: string;
  onChange: (value: string) => void; onBlur?: () => void;
  required?: boolean;
}

export function AddressInput({ id, label, value, placeholder, error: check, refusal, limit = 8, onChange, onBlur, required }: Props) {
  const own = useSettledError(check);
  const error = own ?? refusal;
  const [list, setList] = useState<AddressItem[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();
  const errorId = `${id}-error`;

  // Fetched once the page has painted, or at once when the visitor reaches the field first (one request either way).
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    let live = true;
    (wanted ? fetchAddresses() : afterFirstPaint().then(fetchAddresses)).then((l) => { if (live) setList(l); });
    return () => { live = false; };
  }, [wanted]);
  const all = useMemo(() => matchAddresses(list, value), [list, value]);
  const local = useMemo(() => all.slice(0, limit), [all, limit]);
  const more = all.length - local.length;
  const maps = useMapsReady();
  const [googleSuggestions, setGoogleSuggestions] = useState<PlaceSuggestion[]>([]);
  // The operator's own places first, then the maps service's (SPEC 5), without repeats.
  const matches: Option[] = useMemo(() => {
    const seen = new Set(local.map((a) => a.address.toLowerCase()));
    const remote = googleSuggestions.filter((g) => !seen.has(g.address.toLowerCase())).slice(0, Math.max(0, limit - local.length) || 3);
    return [...local.map((a) => ({ key: `a${a.id}`, address: a.address })), ...remote.map((g) => ({ key: g.placeId, address: g.address, place: g }))];
  }, [local, googleSuggestions, limit]);
  const expanded = open && matches.length > 0;

  const choose = (o: Option) => {
    onChange(o.address);
    setOpen(false);
    setActive(-1);
    const place = o.place;
    if (place) loadPlaces().then((m) => m.withPostcode(place)).then((full) => { if (full !== o.address) onChange(full); });
  };

  return (
    <div className="field address-field">
      <label htmlFor={id}>{label}{required && <RequiredMark />}</label>
      {maps && <Suspense fallback={null}><GooglePlacesFeed text={value} active={open} onSuggestions={setGoogleSuggestions} /></Suspense>}
      <div className="combo">
        <input
          id={id}
          type="text"
          role="combobox"
          autoComplete="off"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
          aria-invalid={error ? true : undefined}
          aria-required={required || undefined}
          aria-describedby={error ? errorId : undefined}
          placeholder={placeholder}
          value={value}
          onFocus={() => { setOpen(true); setWanted(true); }}
          onChange={(e) => { onChange(e.target.value); setOpen(true); setActive(-1); setWanted(true); }}
          onBlur={() => { setOpen(false); setActive(-1); onBlur?.(); }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') { e.preventDefault(); setOpen(true); setActive((i) => Math.min(i + 1, matches.length - 1)); }
            else if (e.key === 'ArrowUp') { e.preventDefault(); setActive((i) => Math.max(i - 1, 0)); }
            else if (e.key === 'Enter' && expanded && active >= 0) { e.preventDefault(); choose(matches[active]); }
            else if (e.key === 'Escape') setOpen(false);
          }}
        />
        {/* Pressing on the list (an option, its scroll bar, the line under it) keeps the focus in the input. */}
        <div className="suggestions-panel" onMouseDown={(e) => e.preventDefault()}>
          {expanded && (
            <ul id={listId} role="listbox" className="suggestions" aria-label={`${label} suggestions`}>
              {matches.map((a, i) => (
                <li
                  key={a.key}
                  id={`${listId}-${i}`}
                  role="option"
                  aria-selected={i === active}
                  className={i === active ? 'active' : ''}
                  onMouseDown={() => choose(a)}
                >
                  {a.address}
                </li>
              ))}
            </ul>
          )}
          <p className="suggestions-more" role="status">{expanded && more > 0 ? `${more} more — keep typing to narrow` : ''}</p>
        </div>
      </div>
      {error && <p className="field-error" id={errorId} role={own ? undefined : 'alert'}>{error}</p>}
    </div>
  );
}
