import { useId, type ReactNode } from 'react';
import { useModal } from './Dialog';

/**
 * A modal window for confirming an action (the office's console, a passenger's booking), on the browser's <dialog>: the page behind is inert, focus starts on the
 * first field (or the first button) and goes back to the control that opened it. Escape or a click outside is the
 * same as the window's own "go back" button: `onClose`, so the machine decides.
 */
export function ConfirmDialog({ title, children, onClose }: { title: string; children: ReactNode; onClose: () => void }) {
  const titleId = useId();
  const { dialog, onDialogClose } = useModal(onClose, () => dialog.current?.querySelector<HTMLElement>('input, textarea, select, button'));

  return (
    <dialog
      ref={dialog}
      className="dialog dialog-info confirm-dialog"
      aria-labelledby={titleId}
      onClose={onDialogClose}
      onClick={(e) => { if (e.target === e.currentTarget) onClose(); }}
    >
      <div className="dialog-inner">
        <h2 id={titleId} className="dialog-title">{title}</h2>
        {children}
      </div>
    </dialog>
  );
}
