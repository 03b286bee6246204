import { useEffect, useId, useRef, type ReactNode } from 'react';
import { focusOwner, pageHeading } from '../focus';
import '../screens.css';

/**
 * A modal message on the browser's own <dialog> (showModal): the page behind is inert, so focus stays inside.
 * Focus starts on its button; Escape, the button or a click outside closes it through `onClose`, so the machine
 * decides what happens next. When it goes, focus returns to `returnFocus()` when given (the first invalid field after
 * a validation alert), else to the control that opened it, else, when that is gone (the step changed), to the page's
 * heading.
 */
export function Dialog({ title, children, onClose, closeLabel = 'OK', tone = 'error', returnFocus }: {
  title: string; children: ReactNode; onClose: () => void; closeLabel?: string; tone?: 'error' | 'info';
  returnFocus?: () => HTMLElement | null;
}) {
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const latest = useRef({ onClose, returnFocus });
  latest.current = { onClose, returnFocus };
  const closing = useRef(false);

  // Once per opening: a parent's re-render must not pull the focus back to the button.
  useEffect(() => {
    const el = dialog.current!;
    closing.current = false;
    const opener = focusOwner();
    if (!el.open) el.showModal();
    button.current?.focus();
    return () => {
      closing.current = true;
      if (el.open) el.close();
      const target = [latest.current.returnFocus?.(), opener, pageHeading()].find((t) => t?.isConnected);
      target?.focus();
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      className={`dialog dialog-${tone}`}
      role="alertdialog"
      aria-labelledby={titleId}
      // Escape: the browser closes the dialog itself; the owner is told so it can move on. (Not for the close of
      // an unmount, nor a stale one after StrictMode's second mount opened it again.)
      onClose={() => { if (!closing.current && !dialog.current?.open) latest.current.onClose(); }}
      onClick={(e) => { if (e.target === e.currentTarget) onClose(); }}
    >
      <div className="dialog-inner">
        <h2 id={titleId} className="dialog-title">{title}</h2>
        <div className="dialog-body">{children}</div>
        <button ref={button} type="button" className="btn btn-primary" onClick={onClose}>{closeLabel}</button>
      </div>
    </dialog>
  );
}
