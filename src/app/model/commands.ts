/**
 * Corrections as pure commands: `perform(work) -> work`. The history keeps the
 * snapshots, so undo and redo need no inverse operations (the excalidraw way).
 */
import type { Wind } from '../../engine/index.ts';
import { WINDS } from '../../engine/index.ts';
import type { Box, Conditions, LeftOutItem, PhotoInfo, PlannedSet, TileItem, Work } from './work.ts';
import { defaultConditions } from './work.ts';

export interface Command {
  /** Short description for undo/redo announcements, as an i18n key plus values. */
  label: { key: string; values?: Record<string, string | number> };
  perform(work: Work): Work;
}

const cmd = (key: string, perform: (w: Work) => Work, values?: Record<string, string | number>): Command => ({
  label: values ? { key, values } : { key },
  perform,
});

/** New tiles from recognition or from the manual keyboard: a fresh start. */
export function loadTiles(
  tiles: Omit<TileItem, 'uid'>[],
  source: Work['source'],
  photo: PhotoInfo | null,
  extra?: { sets?: (w: TileItem[]) => PlannedSet[] | null; winningIndex?: number; leftOut?: LeftOutItem[] },
): Command {
  return cmd('cmd.load', (w) => {
    const items = tiles.map((t, i) => ({ ...t, uid: `t${w.nextUid + i}` }));
    const sets = extra?.sets ? extra.sets(items) : null;
    const winningUid = extra?.winningIndex !== undefined ? items[extra.winningIndex]?.uid ?? null : null;
    return {
      ...withLeftOut(w, extra?.leftOut),
      source,
      photo,
      tiles: items,
      sets,
      winningUid,
      conditions: { ...w.conditions, flowers: null },
      nextUid: w.nextUid + items.length,
    };
  }, { n: tiles.length });
}

export const setCode = (uid: string, code: string): Command =>
  cmd('cmd.setCode', (w) => ({
    ...w,
    tiles: w.tiles.map((t) => (t.uid === uid ? { ...t, code, score: undefined, flowerScore: undefined } : t)),
    sets: null,
  }), { code });

export const removeTile = (uid: string): Command =>
  cmd('cmd.remove', (w) => ({
    ...w,
    tiles: w.tiles.filter((t) => t.uid !== uid),
    sets: null,
    winningUid: w.winningUid === uid ? null : w.winningUid,
  }));

export const addTile = (code: string, box?: Box): Command =>
  cmd('cmd.add', (w) => {
    const item: TileItem = box ? { uid: `t${w.nextUid}`, code, box } : { uid: `t${w.nextUid}`, code };
    return { ...w, tiles: insertInReadingOrder(w.tiles, item), sets: null, nextUid: w.nextUid + 1 };
  }, { code });

/** Add back a detection recognition left out (Work.leftOut[index]) as a tile, in reading order. */
export const restoreLeftOut = (index: number): Command =>
  cmd('cmd.restore', (w) => {
    const item = w.leftOut?.[index];
    if (!item) return w;
    const tile: TileItem = { uid: `t${w.nextUid}`, code: item.code, box: item.box, score: item.score };
    const rest = withLeftOut(w, w.leftOut!.filter((_, i) => i !== index));
    return { ...rest, tiles: insertInReadingOrder(w.tiles, tile), sets: null, nextUid: w.nextUid + 1 };
  });

/** The work with this list of left-out detections; an empty list is no list (the field goes). */
function withLeftOut(w: Work, leftOut: LeftOutItem[] | undefined): Work {
  const { leftOut: _old, ...rest } = w;
  return leftOut?.length ? { ...rest, leftOut } : rest;
}

export const clearTiles = (): Command =>
  cmd('cmd.clear', (w) => ({ ...w, tiles: [], sets: null, winningUid: null }));

export const setSets = (sets: PlannedSet[], winningUid: string | null): Command =>
  cmd('cmd.sets', (w) => ({ ...w, sets, winningUid }));

export const setDeclared = (index: number, declared: boolean): Command =>
  cmd(declared ? 'cmd.melded' : 'cmd.concealed', (w) => {
    if (!w.sets) return w;
    const sets = w.sets.map((s, i) => (i === index ? { ...s, declared, concealedKong: declared ? s.concealedKong : false } : s));
    // The winning tile belongs to the hand, never to a set declared before the win.
    const winningUid = declared && w.winningUid && sets[index].uids.includes(w.winningUid)
      ? defaultWinning(w.tiles, sets)
      : w.winningUid;
    return { ...w, sets, winningUid };
  }, { n: index + 1 });

export const setConcealedKong = (index: number, concealedKong: boolean): Command =>
  cmd('cmd.concealedKong', (w) => {
    if (!w.sets) return w;
    const sets = w.sets.map((s, i) => (i === index ? { ...s, concealedKong, declared: true } : s));
    const winningUid = w.winningUid && sets[index].uids.includes(w.winningUid) ? defaultWinning(w.tiles, sets) : w.winningUid;
    return { ...w, sets, winningUid };
  }, { n: index + 1 });

export const setWinning = (uid: string): Command => cmd('cmd.winning', (w) => ({ ...w, winningUid: uid }));

export const setConditions = (patch: Partial<Conditions>): Command =>
  cmd('cmd.conditions', (w) => ({ ...w, conditions: normalizeConditions(w.conditions, patch) }));

