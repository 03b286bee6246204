import '../../screens.css';

/** SPEC 1 and 2: the services panel about Meet and Greet. */
export function ServicesPanel() {
  return (
    <section className="services" aria-labelledby="services-title">
      <div className="services-inner">
        <h2 id="services-title">Our services</h2>
        <div className="services-grid">
          <article>
            <h3>Meet and Greet</h3>
            <p>Your driver waits in arrivals holding a sign with your name or your company name, and tracks your flight so an early or delayed landing is never a problem.</p>
          </article>
          <article>
            <h3>Airport and station transfers</h3>
            <p>Heathrow, Gatwick, Stansted, Luton, City and every major UK airport and railway station, at a fixed price agreed before you travel.</p>
          </article>
          <article>
            <h3>Corporate and long distance</h3>
            <p>Executive saloons and MPVs for meetings, events and city-to-city journeys, from operators we have checked and licensed.</p>
          </article>
        </div>
      </div>
    </section>
  );
}
