// The head of a wizard page: the way back to the screen before it and the page's heading, with the page's own
// controls after them (the results' layout switch).
import type { ReactNode } from 'react';
import type { ScreenName } from '../../domain/screens';
import { RouteLink } from './RouteLink';

export function StepHead({ back, title, children }: { back: ScreenName; title: string; children?: ReactNode }) {
  return (
    <div className="page-head">
      <RouteLink to={back} className="back-link">← Back</RouteLink>
      <h1>{title}</h1>
      {children}
    </div>
  );
}
