import { formatDateUK, formatTime12 } from '../../../domain/ukTime';
import { STATUS_LABELS, type BookingStatus } from '../../../domain/operatorDesk';

export const when = (date: string, time: string) => `${formatDateUK(date)} ${formatTime12(time)}`;
export const statusLabel = (s: string) => STATUS_LABELS[s as BookingStatus] ?? s;
export const pounds = (amount: string) => `£${amount}`;
export { PAYMENT_STATUS_LABELS as PAYMENT_STATUS } from '../../../domain/bookingLabels';
