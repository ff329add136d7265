import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { sessionResources } from '../../src/app/session/i18n.ts';
import { shareResources } from '../../src/app/share/i18n.ts';

/** An i18next instance with only the session and share strings, as the app merges them. */
export function testI18n(lng = 'en'): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng,
    fallbackLng: 'en',
    initAsync: false,
    interpolation: { escapeValue: false },
    resources: Object.fromEntries(['en', 'pl', 'sv', 'zh'].map((l) => [l, {
      translation: { ...sessionResources[l as 'en'], ...shareResources[l as 'en'] },
    }])),
  });
  return instance;
}
