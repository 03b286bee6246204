// The views that show the catalogue's screens, found by the name the catalogue gives them (src/domain/screens.ts
// `view`). Each loads when first needed, to keep the first page small; the build lists each one's files under the
// same name (dist/view-chunks.json), so the server can name them in the page of their screen.
import { preloadable } from './preloadable';
import { viewOfScreen, type ScreenName, type ViewName } from '../domain/screens';

export const VIEWS = {
  QuotationView: preloadable(() => import('./views/quotation/QuotationView'), (m) => m.QuotationView),
  DetailsView: preloadable(() => import('./views/details/DetailsView'), (m) => m.DetailsView),
  PaymentView: preloadable(() => import('./views/payment/PaymentView'), (m) => m.PaymentView),
  CardView: preloadable(() => import('./views/card/CardView'), (m) => m.CardView),
  SuccessView: preloadable(() => import('./views/success/SuccessView'), (m) => m.SuccessView),
  ForgotPasswordView: preloadable(() => import('./views/forgot/ForgotPasswordView'), (m) => m.ForgotPasswordView),
  QuoteView: preloadable(() => import('./views/quote/QuoteView'), (m) => m.QuoteView),
  CheckoutView: preloadable(() => import('./views/checkout/CheckoutView'), (m) => m.CheckoutView),
  SiteArea: preloadable(() => import('./views/site/SiteArea'), (m) => m.SiteArea),
  AccountArea: preloadable(() => import('./views/account/AccountArea'), (m) => m.AccountArea),
  OperatorArea: preloadable(() => import('./views/operator/OperatorArea'), (m) => m.OperatorArea),
  ManageArea: preloadable(() => import('./views/manage/ManageArea'), (m) => m.ManageArea),
  DriverArea: preloadable(() => import('./views/driver/DriverArea'), (m) => m.DriverArea),
} satisfies Record<ViewName, unknown>;

/** The view that shows a screen, or null when the main script shows it (home). */
export function viewFor(screen: ScreenName): (typeof VIEWS)[ViewName] | null {
  const name = viewOfScreen(screen);
  return name ? VIEWS[name] : null;
}
