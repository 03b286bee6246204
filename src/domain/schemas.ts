// Shapes of every call in SPEC section 7 used so far, shared by the server
// (which validates every body with them) and the browser (which builds bodies
// with them and checks what it reads back). The bodies only the server checks
// are in ./requestSchemas, so the browser's first page does not carry them.
import {
  array, assign, boolean, defaulted, enums, integer, literal, nullable, number, object,
  optional, pattern, record, refine, size, string, type, union, unknown, type Infer,
} from 'superstruct';
import { CalendarDate, Email, EmailOrEmpty, OptionalText, Text, TravelReference } from './fields';
import { travelReferenceFailure } from './flightNumbers';

export { CalendarDate };
/** 12-hour clock text as the booking form stores it: 12am, 1am .. 11pm. */
export const Hour12 = pattern(string(), /^(1[0-2]|[1-9])(am|pm)$/);
export const Minute = enums(['00', '05', '10', '15', '20', '25', '30', '35', '40', '45', '50', '55']);
const count = (max: number) => defaulted(size(integer(), 0, max), 0);
const yesNo = defaulted(enums(['yes', 'no']), 'no');
const waitingMinutes = defaulted(
  refine(size(integer(), 0, 100), 'step5', (v) => (v % 5 === 0 ? true : 'must be a multiple of 5')),
  0,
);

export const Stop = object({
  street_name: Text(1, 200),
  number: OptionalText(20),
  postcode: OptionalText(10),
});

/**
 * SPEC 3 'Booking form' (BookingForm in browser storage, body of calculate-distance-price). Issue 42: a reference
 * where its field shows must be a flight, train or ferry (refused naming its field).
 */
export const BookingForm = refine(type({
  pickup: Text(1, 300),
  dropoff: Text(1, 300),
  pickup_date: CalendarDate,
  pickup_hour: Hour12,
  pickup_min: Minute,
  select_option: defaulted(enums(['one_way', 'return']), 'one_way'),
  // The empty value first: superstruct's union builds an error object for every member a value fails, and most
  // forms leave the return fields empty (a price call's validation cost a fifth of its CPU).
  return_date: defaulted(union([literal(''), CalendarDate]), ''),
  return_hour: defaulted(union([literal(''), Hour12]), ''),
  return_min: defaulted(union([literal(''), Minute]), ''),
  stops: defaulted(size(array(Stop), 0, 10), []),
  passengers: count(50),
  luggages: count(20),
  hand_luggages: count(20),
  return_passengers: count(50),
  return_luggages: count(20),
  return_hand_luggages: count(20),
  meet_and_greet: yesNo,
  return_meet_and_greet: yesNo,
  baby_seats: count(15),
  booster_seats: count(15),
  return_baby_seats: count(15),
  return_booster_seats: count(15),
  wheel_chair: yesNo,
  return_wheel_chair: yesNo,
  special_luggage: count(15),
  return_special_luggage: count(15),
  waiting_min: waitingMinutes,
  return_waiting_min: waitingMinutes,
  pickup_fight_number: TravelReference,
  return_fight_number: TravelReference,
  modal: optional(Text(0, 100)),
}), 'travelReferences', (v) => {
  const failure = travelReferenceFailure(v);
  return failure ? { message: failure.message, path: [failure.field] } : true;
});
export type BookingForm = Infer<typeof BookingForm>;

export const LatLon = object({ lat: number(), lon: number() });

/** SPEC 3 'Hourly form' (HourlyRateForm). */
export const HourlyRateForm = type({
  pickup: Text(1, 300),
  pickup_date: CalendarDate,
  pickup_duration: pattern(string(), /^([4-9]|1\d|2[0-4])hour$/),
  pickup_hour: Hour12,
  pickup_min: Minute,
  userLocation: optional(nullable(LatLon)),
});
export type HourlyRateForm = Infer<typeof HourlyRateForm>;

/** The hourly form as saved on every change (SPEC 4), possibly half filled. */
export const HourlyRateDraft = type({
  pickup: optional(size(string(), 0, 300)),
  pickup_date: optional(size(string(), 0, 10)),
  pickup_duration: optional(size(string(), 0, 7)),
  pickup_hour: optional(size(string(), 0, 4)),
  pickup_min: optional(size(string(), 0, 2)),
  userLocation: optional(nullable(LatLon)),
});

export const BookingType = enums(['milleage', 'hourly']);
export type BookingType = Infer<typeof BookingType>;

export const Setting = object({ setting_name: string(), setting_value: string() });
export type Setting = Infer<typeof Setting>;

export const Company = type({ id: integer(), company: type({ company_name: string() }) });
export type Company = Infer<typeof Company>;

export const FleetVehicle = type({
  tbms_vid: integer(),
  vehicle_img: string(),
  category_name: string(),
  seats: integer(),
  hand_luggage: integer(),
  luggage: integer(),
});
export type FleetVehicle = Infer<typeof FleetVehicle>;

export const AddressItem = type({ id: integer(), address: string() });
export type AddressItem = Infer<typeof AddressItem>;

export const PriceBreakdown = type({
  currency: string(),
  final_price: string(),
  lines: array(type({ code: optional(string()), leg: optional(string()), label: string(), amount: string() })),
});

/** One entry of price_details: a vehicle type of one operator company, priced for the trip. */
export const PriceDetail = type({
  vehicle_id: integer(),
  company_id: integer(),
  company_name: string(),
  vehicle_image: string(),
  vehicle_type: string(),
  max_seat: integer(),
  luggage: integer(),
  small_luggage: integer(),
  price: string(),
  final_price: string(),
  breakdown: PriceBreakdown,
});
export type PriceDetail = Infer<typeof PriceDetail>;

