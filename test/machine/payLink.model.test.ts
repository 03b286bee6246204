// Model-based tests of machines/payLink.ts (./modelPaths.ts), a card payment link's page (issue 43 §1): paths generated
// from the model (./models/payLink.ts) cover every transition, with the page's facts after each step.
import { testModel } from './modelPaths';
import { model } from './models/payLink';

testModel(model);
