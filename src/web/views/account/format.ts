// How the account area shows a booking's amount (SPEC 2 'Bookings (corporate)'): as the confirmation does.
import { formatBookingAmount } from '../../../domain/settings';
import { useSettings } from '../../appActor';

export function useAmountFormat(): (pounds: string) => string {
  const settings = useSettings();
  return (pounds) => formatBookingAmount(pounds, settings);
}
