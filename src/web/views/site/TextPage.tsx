// The Terms and Conditions, Privacy Policy and Accessibility statement: text
// from the operator's settings (src/domain/sitePages.ts), fetched with the page.
import { useEffect, useState } from 'react';
import { SITE_PAGES, type SitePageSlug } from '../../../domain/sitePages';
import { fetchPage, type SitePage } from '../../siteApi';

export function TextPage({ slug }: { slug: SitePageSlug }) {
  const [page, setPage] = useState<SitePage | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    setPage(null);
    setFailed(false);
    fetchPage(slug).then((p) => { if (live) setPage(p); }, () => { if (live) setFailed(true); });
    return () => { live = false; };
  }, [slug]);
  return (
    <div className="site-page text-page">
      <h1>{page?.title ?? SITE_PAGES[slug].title}</h1>
      {!page && !failed && <p role="status">Loading…</p>}
      {failed && <p role="alert">This page could not be loaded. Please check your connection and try again.</p>}
      {page?.blocks.map((b, i) => {
        if (b.kind === 'heading') return <h2 key={i}>{b.text}</h2>;
        if (b.kind === 'list') return <ul key={i}>{b.items.map((item, j) => <li key={j}>{item}</li>)}</ul>;
        return <p key={i}>{b.text}</p>;
      })}
    </div>
  );
}
