/**
 * Strings of the "Your tile set" page, under the `tileset.` key prefix of the default namespace
 * (one JSON file a language in ./locales), added when the page loads.
 */
import en from './locales/en.json';
import pl from './locales/pl.json';
import sv from './locales/sv.json';
import zh from './locales/zh.json';

export const tilesetResources = { en, pl, sv, zh };
