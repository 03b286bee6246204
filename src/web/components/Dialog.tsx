import { useEffect, useId, useRef, type ReactNode } from 'react';

/** A modal message: focus goes to its button, Escape closes it. */
export function Dialog({ title, children, onClose, closeLabel = 'OK', tone = 'error' }: {
  title: string; children: ReactNode; onClose: () => void; closeLabel?: string; tone?: 'error' | 'info';
}) {
  const titleId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  // Once per opening: a parent's re-render must not pull the focus back to the button.
  useEffect(() => {
    button.current?.focus();
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') close.current(); };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <div className="overlay" onClick={(e) => { if (e.target === e.currentTarget) onClose(); }}>
      <div className={`dialog dialog-${tone}`} role="alertdialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 id={titleId} className="dialog-title">{title}</h2>
        <div className="dialog-body">{children}</div>
        <button ref={button} type="button" className="btn btn-primary" onClick={onClose}>{closeLabel}</button>
      </div>
    </div>
  );
}
