// What shows instead of a part of the page that could not be loaded or drawn (a lazy chunk lost to a dropped
// connection, a render error), rather than React unmounting the whole page into a blank screen. A browser keeps a
// failed module fetch for the rest of the page's life, so trying the import again does not help: the way out is a
// reload, which keeps the booking (it is in browser storage).
import { Component, type ReactNode } from 'react';
import { PAGE_NOT_LOADED } from '../../domain/messages';

interface Props {
  children: ReactNode;
  /** Left out quietly (below-the-fold parts) rather than shown as a failure. */
  quiet?: boolean;
  /** A change (the page's path) tries the part again; the children are not remounted while nothing has failed. */
  retryKey?: string;
}

export class LoadFailure extends Component<Props, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidUpdate(previous: Props) {
    if (this.state.failed && previous.retryKey !== this.props.retryKey) this.setState({ failed: false });
  }

  componentDidCatch(error: unknown) {
    console.error('A part of the page could not be shown:', error);
  }

  render() {
    if (!this.state.failed) return this.props.children;
    if (this.props.quiet) return null;
    return (
      <div className="page narrow">
        <div className="banner-error load-failure" role="alert">
          <p>{PAGE_NOT_LOADED}</p>
          <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>Reload the page</button>
        </div>
      </div>
    );
  }
}
