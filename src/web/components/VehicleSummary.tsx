// The chosen vehicle with its total price, on the details and payment steps.
import { BookingActor, useSettings } from '../bookingActor';
import { currencyOf } from '../../domain/settings';
import { finalPricePence, formatAmount, formatExactPrice, penceToPounds } from '../../domain/money';
import '../screens.css';

/** `exact`: where money is taken (the payment and card pages), the total in pence, as it is charged. */
export function VehicleSummary({ exact = false }: { exact?: boolean }) {
  const vehicle = BookingActor.useSelector((s) => s.context.selectedVehicle);
  const quantity = BookingActor.useSelector((s) => s.context.quantity);
  const currency = currencyOf(useSettings());
  if (!vehicle) return null;
  const total = penceToPounds(finalPricePence(vehicle.price, quantity));
  return (
    <section className="vehicle-summary" aria-label="Your vehicle">
      <img src={vehicle.vehicle_image} alt="" width={120} height={64} />
      <div>
        <p className="vehicle-summary-type">{vehicle.vehicle_type}{quantity > 1 ? ` x ${quantity}` : ''}</p>
        <p className="muted">{vehicle.company_name} · up to {vehicle.max_seat} passengers</p>
      </div>
      <p className="vehicle-summary-price"><span className="muted">Total</span> {exact ? formatExactPrice(total, currency) : formatAmount(total, currency)}</p>
    </section>
  );
}
