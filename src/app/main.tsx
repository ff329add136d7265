import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './shell/App.tsx';
import { initI18n } from './i18n/index.ts';
import { shareResources } from './share/i18n.ts';
import { sessionResources } from './session/i18n.ts';
import { StoreProvider } from './state/context.tsx';
import { createStore, initialState, loadPersisted, persistOnChange, prunePhotos } from './state/store.ts';
import { resumeTeaching } from './tileset/teach.ts';
import './styles.css';

const i18n = initI18n();
for (const res of [shareResources, sessionResources]) {
  for (const [lng, bundle] of Object.entries(res)) i18n.addResourceBundle(lng, 'translation', bundle, true, false);
}

async function boot() {
  const saved = await loadPersisted();
  const persist = persistOnChange(() => undefined);
  const store = createStore(saved ? { ...initialState(), history: saved.history, step: saved.step } : initialState(), persist.onChange);
  addEventListener('pagehide', () => void persist.flush());
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') void persist.flush(); });
  (window as unknown as { __mjStore?: unknown }).__mjStore = store;
  // photos left behind by a reload in the middle of a scan, or by hands started over long ago
  void prunePhotos(store.get().history);
  // confirmed hands a closed or reloaded app had not yet taught the tile set (tileset/teach.ts)
  void resumeTeaching();

  const root = createRoot(document.getElementById('root')!);
  const render = (offlineReady: boolean) => root.render(
    <StrictMode>
      <StoreProvider store={store}>
        <App offlineReady={offlineReady} />
      </StoreProvider>
    </StrictMode>,
  );
  render(false);

  if ('serviceWorker' in navigator && import.meta.env.PROD) {
    const { registerSW } = await import('virtual:pwa-register');
    registerSW({ immediate: true, onOfflineReady: () => render(true) });
  }
}

void boot();
