import { describe, expect, it } from 'vitest';
import { createMirror, nextStamp, type KeyValueSync } from '../../src/app/state/mirror.ts';
import { commands, createSessionStore, memoryStorage, STORAGE_KEY, type SessionStorage } from '../../src/app/session/store.ts';

function fakeLocalStorage(): KeyValueSync & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => { data.set(k, v); } };
}

const PLAYERS = ['Anders', 'Bente', 'Claus', 'Dorte'];
const win = { kind: 'win' as const, winner: 0, selfDrawn: true, discarder: null, points: 8, source: 'typed' as const, penalties: [] };

describe('localStorage mirror of the saved state', () => {
  it('stamps strictly increase', () => {
    const a = nextStamp(), b = nextStamp(), c = nextStamp();
    expect(b).toBeGreaterThan(a);
    expect(c).toBeGreaterThan(b);
  });

  it('returns the mirrored value only when it is newer than the IndexedDB copy', () => {
    const ls = fakeLocalStorage();
    const m = createMirror<{ n: number }>('k', () => ls);
    expect(m.newerThan(undefined)).toBeNull();
    m.write(100, { n: 1 });
    expect(m.newerThan(undefined)).toEqual({ n: 1 });
    expect(m.newerThan(99)).toEqual({ n: 1 });
    expect(m.newerThan(100)).toBeNull();
    expect(m.newerThan(200)).toBeNull();
  });

  it('ignores a damaged mirror and survives storage that throws', () => {
    const ls = fakeLocalStorage();
    ls.setItem('k', '{not json');
    expect(createMirror('k', () => ls).newerThan(undefined)).toBeNull();
    const throwing: KeyValueSync = { getItem: () => { throw new Error('blocked'); }, setItem: () => { throw new Error('quota'); } };
    const m = createMirror('k', () => throwing);
    expect(() => m.write(1, { n: 1 })).not.toThrow();
    expect(m.newerThan(undefined)).toBeNull();
  });

  it('a session store reloaded before its IndexedDB write finished keeps the last hand', async () => {
    const ls = fakeLocalStorage();
    const backing = memoryStorage();
    // IndexedDB writes that never finish (the page was reloaded mid-write)
    let writes = 0;
    const stalled: SessionStorage = { get: backing.get, set: () => { writes++; return new Promise<void>(() => undefined); } };
    const store = createSessionStore(stalled, undefined, createMirror(STORAGE_KEY, () => ls));
    await store.load();
    store.perform(commands.start(PLAYERS));
    store.perform(commands.add(win));
    await new Promise((r) => setTimeout(r, 0));
    expect(writes).toBeGreaterThan(0);
    expect(backing.data[STORAGE_KEY]).toBeUndefined();

    const reloaded = createSessionStore(backing, undefined, createMirror(STORAGE_KEY, () => ls));
    await reloaded.load();
    expect(reloaded.getState().record?.players).toEqual(PLAYERS);
    expect(reloaded.getState().record?.hands).toHaveLength(1);
    expect(reloaded.getState().past).toHaveLength(2);
  });

  it('an older mirror does not override a newer IndexedDB copy', async () => {
    const ls = fakeLocalStorage();
    const storage = memoryStorage();
    const first = createSessionStore(storage, undefined, createMirror(STORAGE_KEY, () => ls));
    await first.load();
    first.perform(commands.start(PLAYERS));
    await first.flushed();
    // a second tab (no mirror write here) saves a newer state to IndexedDB
    const second = createSessionStore(storage, undefined, createMirror(STORAGE_KEY, () => null));
    await second.load();
    second.perform(commands.add(win));
    await second.flushed();
    const reloaded = createSessionStore(storage, undefined, createMirror(STORAGE_KEY, () => ls));
    await reloaded.load();
    expect(reloaded.getState().record?.hands).toHaveLength(1);
  });
});
