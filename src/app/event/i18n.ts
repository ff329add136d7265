/**
 * Strings of the club event pages and the table's event panel, under the `event.` key prefix of
 * the default namespace (one JSON file a language in ./locales), added when they load.
 */
import type { i18n as I18n, TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import en from './locales/en.json';
import pl from './locales/pl.json';
import sv from './locales/sv.json';
import zh from './locales/zh.json';
import { isEventError } from './api.ts';

export const eventResources = { en, pl, sv, zh };

const added = new WeakSet<I18n>();
/** Merge the event strings into an i18next instance (once). */
export function addEventStrings(i18n: I18n): void {
  if (added.has(i18n)) return;
  added.add(i18n);
  for (const [lng, bundle] of Object.entries(eventResources)) i18n.addResourceBundle(lng, 'translation', bundle, true, false);
}

/** useTranslation with the event strings merged into the instance in use. */
export function useEventT(): ReturnType<typeof useTranslation> {
  const r = useTranslation();
  addEventStrings(r.i18n);
  return r;
}

/** An error of the event pages in the player's language (the server's own words for a refusal). */
export function eventErrorMessage(t: TFunction, e: unknown): string {
  if (!isEventError(e)) return t('event.error.BAD_REPLY', { message: e instanceof Error ? e.message : String(e) });
  if (e.serverCode === 'UNSENT_CHANGES') return t('event.error.UNSENT_CHANGES', { message: e.message });
  return t(`event.error.${e.code}`, { message: e.message });
}