export const resetConditions = (): Command =>
  cmd('cmd.conditions', (w) => ({ ...w, conditions: defaultConditions() }));

/** The player before `seat` in turn order (the one on the left, who discards to them). */
export const leftOf = (seat: Wind): Wind => WINDS[(WINDS.indexOf(seat) + 3) % 4];

/**
 * Apply a change and keep the conditions consistent. The last tap wins: turning on
 * a condition that needs a discard switches to a discard, and the other way round
 * (MCR: Robbing the Kong is a win on another player's kong, so never self-drawn;
 * Out with Replacement Tile is always self-drawn).
 */
export function normalizeConditions(prev: Conditions, patch: Partial<Conditions>): Conditions {
  const c: Conditions = { ...prev, ...patch };
  if (patch.robbingKong) { c.selfDrawn = false; c.replacementTile = false; c.flowerWallWin = false; c.firstDrawWin = false; }
  if (patch.replacementTile) { c.selfDrawn = true; c.robbingKong = false; c.firstDiscardWin = false; }
  // Card 002: a flower-wall tile and the first tile from the wall are drawn by the
  // winner; the dealer's first discard is, of course, a discard by the dealer.
  if (patch.flowerWallWin || patch.firstDrawWin) { c.selfDrawn = true; c.robbingKong = false; c.firstDiscardWin = false; }
  if (patch.firstDiscardWin) {
    c.selfDrawn = false; c.replacementTile = false; c.flowerWallWin = false; c.firstDrawWin = false;
    c.discarder = c.dealer ?? 'E';
  }
  if (patch.selfDrawn === true) { c.robbingKong = false; c.firstDiscardWin = false; }
  if (patch.selfDrawn === false) { c.replacementTile = false; c.flowerWallWin = false; c.firstDrawWin = false; }
  if (patch.discarder) c.selfDrawn = false;
  if (c.selfDrawn) {
    c.discarder = null;
  } else if (!c.discarder || c.discarder === c.seatWind) {
    c.discarder = leftOf(c.seatWind);
  }
  if (c.firstDiscardWin && (c.discarder !== (c.dealer ?? 'E') || c.seatWind === (c.dealer ?? 'E'))) c.firstDiscardWin = false;
  if (c.firstDrawWin && c.seatWind === (c.dealer ?? 'E')) c.firstDrawWin = false;
  if (c.flowers !== null) c.flowers = Math.max(0, Math.min(8, Math.round(c.flowers)));
  if (c.dealerStreak !== undefined) c.dealerStreak = Math.max(0, Math.min(99, Math.round(c.dealerStreak) || 0));
  if (c.fanValue !== undefined && !(Number.isFinite(c.fanValue) && c.fanValue > 0)) c.fanValue = prev.fanValue ?? 1;
  // The winner's own concealed kongs are in the hand, so only other seats are listed.
  if (c.secretKongs) c.secretKongs = c.secretKongs.filter((w) => w !== c.seatWind);
  return c;
}

function center(b: Box): [number, number] {
  return [b[0] + b[2] / 2, b[1] + b[3] / 2];
}

/**
 * Put a new tile where a reader would meet it: after the last tile of its row that
 * lies to its left. A tile without a box goes last.
 */
export function insertInReadingOrder(tiles: TileItem[], item: TileItem): TileItem[] {
  if (!item.box) return [...tiles, item];
  const [x, y] = center(item.box);
  let after = -1;
  let rowFound = false;
  tiles.forEach((t, i) => {
    if (!t.box) return;
    const [tx, ty] = center(t.box);
    const sameRow = Math.abs(ty - y) < Math.max(t.box[3], item.box![3]) * 0.6;
    if (sameRow) {
      rowFound = true;
      if (tx < x) after = i;
    } else if (ty < y && !rowFound) {
      after = i;
    }
  });
  if (after === -1 && rowFound) {
    const firstInRow = tiles.findIndex((t) => t.box && Math.abs(center(t.box)[1] - y) < Math.max(t.box[3], item.box![3]) * 0.6);
    return [...tiles.slice(0, firstInRow), item, ...tiles.slice(firstInRow)];
  }
  return [...tiles.slice(0, after + 1), item, ...tiles.slice(after + 1)];
}

/** The default winning tile: the last tile in reading order that is not in a declared set and not a flower. */
export function defaultWinning(tiles: TileItem[], sets: PlannedSet[] | null): string | null {
  const declared = new Set((sets ?? []).filter((s) => s.declared).flatMap((s) => s.uids));
  for (let i = tiles.length - 1; i >= 0; i--) {
    const t = tiles[i];
    if (!declared.has(t.uid) && !/^f/.test(t.code) && t.code !== 'back') return t.uid;
  }
  return null;
}

/** Undo/redo history over Work snapshots. */
export interface History {
  past: Work[];
  present: Work;
  future: Work[];
}

const LIMIT = 100;

export const historyOf = (present: Work): History => ({ past: [], present, future: [] });

export function perform(h: History, c: Command): History {
  const next = c.perform(h.present);
  if (next === h.present) return h;
  return { past: [...h.past, h.present].slice(-LIMIT), present: next, future: [] };
}

export function undo(h: History): History {
  if (h.past.length === 0) return h;
  return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1], future: [h.present, ...h.future] };
}

export function redo(h: History): History {
  if (h.future.length === 0) return h;
  return { past: [...h.past, h.present], present: h.future[0], future: h.future.slice(1) };
}