export const PriceResponse = type({
  price_details: array(PriceDetail),
  via_miles: optional(number()),
  time_duration: optional(integer()),
  estimated: optional(boolean()),
});
export type PriceResponse = Infer<typeof PriceResponse>;

export const DistanceResult = type({ via_miles: number(), time_duration: integer(), estimated: optional(boolean()) });
export type DistanceResult = Infer<typeof DistanceResult>;

export const RegistrationMode = enums(['guest_login', 'new_client', 'existing_client']);
export type RegistrationMode = Infer<typeof RegistrationMode>;

/** SPEC 3 'Registration data'. The password travels to the server but is never stored in the browser. */
export const RegistrationData = type({
  firstName: OptionalText(100),
  surname: OptionalText(100),
  number: OptionalText(30),
  email: Email,
  username: optional(Text(0, 254)),
  privacyAccepted: optional(boolean()),
  termsAccepted: optional(boolean()),
  passengerDetails: defaulted(enums(['yes', 'no']), 'no'),
  passengerName: optional(Text(0, 100)),
  passengerLastname: optional(Text(0, 100)),
  passengerEmail: optional(EmailOrEmpty),
  passengerPhone: optional(Text(0, 30)),
  additionalInfo: OptionalText(1000, { multiline: true }),
  return_additionalInfo: OptionalText(1000, { multiline: true }),
  password: optional(size(string(), 0, 200)),
});
export type RegistrationData = Infer<typeof RegistrationData>;
/** The details as saved on every change (SPEC 4): the e-mail may not be typed yet. */
export const RegistrationDraft = assign(RegistrationData, type({ email: EmailOrEmpty }));

export const BookingRecord = type({
  id: integer(),
  booking_number: string(),
  ride_type: string(),
  pick_up_address: string(),
  drop_off_address: nullable(string()),
  pick_up_date: string(),
  pick_up_time: string(),
  return_date: nullable(string()),
  return_time: nullable(string()),
  hourly_duration: nullable(string()),
  payment_method: string(),
  total_booking_amount: string(),
  flight_no: nullable(string()),
  return_flight_no: nullable(string()),
  company_name: string(),
  fleet_category: type({ category_name: string() }),
});
export type BookingRecord = Infer<typeof BookingRecord>;

export const BookingDetail = type({
  meet_and_greet: string(),
  baby_seat: integer(),
  booster_seat: integer(),
  wheel_chair: string(),
  special_luggages: integer(),
  waiting_minutes: integer(),
  luggages: integer(),
  hand_luggages: integer(),
  vehicle_qty: integer(),
  /** Issue 27: the free waiting the booking was made with, and whether its pickup is an airport. */
  free_waiting_minutes: optional(nullable(integer())),
  free_waiting_airport: optional(boolean()),
  /** Issue 27: the words on the meet-and-greet sign; none: the passenger's name. */
  sign_text: optional(nullable(string())),
});
export type BookingDetail = Infer<typeof BookingDetail>;

export const BookingStopRecord = type({
  id: integer(),
  stop_address: string(),
  stop_post_code: string(),
  stop_street_number: string(),
});

export const PassengerDetail = type({
  passenger_id: nullable(integer()),
  passenger_name: string(),
  passenger_email: string(),
  passenger_contact_no: string(),
  total_passengers: integer(),
  additional_info: string(),
});
export type PassengerDetail = Infer<typeof PassengerDetail>;

export const BookingResult = type({
  booking: BookingRecord,
  bookingDetail: BookingDetail,
  bookingStops: array(BookingStopRecord),
  passengerDetails: PassengerDetail,
  /** Issue 27: the key of the booking's "Manage your booking" link, in the answer that made it (never again). */
  manage_key: optional(string()),
});
export type BookingResult = Infer<typeof BookingResult>;

export const BookingResponse = type({
  success: boolean(),
  message: string(),
  data: optional(BookingResult),
});
export type BookingResponse = Infer<typeof BookingResponse>;

/** Error bodies: a message a person can read, and the field it is about when there is one. */
export const ApiError = type({ success: literal(false), message: string(), field: optional(string()) });

/** POST /check-passenger-email. */
export const CheckEmailResponse = type({ success: boolean(), found: boolean(), message: string() });
export type CheckEmailResponse = Infer<typeof CheckEmailResponse>;

// The bodies with a phone a person typed (quote request, contact form, profile update) are in ./contactSchemas,
// which carries the phone rule and its metadata; they are exported from here too, for callers of this module.
export { ContactForm, QUERY_REASONS, QuoteRequest, UpdatePassengerRequest } from './contactSchemas';

export const AuthResponse = type({ success: boolean(), message: string() });
export type AuthResponse = Infer<typeof AuthResponse>;

/** SPEC 3 'Passenger (corporate)', as the account calls answer it. */
export const PassengerProfile = type({
  passenger_id: integer(), passenger_name: string(), passenger_email: string(), passenger_contact_no: string(),
});
export type PassengerProfile = Infer<typeof PassengerProfile>;

/** POST /check-passenger-login. */
export const PassengerLoginResponse = type({
  success: boolean(), message: string(), access_token: optional(string()), passenger: optional(PassengerProfile),
});
export type PassengerLoginResponse = Infer<typeof PassengerLoginResponse>;

export const UpdatePassengerResponse = type({ success: boolean(), message: string(), passenger: optional(PassengerProfile) });

/** One entry of GET /get_booking/{passenger_id}: SPEC 3 'Booking (response)'. */
export const CorporateBooking = type({
  ...BookingRecord.schema,
  booking_details: BookingDetail,
  booking_stops: array(BookingStopRecord),
  passenger_detail: PassengerDetail,
});
export type CorporateBooking = Infer<typeof CorporateBooking>;
