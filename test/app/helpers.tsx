import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { initI18n, setLanguage } from '../../src/app/i18n/index.ts';
import { StoreProvider } from '../../src/app/state/context.tsx';
import { createStore, initialState } from '../../src/app/state/store.ts';
import { historyOf } from '../../src/app/model/commands.ts';
import { emptyWork, type Conditions, type PlannedSet, type TileItem, type Work } from '../../src/app/model/work.ts';

initI18n('en');

export function lang(l: 'en' | 'pl' | 'sv' | 'zh') {
  setLanguage(l);
}

/** Tiles from a space-separated list of codes, uids t1.. */
export function tiles(codes: string): TileItem[] {
  return codes.split(/\s+/).filter(Boolean).map((code, i) => ({ uid: `t${i + 1}`, code }));
}

export function work(over: Omit<Partial<Work>, 'conditions'> & { codes?: string; conditions?: Partial<Conditions>; sets?: PlannedSet[] | null } = {}): Work {
  const base = emptyWork();
  const ts = over.codes ? tiles(over.codes) : over.tiles ?? [];
  return {
    ...base,
    source: 'manual',
    ...over,
    tiles: ts,
    conditions: { ...base.conditions, ...over.conditions },
    nextUid: ts.length + 1,
  };
}

export function mount(ui: ReactElement, w: Work, step: 'review' | 'sets' | 'conditions' | 'result' = 'review') {
  const store = createStore({ ...initialState(), history: historyOf(w), step });
  const r = render(<StoreProvider store={store}>{ui}</StoreProvider>);
  return { store, ...r, present: () => store.get().history.present };
}
