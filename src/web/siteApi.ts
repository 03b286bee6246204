// The calls of the pages around the wizard (a lazy chunk): the contact form,
// the operators list of the footer, and the text pages.
import { array, assert } from 'superstruct';
import { Company, type ContactForm } from '../domain/schemas';
import type { PageBlock } from '../domain/sitePages';
import { api, errorMessage } from './api';

/** SPEC 7 contact-us: the server's confirmation; a failure carries the server's error text (SPEC 8). */
export async function sendContact(form: ContactForm): Promise<{ message: string }> {
  try {
    const res = await api<{ success?: boolean; message?: string }>('/contact-us', { method: 'POST', body: form });
    return { message: res.message ?? '' };
  } catch (err) {
    throw new Error(errorMessage(err));
  }
}

let companies: Promise<string[]> | null = null;
/** SPEC 7 fetch_companies, once per page; SPEC 8: a failure is logged only. */
export function fetchCompanyNames(): Promise<string[]> {
  companies ??= api('/fetch_companies').then((list) => {
    assert(list, array(Company));
    return list.map((c) => c.company.company_name);
  }).catch((err) => {
    console.error('Operators unavailable:', errorMessage(err));
    companies = null;
    return [];
  });
  return companies;
}

export interface SitePage { title: string; blocks: PageBlock[] }

export async function fetchPage(slug: string): Promise<SitePage> {
  const res = await api<SitePage>(`/page/${slug}`);
  if (typeof res?.title !== 'string' || !Array.isArray(res.blocks)) throw new Error('The page could not be read.');
  return { title: res.title, blocks: res.blocks };
}
