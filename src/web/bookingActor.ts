// The views' hooks: re-exported from ./appActor so a view names only what it uses.
export { AccountActor, AppActor, BookingActor, useSettings } from './appActor';
