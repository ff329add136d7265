import { describe, expect, it } from 'vitest';
import { addTile, historyOf, insertInReadingOrder, loadTiles, perform, redo, removeTile, restoreLeftOut, setCode, undo } from '../../src/app/model/commands.ts';
import { emptyWork, type TileItem } from '../../src/app/model/work.ts';
import { createStore, initialState } from '../../src/app/state/store.ts';

const box = (x: number, y: number): [number, number, number, number] => [x, y, 50, 70];

describe('commands', () => {
  it('are pure: perform never mutates the state it is given', () => {
    const w0 = { ...emptyWork(), tiles: [{ uid: 't1', code: '1m' }], nextUid: 2 };
    const frozen = JSON.stringify(w0);
    const w1 = setCode('t1', '2m').perform(w0);
    const w2 = addTile('3m').perform(w1);
    const w3 = removeTile('t1').perform(w2);
    expect(JSON.stringify(w0)).toBe(frozen);
    expect(w3.tiles.map((t) => t.code)).toEqual(['3m']);
  });

  it('a tile the player sets is no longer recognition\'s: its scores go, so it is not marked for checking', () => {
    const w0 = { ...emptyWork(), tiles: [{ uid: 't1', code: 'f2', score: 0.45, flowerScore: 0.95, alternatives: ['f3'] }], nextUid: 2 };
    const t = setCode('t1', 'f3').perform(w0).tiles[0]!;
    expect([t.code, t.score, t.flowerScore]).toEqual(['f3', undefined, undefined]);
    expect(t.alternatives).toEqual(['f3']);
  });

  it('undo and redo walk the snapshots; a new command clears redo', () => {
    let h = historyOf(emptyWork());
    h = perform(h, addTile('1m'));
    h = perform(h, addTile('2m'));
    h = undo(h);
    expect(h.present.tiles.map((t) => t.code)).toEqual(['1m']);
    h = redo(h);
    expect(h.present.tiles.map((t) => t.code)).toEqual(['1m', '2m']);
    h = undo(h);
    h = perform(h, addTile('9p'));
    expect(h.future).toEqual([]);
    expect(redo(h)).toBe(h);
  });

  it('keeps the detections recognition left out, and adds one back in reading order (undoable)', () => {
    const photo = { key: 'p1', width: 1000, height: 800, name: 'hand.jpg' };
    const scanned = [{ code: '1m', box: box(0, 0) }, { code: '3m', box: box(120, 0) }];
    const leftOut = [{ code: '5z', box: box(900, 600), score: 0.4 }, { code: '2m', box: box(60, 0), score: 0.5 }];
    let h = perform(historyOf(emptyWork()), loadTiles(scanned, 'photo', photo, { leftOut }));
    expect(h.present.leftOut).toEqual(leftOut);
    h = perform(h, restoreLeftOut(1));
    expect(h.present.tiles.map((t) => t.code)).toEqual(['1m', '2m', '3m']);
    expect(h.present.tiles[1]).toMatchObject({ code: '2m', box: box(60, 0), score: 0.5 });
    expect(h.present.leftOut).toEqual([leftOut[0]]);
    expect(new Set(h.present.tiles.map((t) => t.uid)).size).toBe(3);
    h = perform(h, restoreLeftOut(0));
    expect(h.present.leftOut).toBeUndefined();
    expect(h.present.tiles.at(-1)!.code).toBe('5z');
    expect(restoreLeftOut(0).perform(h.present)).toBe(h.present); // nothing left to add back
    h = undo(undo(h));
    expect(h.present.leftOut).toEqual(leftOut);
    // a new scan or a typed hand brings its own list (or none)
    h = perform(h, loadTiles([{ code: '9p' }], 'manual', null));
    expect(h.present.leftOut).toBeUndefined();
  });

  it('inserts an added tile in reading order by its box', () => {
    const tiles: TileItem[] = [
      { uid: 'a', code: '1m', box: box(0, 0) }, { uid: 'b', code: '2m', box: box(60, 0) },
      { uid: 'c', code: '3m', box: box(0, 100) }, { uid: 'd', code: '4m', box: box(120, 100) },
    ];
    const order = (t: TileItem[]) => t.map((x) => x.uid).join('');
    expect(order(insertInReadingOrder(tiles, { uid: 'x', code: '5m', box: box(60, 98) }))).toBe('abcxd');
    expect(order(insertInReadingOrder(tiles, { uid: 'x', code: '5m', box: box(120, 2) }))).toBe('abxcd');
    expect(order(insertInReadingOrder(tiles, { uid: 'x', code: '5m', box: box(-40, 100) }))).toBe('abxcd');
    expect(order(insertInReadingOrder(tiles, { uid: 'x', code: '5m' }))).toBe('abcdx');
  });

  it('the store notifies on change and keeps the step outside the undo history', () => {
    const seen: string[] = [];
    const store = createStore(initialState(), (s) => seen.push(s.step));
    store.run(addTile('1m'));
    store.goto('review');
    store.undo();
    expect(store.get().step).toBe('review');
    expect(store.get().history.present.tiles).toEqual([]);
    expect(seen).toEqual(['capture', 'review', 'review']);
  });
});
