// A passenger's booking through its link, and Find my booking (issue 27): a chunk of its own, which the first page
// never carries. Once loaded it hands the app machine its machine (machines/manage.ts, with the browser's services) to
// run as the app's `manage` child, then shows the screen that machine's state names.
import { useLazyArea } from '../../areaActor';
import { LoadingOverlay } from '../../components/LoadingOverlay';
import { manageScreen } from '../../../../machines/manage';
import { liveManage } from './liveManage';
import { ManageContext, useManage } from './manageActor';
import { FindBookingView } from './FindBookingView';
import { ManageBookingView } from './ManageBookingView';
import { PayView } from './PayView';
import './manage.css';
import '../../screens.css';

export function ManageArea() {
  const ref = useLazyArea('manage', liveManage);
  if (!ref) return <LoadingOverlay text="Opening your booking" />;
  return (
    <ManageContext.Provider value={ref}>
      <main id="main" className="main">
        <Screen />
      </main>
    </ManageContext.Provider>
  );
}

function Screen() {
  const screen = useManage(manageScreen);
  return screen === 'manageFind' ? <FindBookingView /> : screen === 'payLink' ? <PayView /> : <ManageBookingView />;
}
