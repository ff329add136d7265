/**
 * Corrections as pure commands: `perform(work) -> work`. The history keeps the
 * snapshots, so undo and redo need no inverse operations (the excalidraw way).
 */
import type { Wind } from '../../engine/index.ts';
import { WINDS } from '../../engine/index.ts';
import { needsCheck } from '../../vision/types.ts';
import type { Box, Conditions, LeftOutItem, PhotoInfo, PlannedSet, TileItem, Work } from './work.ts';
import { defaultConditions, defaultWinning } from './work.ts';
import { kindOf } from './hand.ts';


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
  extra?: {
    /** The sets of the loaded tiles (`loaded` is the work as loaded, its sets still null). */
    sets?: (items: TileItem[], loaded: Work) => PlannedSet[] | null;
    winningIndex?: number;
    leftOut?: LeftOutItem[];
  },
): Command {
  return cmd('cmd.load', (w) => {
    const items = tiles.map((t, i) => ({ ...t, uid: `t${w.nextUid + i}` }));
    const winningUid = extra?.winningIndex !== undefined ? items[extra.winningIndex]?.uid ?? null : null;
    const loaded: Work = {
      ...withLeftOut(w, extra?.leftOut),
      source,
      photo,
      tiles: items,
      sets: null,
      winningUid,
      conditions: { ...w.conditions, flowers: null },
      nextUid: w.nextUid + items.length,
    };
    return extra?.sets ? { ...loaded, sets: extra.sets(items, loaded) } : loaded;
  }, { n: tiles.length });
}

/**
 * The player's sets once the tiles have changed. A set without the touched tile
 * stays as it was, marks and all. A declared set with it keeps its mark while its
 * tiles still make a chow, pung or kong (its claim, which may name the old tile,
 * goes); any other set with it goes, and its tiles wait ungrouped until the Sets
 * screen proposes sets for them (proposeSets keeps the declared sets). Null stays
 * null: nothing has been grouped yet.
 */
function keepSets(sets: PlannedSet[] | null, tiles: TileItem[], touched: string): PlannedSet[] | null {
  if (!sets) return null;
  const byUid = new Map(tiles.map((t) => [t.uid, t]));
  const kept: PlannedSet[] = [];
  for (const s of sets) {
    if (!s.uids.includes(touched)) {
      kept.push(s);
      continue;
    }
    if (!s.declared) continue;
    const its = s.uids.map((u) => byUid.get(u)).filter((t): t is TileItem => !!t);
    const kind = kindOf(its);
    if (kind !== 'chow' && kind !== 'pung' && kind !== 'kong') continue;
    const { claim: _claim, ...rest } = s;
    kept.push({ ...rest, uids: its.map((t) => t.uid), kind, concealedKong: kind === 'kong' && !!s.concealedKong });
  }
  return kept;
}

/**
 * Set a tile's code. Picking the code the tile already shows changes nothing (no
 * undo step), except that it confirms a tile marked for checking: recognition's
 * scores go, the sets stay.
 */
export const setCode = (uid: string, code: string): Command =>
  cmd('cmd.setCode', (w) => {
    const old = w.tiles.find((t) => t.uid === uid);
    if (!old) return w;
    if (old.code === code && !needsCheck(old.score)) return w;
    const tiles = w.tiles.map((t) => (t.uid === uid ? { ...t, code, score: undefined, flowerScore: undefined } : t));
    return { ...w, tiles, sets: old.code === code ? w.sets : keepSets(w.sets, tiles, uid) };
  }, { code });

export const removeTile = (uid: string): Command =>
  cmd('cmd.remove', (w) => {
    const tiles = w.tiles.filter((t) => t.uid !== uid);
    return {
      ...w,
      tiles,
      sets: keepSets(w.sets, tiles, uid),
      winningUid: w.winningUid === uid ? null : w.winningUid,
    };
  });

export const addTile = (code: string, box?: Box): Command =>
  cmd('cmd.add', (w) => {
    const item: TileItem = box ? { uid: `t${w.nextUid}`, code, box } : { uid: `t${w.nextUid}`, code };
    // The sets stay as they are; the new tile waits ungrouped for the Sets screen.
    return { ...w, tiles: insertInReadingOrder(w.tiles, item), nextUid: w.nextUid + 1 };
  }, { code });

/** Add back a detection recognition left out (Work.leftOut[index]) as a tile, in reading order. */
export const restoreLeftOut = (index: number): Command =>
  cmd('cmd.restore', (w) => {
    const item = w.leftOut?.[index];
    if (!item) return w;
    const tile: TileItem = { uid: `t${w.nextUid}`, code: item.code, box: item.box, score: item.score };
    const rest = withLeftOut(w, w.leftOut!.filter((_, i) => i !== index));
    return { ...rest, tiles: insertInReadingOrder(w.tiles, tile), nextUid: w.nextUid + 1 };
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

/**
 * Fill in what the app derives for the player, such as the proposed sets, in the
 * present snapshot: no undo step, and redo is kept. Undo then walks only the
 * player's own steps; a snapshot it lands on that lacks the derived part gets it
 * filled in again, the same way.
 */
export function fillIn(h: History, c: Command): History {
  const next = c.perform(h.present);
  return next === h.present ? h : { ...h, present: next };
}

export function undo(h: History): History {
  if (h.past.length === 0) return h;
  return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1], future: [h.present, ...h.future] };
}

export function redo(h: History): History {
  if (h.future.length === 0) return h;
  return { past: [...h.past, h.present], present: h.future[0], future: h.future.slice(1) };
}
