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
  const button = useRef<HTMLButtonElement>(null);
  const { dialog, onDialogClose } = useModal(onClose, () => button.current, returnFocus);

  return (
    <dialog
      ref={dialog}
      className={`dialog dialog-${tone}`}
      role="alertdialog"
      aria-labelledby={titleId}
      onClose={onDialogClose}
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

/**
 * A <dialog> shown modal once per opening: focus goes to `first()` and, when it goes, back to `returnFocus()`, else to
 * the control that opened it, else to the page's heading. `onDialogClose` tells the owner of a close the browser made
 * (Escape), not of one the owner made by unmounting it.
 */
export function useModal(onClose: () => void, first: () => HTMLElement | null | undefined, returnFocus?: () => HTMLElement | null) {
  const dialog = useRef<HTMLDialogElement>(null);
  const latest = useRef({ onClose, returnFocus, first });
  latest.current = { onClose, returnFocus, first };
  const closing = useRef(false);
  // Once per opening: a parent's re-render must not pull the focus back.
  useEffect(() => {
    const el = dialog.current!;
    closing.current = false;
    const opener = focusOwner();
    if (!el.open) el.showModal();
    latest.current.first()?.focus();
    return () => {
      closing.current = true;
      if (el.open) el.close();
      const target = [latest.current.returnFocus?.(), opener, pageHeading()].find((t) => t?.isConnected);
      target?.focus();
    };
  }, []);
  // Escape: the browser closes the dialog itself (not for the close of an unmount, nor a stale one after StrictMode's
  // second mount opened it again).
  const onDialogClose = () => { if (!closing.current && !dialog.current?.open) latest.current.onClose(); };
  return { dialog, onDialogClose };
}
