import { useEffect, useId, useRef, type ReactNode } from 'react';
import { focusOwner, pageHeading } from '../../focus';

/**
 * A modal window for confirming an action, on the browser's <dialog>: the page behind is inert, focus starts on the
 * first field (or the first button) and goes back to the control that opened it. Escape or a click outside is the
 * same as the window's own "go back" button: `onClose`, so the machine decides.
 */
export function OperatorDialog({ title, children, onClose }: { title: string; children: ReactNode; onClose: () => void }) {
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const latest = useRef(onClose);
  latest.current = onClose;
  const closing = useRef(false);

  useEffect(() => {
    const el = dialog.current!;
    closing.current = false;
    const opener = focusOwner();
    if (!el.open) el.showModal();
    el.querySelector<HTMLElement>('input, textarea, select, button')?.focus();
    return () => {
      closing.current = true;
      if (el.open) el.close();
      [opener, pageHeading()].find((t) => t?.isConnected)?.focus();
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      className="dialog dialog-info op-dialog"
      aria-labelledby={titleId}
      onClose={() => { if (!closing.current && !dialog.current?.open) latest.current(); }}
      onClick={(e) => { if (e.target === e.currentTarget) onClose(); }}
    >
      <div className="dialog-inner">
        <h2 id={titleId} className="dialog-title">{title}</h2>
        {children}
      </div>
    </dialog>
  );
}
