import { formatDateUK, formatTime12 } from '../../../domain/ukTime';
import { STATUS_LABELS, type BookingStatus } from '../../../domain/operatorDesk';

export const when = (date: string, time: string) => `${formatDateUK(date)} ${formatTime12(time)}`;
export const statusLabel = (s: string) => STATUS_LABELS[s as BookingStatus] ?? s;
export const pounds = (amount: string) => `£${amount}`;
export const PAYMENT_STATUS: Record<string, string> = {
  due_in_car: 'To be paid in the car', paid: 'Paid', pending: 'Not paid yet', refunded: 'Refunded', partially_refunded: 'Partly refunded',
};
