/** App shell: header, language switch, and the three routes (scanner, table, shared hand). */
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, LANGUAGE_NAMES, currentLang, setLanguage, type Lang } from '../i18n/index.ts';
import { Scanner } from './Scanner.tsx';
import { useActiveRuleset } from '../ruleset/active.ts';
import { useAppStore } from '../state/context.tsx';
import { isJoined } from '../event/flag.ts';
import type { EventRoute } from '../event/EventPages.tsx';

const TableSession = lazy(() => import('../session/TableSession.tsx').then((m) => ({ default: m.TableSession })));
const SharedHandView = lazy(() => import('../share/SharedHandView.tsx').then((m) => ({ default: m.SharedHandView })));
const TileSetPage = lazy(() => import('../tileset/TileSetPage.tsx').then((m) => ({ default: m.TileSetPage })));
const EventPages = lazy(() => import('../event/EventPages.tsx').then((m) => ({ default: m.EventPages })));

type Route = { name: 'scan' } | { name: 'table' } | { name: 'tileset' } | { name: 'shared'; payload: string } | { name: 'event'; event: EventRoute };

export function routeOf(hash: string): Route {
  if (hash.startsWith('#/h/')) return { name: 'shared', payload: hash.slice(4) };
  if (hash === '#/table') return { name: 'table' };
  if (hash === '#/tileset') return { name: 'tileset' };
  // club events (src/app/event): #/event, #/event/<id>, #/event/<id>/standings, #/join/<CODE>
  if (hash === '#/event' || hash === '#/event/') return { name: 'event', event: { page: 'home' } };
  const ev = /^#\/event\/([^/]+)(\/standings)?$/.exec(hash);
  if (ev) return { name: 'event', event: { page: ev[2] ? 'standings' : 'director', eventId: decodeURIComponent(ev[1]) } };
  if (hash.startsWith('#/join/')) return { name: 'event', event: { page: 'join', code: decodeURIComponent(hash.slice(7)) } };
  return { name: 'scan' };
}

function useRoute(): Route {
  const [route, setRoute] = useState(() => routeOf(location.hash));
  useEffect(() => {
    const on = () => setRoute(routeOf(location.hash));
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}

export function App({ offlineReady }: { offlineReady?: boolean }) {
  const { t } = useTranslation();
  const route = useRoute();
  const ruleset = useActiveRuleset();
  const lang = currentLang();
  useEffect(() => { document.title = t('app.title'); }, [t, lang]);
  const app = useAppStore();
  // A table joined to a club event sends its sheet from every page (a hand added from the
  // scanner too); phones that joined none never load the event code.
  useEffect(() => { if (isJoined()) void import('../event/boot.ts').then((m) => m.getEventSync(undefined, app)); }, [app]);
  const [showOffline, setShowOffline] = useState(false);
  useEffect(() => {
    if (!offlineReady) return;
    setShowOffline(true);
    const id = setTimeout(() => setShowOffline(false), 6000);
    return () => clearTimeout(id);
  }, [offlineReady]);

  return (
    <div className="app">
      <a className="skip" href="#main">{t('app.skip')}</a>
      <header className="app-header">
        <div className="brand">
          <svg viewBox="0 0 24 32" width="18" height="24" aria-hidden="true"><rect x="1" y="1" width="22" height="30" rx="4" fill="#fbf8ef" stroke="#cfc6ad" /><rect x="7" y="7" width="10" height="18" rx="1.5" fill="none" stroke="#1d4ed8" strokeWidth="2" /></svg>
          <div>
            <h1>{t('app.title')}</h1>
            {/* A shared hand names its own ruleset; this device's choice would only confuse there. */}
            {route.name !== 'shared' && <span className="subtitle" data-testid="subtitle">{t(ruleset === 'fan-pays' ? 'app.subtitleFanPays' : 'app.subtitle')}</span>}
          </div>
        </div>
        <label className="lang">
          <span className="visually-hidden">{t('lang.label')}</span>
          <select value={lang} onChange={(e) => setLanguage(e.target.value as Lang)} aria-label={t('lang.label')}>
            {LANGUAGES.map((l) => <option key={l} value={l} lang={l}>{LANGUAGE_NAMES[l]}</option>)}
          </select>
        </label>
      </header>
      <nav className="tabs" aria-label={t('nav.label')}>
        <a href="#/" aria-current={route.name === 'scan' ? 'page' : undefined}>{t('nav.scan')}</a>
        <a href="#/table" aria-current={route.name === 'table' ? 'page' : undefined}>{t('nav.table')}</a>
        <a href="#/tileset" aria-current={route.name === 'tileset' ? 'page' : undefined}>{t('nav.tileset')}</a>
        <a href="#/event" aria-current={route.name === 'event' ? 'page' : undefined}>{t('nav.event')}</a>
      </nav>
      {showOffline && <p className="offline-ready" role="status">{t('app.offline')}</p>}
      {route.name === 'scan' && <Scanner />}
      {route.name === 'table' && (
        <main id="main" tabIndex={-1} className="view"><Suspense fallback={<p>…</p>}><TableSession /></Suspense></main>
      )}
      {route.name === 'tileset' && (
        <main id="main" tabIndex={-1} className="view"><Suspense fallback={<p>…</p>}><TileSetPage /></Suspense></main>
      )}
      {route.name === 'event' && (
        <main id="main" tabIndex={-1} className="view"><Suspense fallback={<p>…</p>}><EventPages route={route.event} /></Suspense></main>
      )}
      {route.name === 'shared' && (
        <main id="main" tabIndex={-1} className="view"><Suspense fallback={<p>…</p>}><SharedHandView payload={route.payload} /></Suspense></main>
      )}
    </div>
  );
}
