// The floor of `npm run bench:web`: the libraries of the design card and nothing
// else, each doing one small real thing (a route, a machine, a validated form,
// a fetch), built with the site's Parcel config and browserslist. What the home
// page weighs and how fast it paints is compared with this page.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Link, Route, Switch } from 'wouter';
import { assign, fromPromise, setup } from 'xstate';
import { createActorContext } from '@xstate/react';
import { Form, Field } from 'react-final-form';
import type { FormApi } from 'final-form';
import { object, pattern, size, string, validate, type Infer } from 'superstruct';
import { ofetch } from 'ofetch';

const Quote = object({
  pickup: size(string(), 3, 200),
  dropoff: size(string(), 3, 200),
  date: pattern(string(), /^\d{4}-\d{2}-\d{2}$/),
});
type Quote = Infer<typeof Quote>;

const quoteMachine = setup({
  types: { context: {} as { quote: Quote | null; price: string | null; error: string | null }, events: {} as { type: 'submit'; quote: Quote } },
  actors: { price: fromPromise(({ input }: { input: Quote }) => ofetch<{ price: string }>('/api/price', { method: 'POST', body: input })) },
}).createMachine({
  context: { quote: null, price: null, error: null },
  initial: 'editing',
  states: {
    editing: { on: { submit: { target: 'pricing', actions: assign({ quote: ({ event }) => event.quote, error: null }) } } },
    pricing: {
      invoke: {
        src: 'price', input: ({ context }) => context.quote!,
        onDone: { target: 'priced', actions: assign({ price: ({ event }) => event.output.price }) },
        onError: { target: 'editing', actions: assign({ error: () => 'No price for this trip yet.' }) },
      },
    },
    priced: { on: { submit: { target: 'pricing', actions: assign({ quote: ({ event }) => event.quote }) } } },
  },
});
const QuoteActor = createActorContext(quoteMachine);

function check(values: Partial<Quote>) {
  const [error] = validate(values, Quote);
  if (!error) return {};
  return Object.fromEntries(error.failures().map((f) => [String(f.path[0]), 'Please fill this in.']));
}

function QuoteForm() {
  const actor = QuoteActor.useActorRef();
  const pricing = QuoteActor.useSelector((s) => s.matches('pricing'));
  const error = QuoteActor.useSelector((s) => s.context.error);
  const price = QuoteActor.useSelector((s) => s.context.price);
  return (
    <Form<Quote> onSubmit={(quote: Quote, _form: FormApi<Quote>) => { actor.send({ type: 'submit', quote }); }} validate={check}
      render={({ handleSubmit }) => (
        <form onSubmit={handleSubmit} noValidate>
          {(['pickup', 'dropoff', 'date'] as const).map((name) => (
            <Field<string> key={name} name={name} render={({ input, meta }) => (
              <label>{name}<input {...input} type={name === 'date' ? 'date' : 'text'} aria-invalid={meta.touched && !!meta.error} />
                {meta.touched && meta.error && <span className="error">{meta.error}</span>}</label>
            )} />
          ))}
          <button type="submit" disabled={pricing}>Get a quote</button>
          {error && <p role="alert" className="error">{error}</p>}
          {price && <p role="status">Your price: {price}</p>}
        </form>
      )} />
  );
}

function Page() {
  return (
    <>
      <header><Link href="/">Quote</Link><Link href="/about">About</Link></header>
      <main>
        <Switch>
          <Route path="/about"><h1>About</h1><p>Licensed drivers across the UK.</p></Route>
          <Route><h1>Get a quote</h1><QuoteForm /></Route>
        </Switch>
      </main>
    </>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode><QuoteActor.Provider><Page /></QuoteActor.Provider></StrictMode>,
);
