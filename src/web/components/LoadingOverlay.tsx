import type { ReactNode } from 'react';

export function LoadingOverlay({ text, children }: { text: string; children?: ReactNode }) {
  return (
    <div className="overlay" role="status" aria-live="polite">
      <div className="overlay-box">
        <span className="spinner" aria-hidden="true" />
        <p className="overlay-text">{text}</p>
        {children}
      </div>
    </div>
  );
}
