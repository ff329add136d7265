import { describe, expect, it } from 'vitest';
import { addTile, fillIn, historyOf, insertInReadingOrder, loadTiles, perform, redo, removeTile, restoreLeftOut, setCode, setDeclared, setSets, undo } from '../../src/app/model/commands.ts';
import { emptyWork, type PlannedSet, type TileItem, type Work } from '../../src/app/model/work.ts';
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

  describe('tile corrections and the sets', () => {
    // 1m 2m 3m melded; 4-5-6m, 7-8-9m, 5p 5p, 2-3-4s concealed; a melded kong of 9p
    const codes = '1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 5p 2s 3s 4s 9p 9p 9p 9p';
    const sets: PlannedSet[] = [
      { uids: ['t1', 't2', 't3'], kind: 'chow', declared: true, concealedKong: false, claim: { from: 'left', index: 2 } },
      { uids: ['t4', 't5', 't6'], kind: 'chow', declared: false },
      { uids: ['t7', 't8', 't9'], kind: 'chow', declared: false },
      { uids: ['t10', 't11'], kind: 'pair', declared: false },
      { uids: ['t12', 't13', 't14'], kind: 'chow', declared: false },
      { uids: ['t15', 't16', 't17', 't18'], kind: 'kong', declared: true, concealedKong: false },
    ];
    const grouped = (): Work => ({
      ...emptyWork(),
      source: 'photo',
      tiles: codes.split(' ').map((code, i) => ({ uid: `t${i + 1}`, code, score: 0.97 })),
      sets,
      winningUid: 't14',
      nextUid: 19,
    });

    it('picking the code a tile already shows is no step, unless it confirms a tile marked for checking', () => {
      const h = historyOf(grouped());
      expect(perform(h, setCode('t1', '1m'))).toBe(h);
      const unsure = { ...grouped(), tiles: grouped().tiles.map((t) => (t.uid === 't5' ? { ...t, score: 0.3 } : t)) };
      const w = setCode('t5', '5m').perform(unsure);
      expect(w.tiles[4]).toEqual({ uid: 't5', code: '5m', score: undefined, flowerScore: undefined });
      expect(w.sets).toBe(unsure.sets);
      expect(w.winningUid).toBe('t14');
    });

    it('a correction keeps the sets it does not touch, marks and all, and leaves the touched tiles ungrouped', () => {
      const w = setCode('t12', '1s').perform(grouped());
      expect(w.sets).toEqual(sets.filter((s) => !s.uids.includes('t12')));
      expect(w.sets![0]).toBe(sets[0]);
      expect(w.winningUid).toBe('t14');
      // nothing grouped yet: nothing to keep
      expect(setCode('t12', '1s').perform({ ...grouped(), sets: null }).sets).toBeNull();
    });

    it('a declared set keeps its mark while the corrected tiles still make a set, without the claim', () => {
      const chow = setCode('t1', '4m').perform(grouped()).sets!;
      expect(chow[0]).toEqual({ uids: ['t1', 't2', 't3'], kind: 'chow', declared: true, concealedKong: false });
      expect(setCode('t1', '9s').perform(grouped()).sets!.some((s) => s.uids.includes('t1'))).toBe(false);
      // a kong that was a pung with one tile too many
      const pung = removeTile('t18').perform(grouped()).sets!;
      expect(pung.at(-1)).toEqual({ uids: ['t15', 't16', 't17'], kind: 'pung', declared: true, concealedKong: false });
      expect(removeTile('t14').perform(grouped())).toMatchObject({ winningUid: null, sets: sets.filter((s) => !s.uids.includes('t14')) });
    });

    it('an added tile joins no set and the sets stay as they were', () => {
      const w = addTile('6p').perform(grouped());
      expect(w.sets).toBe(sets);
      expect(w.tiles.at(-1)).toEqual({ uid: 't19', code: '6p' });
      const photo = { key: 'p1', width: 1000, height: 800, name: 'hand.jpg' };
      const withLeftOut = { ...grouped(), photo, leftOut: [{ code: '5z', box: box(900, 600), score: 0.4 }] };
      expect(restoreLeftOut(0).perform(withLeftOut).sets).toBe(sets);
    });

    it('the proposed sets are filled in without an undo step, and redo is kept', () => {
      let h = historyOf({ ...grouped(), sets: null });
      h = perform(h, addTile('6p'));
      h = undo(h);
      expect(h.future).toHaveLength(1);
      const filled = fillIn(h, setSets(sets, 't14'));
      expect(filled.past).toBe(h.past);
      expect(filled.future).toBe(h.future);
      expect(filled.present.sets).toBe(sets);
      // a player's step after it is undone back to the filled-in sets
      const marked = perform(filled, setDeclared(1, true));
      expect(undo(marked).present).toBe(filled.present);
    });
  });
});
