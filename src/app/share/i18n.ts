/**
 * Strings of the share feature, under the `share.` key prefix of the default
 * namespace (one JSON file a language in ./locales). Merge with, for example:
 *   for (const [lng, res] of Object.entries(shareResources))
 *     i18n.addResourceBundle(lng, 'translation', res, true, false);
 */
import en from './locales/en.json';
import pl from './locales/pl.json';
import sv from './locales/sv.json';
import zh from './locales/zh.json';

export const shareResources = { en, pl, sv, zh };

export type ShareLanguage = keyof typeof shareResources;
