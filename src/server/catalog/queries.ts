// The catalogue's reads: the public settings, the companies, the fleet and the known addresses (SPEC 7).
import type { Queryable } from '../db/index';
import { PAGE_TEXT_SETTINGS } from '../../domain/sitePages';
import { SERVER_ONLY_SETTINGS } from '../../domain/settings';

/**
 * Every setting a browser may read: not the pages' long texts (served with their pages, not to every first visit),
 * nor those only the server reads (the office's inbox).
 */
export const publicSettings = (db: Queryable) =>
  db.query('SELECT setting_name, setting_value FROM settings WHERE setting_name <> ALL($1) ORDER BY setting_name',
    [[...PAGE_TEXT_SETTINGS, ...SERVER_ONLY_SETTINGS]]);

export const activeCompanies = (db: Queryable) =>
  db.query<{ id: number; company_name: string }>('SELECT id, company_name FROM companies WHERE active ORDER BY company_name');

export const vehicleTypes = (db: Queryable) =>
  db.query(`SELECT id AS tbms_vid, image AS vehicle_img, category_name, seats, hand_luggage, luggage
              FROM vehicle_types ORDER BY sort_order, id`);

export const knownAddresses = (db: Queryable) => db.query('SELECT id, address FROM addresses ORDER BY address');
