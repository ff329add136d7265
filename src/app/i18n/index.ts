/**
 * i18next set up for the four languages of the rule documents. The language is
 * picked from the browser, can be switched, and the choice is remembered.
 */
import i18next, { type TFunction } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './locales/en.json';
import pl from './locales/pl.json';
import sv from './locales/sv.json';
import zh from './locales/zh.json';

export const LANGUAGES = ['en', 'pl', 'sv', 'zh'] as const;
export type Lang = (typeof LANGUAGES)[number];
export const LANGUAGE_NAMES: Record<Lang, string> = { en: 'English', pl: 'Polski', sv: 'Svenska', zh: '中文' };

const STORAGE_KEY = 'mj.lang';

/** A locale's keys, every string value typed as a string. */
type Shape<T> = { [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };
export type Strings = Shape<typeof en>;
/** True when A and B have the same keys at every level (neither lacks one of the other's). */
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only while every locale file has exactly the English keys. */
export const localesMatch: [SameKeys<Shape<typeof pl>, Strings>, SameKeys<Shape<typeof sv>, Strings>, SameKeys<Shape<typeof zh>, Strings>] = [true, true, true];

export function detectLanguage(preferred: readonly string[] = typeof navigator !== 'undefined' ? navigator.languages ?? [navigator.language] : []): Lang {
  try {
    const saved = typeof localStorage !== 'undefined' ? localStorage.getItem(STORAGE_KEY) : null;
    if (saved && (LANGUAGES as readonly string[]).includes(saved)) return saved as Lang;
  } catch { /* storage may be blocked; fall back to the browser languages */ }
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if ((LANGUAGES as readonly string[]).includes(base)) return base as Lang;
  }
  return 'en';
}

export function initI18n(lang: Lang = detectLanguage()): typeof i18next {
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({
      resources: { en: { translation: en }, pl: { translation: pl }, sv: { translation: sv }, zh: { translation: zh } },
      lng: lang,
      fallbackLng: 'en',
      interpolation: { escapeValue: false },
      returnNull: false,
      initAsync: false,
    });
  }
  if (typeof document !== 'undefined') document.documentElement.lang = i18next.language;
  return i18next;
}

export function setLanguage(lang: Lang): void {
  void i18next.changeLanguage(lang);
  try { localStorage.setItem(STORAGE_KEY, lang); } catch { /* not remembered, still switched */ }
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}

export function currentLang(): Lang {
  const l = (i18next.language ?? 'en').split('-')[0];
  return (LANGUAGES as readonly string[]).includes(l) ? (l as Lang) : 'en';
}

const CN = ['', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

/** The tile's name in the current language: the text alternative for every tile picture. */
export function tileName(t: TFunction, code: string): string {
  const suit = code[1];
  if (/^[1-9][mps]$/.test(code)) return t(`tile.${suit}`, { n: Number(code[0]), cn: CN[Number(code[0])] });
  return t(`tile.${code}`, { defaultValue: code });
}
