/**
 * The hand check: a photo of a finished hand shows a complete hand, so the tile
 * list must make one. When the classifier's first guesses do not (a 5m read as 3m
 * leaves a broken chow; two tiles both read as the orchid), the cheapest change
 * among the uncertain tiles' next guesses that completes the hand is taken.
 *
 * "Complete" is decided by the rules, not learned:
 *  - at most four of a tile, at most one of each flower;
 *  - face-down tiles (`back`) are the hidden half of a concealed kong (two, with
 *    its two face-up tiles among the faces) or a whole kong (four); others are
 *    taken to be outside the hand (the wall, a neighbour's tiles);
 *  - MCR: four sets and a pair (a kong is a set of four), or seven pairs,
 *    thirteen orphans, honours and knitted tiles, or a knitted straight with a set
 *    and a pair;
 *  - 16-tile hands ("Fan Pays"): five sets and a pair, or seven pairs and a pung.
 *
 * Nothing changes when the first guesses already make a hand, or when no change
 * within the cost budget does (a tile was missed, the photo shows only part of
 * the hand, or it is not a finished hand): then the scan is returned as read.
 * The cost of a change is the drop in log-probability, summed over changed tiles.
 */
import { allPairsPung, honorsKnittedPattern, isKnittedComplete, isSevenPairs, isStandardComplete, isThirteenOrphans } from '../engine/decompose.ts';
import { ALL_TILES, FLOWER_BASE, isFlower, TILE_KINDS } from '../engine/tiles.ts';
import { flowerMass } from './postprocess.ts';
import { TILE_CODES } from './types.ts';

// TILE_CODES follows the engine's tile ids (0..33 kinds, 34..41 flowers), then `back`.
const BACK = TILE_CODES.indexOf('back');

/**
 * True when the classes (indices into TILE_CODES, one per tile seen) can be the
 * tiles of a finished MCR hand or a finished 16-tile hand.
 */
export function isCompleteTileSet(classes: readonly number[]): boolean {
  return completeBacks(classes, true) >= 0;
}

/** The classes without the flowers and seasons, which take no part in the hand's shape. */
const withoutFlowers = (classes: readonly number[]): number[] => classes.filter((k) => !isFlower(k));

/**
 * How many of the face-down tiles a complete hand can take as concealed kongs (the most over the
 * ways it completes), or -1 when the classes do not make a complete hand. The rest are spare:
 * not part of the hand.
 */
export function usableBacks(classes: readonly number[]): number {
  return completeBacks(classes, false);
}

function completeBacks(classes: readonly number[], firstOnly: boolean): number {
  const c = new Uint8Array(TILE_KINDS);
  const flowers = new Uint8Array(ALL_TILES - FLOWER_BASE);
  let backs = 0, faces = 0;
  for (const k of classes) {
    if (k === BACK) backs++;
    else if (k >= FLOWER_BASE) { if (++flowers[k - FLOWER_BASE]! > 1) return -1; }
    else { if (++c[k]! > 4) return -1; faces++; }
  }
  let best = -1;
  for (const sets of [4, 5]) {
    // q kongs shown all face down, h kongs with two face-down tiles, the rest face up;
    // face-down tiles left over are not part of the hand (the wall, a neighbour's tiles)
    for (let q = 0; 4 * q <= backs; q++) {
      for (let h = 0; 4 * q + 2 * h <= backs; h++) {
        const kongs = faces + 2 * h + 4 * q - (3 * sets + 2);
        if (kongs < 0 || kongs > sets) continue;
        const open = kongs - q - h;
        if (open < 0) continue;
        if (4 * q + 2 * h > best && pickKongs(c, 0, h, open, sets - kongs, sets === 4 && kongs === 0)) {
          best = 4 * q + 2 * h;
          if (firstOnly) return best;
        }
      }
    }
  }
  return best;
}

/** Take `half` kongs (2 faces each) and `open` kongs (4 faces each) from distinct kinds, then test the rest. */
function pickKongs(c: Uint8Array, from: number, half: number, open: number, setsLeft: number, special: boolean): boolean {
  if (half === 0 && open === 0) return restComplete(c, setsLeft, special);
  for (let t = from; t < TILE_KINDS; t++) {
    const n = c[t]!;
    if (half > 0 && n >= 2) {
      c[t] = n - 2;
      const ok = pickKongs(c, t + 1, half - 1, open, setsLeft, special);
      c[t] = n;
      if (ok) return true;
    }
    if (open > 0 && n === 4) {
      c[t] = 0;
      const ok = pickKongs(c, t + 1, half, open - 1, setsLeft, special);
      c[t] = n;
      if (ok) return true;
    }
  }
  return false;
}

function restComplete(c: Uint8Array, setsLeft: number, special: boolean): boolean {
  if (isStandardComplete(c, setsLeft)) return true;
  if (setsLeft >= 3 && setsLeft <= 4 && isKnittedComplete(c, setsLeft)) return true;
  if (special && (isSevenPairs(c) || isThirteenOrphans(c) || honorsKnittedPattern(c) >= 0)) return true;
  if (setsLeft === 5 && allPairsPung(c) >= 0) return true;
  return false;
}

export interface HandCheckOptions {
  /** Whether the flowers' identities count (no two of one flower) in the check; default true.
   * With false the check leaves them to distinctFlowers, which tells them apart afterwards. */
  flowerIdentity?: boolean;
  /** Only this many of the least certain tiles may change (default 8). */
  maxTiles?: number;
  /** A guess below this probability is never taken (default 0.02). */
  minProb?: number;
  /** Largest total drop in log-probability accepted (default 6: about 400 times less likely). */
  maxCost?: number;
  /**
   * Detector score per tile. A face whose detector score is below `dropBelow` may be
   * left out as a false detection (a square of a checked cloth read as a blank white
   * dragon), at the cost DROP_PRIOR + log(score / (1 - score)). Without it no tile is left out.
   */
  detScores?: readonly number[];
  /** Only tiles whose detector score is below this may be left out (default DROP_BELOW). */
  dropBelow?: number;
  /** Added to the cost of leaving a tile out (default DROP_PRIOR). */
  dropPrior?: number;
  /** With detScores: a face whose detector score is not below `dropBelow` may be read as a flower only
   * when its flowers and seasons together have at least this probability (default FLOWER_GUESS_MASS;
   * 0: always). */
  flowerGuessMass?: number;
  /**
   * An unread tile: a face whose first guess is below this probability (a design the classifier
   * has never seen spreads its guesses thin) may become any tile kind, even one below `minProb`,
   * when that completes the hand, at the fixed cost `unreadCost`. At most one tile per hand, or
   * one set of look-alikes: unread tiles whose probability vectors are within TWIN_L1 of each other
   * (L1 distance, linked in chains) are taken to show the same unseen design, so they are read
   * as one tile kind together (a pung of an unseen bird). Default 0: off.
   */
  unreadBelow?: number;
  /** Unread tiles closer than this (L1 between probability vectors) look alike (default TWIN_L1; 0: never). */
  twinL1?: number;
  /** Cost of reading an unread tile from the hand (default UNREAD_COST). */
  unreadCost?: number;
  /**
   * Tile kinds (indices into TILE_CODES) an unread tile is tried as first, in this order, before
   * the classifier's own order of the rest (default none). The pipeline passes UNREAD_FIRST.
   */
  unreadFirst?: readonly number[];
  /**
   * Most tiles the check may change (default: no limit). When the cheapest mend that completes the
   * hand changes more, the tiles stay as read (the hand incomplete; look-alikes read as one kind in
   * a hand already complete stay as read too). The pipeline passes CUT_HAND_MAX_CHANGES when the
   * photo's edge cuts a tile, as part of the hand may lie outside the photo.
   */
  maxChanges?: number;
  /**
   * When the hand is complete and shows more face-down tiles than its concealed kongs can take,
   * leave out the spare ones whose detector score (`detScores`) is below `dropBelow`, least sure
   * first (a square of a checked cloth taken for a tile's back). Default false.
   */
  dropSpareBacks?: boolean;
  /**
   * With dropSpareBacks: which tiles may be left out as spare face-down tiles (default all). The
   * pipeline allows only face-down tiles with no other one beside them: the generator and real
   * tables show spare face-down tiles (the wall) in rows.
   */
  spareBackOk?: readonly boolean[];
  /**
   * Each tile's place in reading order (any increasing numbers; the pipeline passes layoutTiles'
   * order). Players lay a finished hand out sorted, or set by set, so that read in order its tiles
   * (flowers aside, face-down tiles standing for any kind) run up or down, or fall into contiguous
   * sets with at most one tile left over (`inOrder`). With it, the check also tries, for each
   * tile it may change, the kinds that would continue its neighbours' run or set, and among the
   * mends that complete the hand it takes the cheapest with `orderCost` added to those that leave
   * the tiles out of order, when some mend keeps them in order. Default: none (order not used).
   */
  order?: readonly number[];
  /**
   * Per tile: it lies sideways beside other tiles, as the claimed tile of a meld does. Flowers are
   * never claimed, so the check does not read such a tile, read as a tile kind, as a flower.
   */
  claimed?: readonly boolean[];
  /** Added to the cost of a mend that leaves the tiles out of order (default ORDER_COST). */
  orderCost?: number;
}

/**
 * The order rule's price (HandCheckOptions.orderCost): a mend that puts the tiles out of order must
 * be this much cheaper (in log-probability) than one that keeps them in order to be taken.
 */
export const ORDER_COST = 1;

/** Detector score below which a face may be left out by the hand check. */
export const DROP_BELOW = 0.6;
/**
 * Prior cost of leaving a doubtful detection out: on val-holdout more than half of the
 * detections scoring below DROP_BELOW are real tiles, so a drop must buy a complete hand.
 */
export const DROP_PRIOR = 0.7;
/** Class value of a tile the hand check leaves out. */
export const DROPPED = -1;
/** Pick value of an unread tile, read from the hand (HandCheckOptions.unreadBelow). */
const UNREAD = -2;
/** Pick value of a group of look-alike unread tiles, read from the hand as one kind. */
const UNREAD_GROUP = -3;
/**
 * The pipeline's unreadBelow and the default unreadCost, chosen on val-holdout (see
 * model/PIPELINE.md): the held-out bird 1s, which the classifier has never seen, gets first
 * guesses of 0.2-0.65 spread over East, Red and the flowers, and the 1 of bamboo below 0.02.
 * 0.55 since stop 60 (0.5 before): val-holdout scene 047's bird, read as East at 0.517 in a
 * thirteen-orphans hand, is read from the hand; no other held-out set loses a hand. At 0.7 a 5m
 * read at 0.58 in a hand short of a tile was read as the tile it lacked (val-holdout-xl 910).
 */
export const UNREAD_BELOW = 0.55;
export const UNREAD_COST = 2.5;
/**
 * The pipeline's unreadFirst: the 1 of bamboo. It is the one suited tile drawn as a picture (a
 * bird: sparrow, peacock, crane, phoenix), different in every set, while the other kinds are
 * numerals, characters and pips the classifier reads in sets it has never seen. When a tile it
 * cannot read completes the hand as the bird or as another kind, the bird is the likelier. On
 * val-holdout it changed one scene (049: a pung of the held-out bird, read as East before) and
 * no scene of the other held-out sets (see model/PIPELINE.md).
 */
export const UNREAD_FIRST: readonly number[] = [TILE_CODES.indexOf('1s')];
/**
 * Unread tiles whose probability vectors are closer than this (L1) look alike: read together as
 * one kind. On val-holdout, pairs of unread tiles of the same kind were 0.30-1.04 apart, of
 * different kinds at least 1.17.
 */
export const TWIN_L1 = 0.9;
/** Added to the cost of leaving a doubtful face out for reading it as a flower instead (a tie-break). */
const FLOWER_FOR_DROP = 0.01;
/**
 * A face the detector is sure of (not to be left out) is read as a flower only when the classifier
 * gives the flowers and seasons together at least this much: a flower taken for a tile keeps some
 * flower mass, while renaming a suit tile a flower on a 1-3 % guess would leave it out of a hand
 * that lacks tiles in all but name (embed-holdout 295: a 5m cut by the photo's edge, read at 0.7,
 * became the winter).
 */
export const FLOWER_GUESS_MASS = 0.1;
/** Taken off the unread cost for a group of look-alikes (a tie-break, not a discount). */
const GROUP_PREFERENCE = 0.01;

/** Two tiles look alike: their probability vectors are closer than `maxL1` (L1). */
function lookAlike(p: ArrayLike<number>, q: ArrayLike<number>, maxL1: number): boolean {
  let d = 0;
  for (let k = 0; k < p.length && d < maxL1; k++) d += Math.abs(p[k]! - q[k]!);
  return d < maxL1;
}

/** Groups (index lists, least sure first) of the tiles in `idx` whose probability vectors are
 * within `maxL1` of each other, linked in chains. */
export function lookAlikes(probs: readonly ArrayLike<number>[], idx: readonly number[], maxL1 = TWIN_L1): number[][] {
  const root = idx.map((_, j) => j);
  const find = (j: number): number => (root[j] === j ? j : (root[j] = find(root[j]!)));
  for (let a = 0; a < idx.length; a++) {
    for (let b = a + 1; b < idx.length; b++) {
      if (lookAlike(probs[idx[a]!]!, probs[idx[b]!]!, maxL1)) root[find(a)] = find(b);
    }
  }
  const groups = new Map<number, number[]>();
  idx.forEach((i, j) => { const r = find(j); groups.set(r, [...(groups.get(r) ?? []), i]); });
  const top = (i: number) => Math.max(...Array.from(probs[i]!));
  return [...groups.values()].map((g) => g.sort((a, b) => top(a) - top(b)));
}

export interface HandCheckResult {
  /** Chosen class per tile. */
  classes: number[];
  /** Indices of the tiles whose class differs from the first guess. */
  changed: number[];
  /** True when the chosen classes make a complete hand (false: the first guesses, unchanged). */
  complete: boolean;
  /** Indices of the tiles left out as false detections (their class is DROPPED); only with `detScores`. */
  dropped: number[];
}

const MAX_COMBOS = 20000;

/** Pick classes for the tiles of one photo (`probs[i]` = class probabilities of tile i). */
export function checkHand(probs: readonly ArrayLike<number>[], opts: HandCheckOptions = {}): HandCheckResult {
  const maxTiles = opts.maxTiles ?? 8, minProb = opts.minProb ?? 0.02, maxCost = opts.maxCost ?? 6;
  const first = probs.map(argmax);
  const isComplete = opts.flowerIdentity === false ? (c: readonly number[]) => isCompleteTileSet(withoutFlowers(c)) : isCompleteTileSet;
  const maxChanges = opts.maxChanges ?? Infinity;
  if (isComplete(first)) {
    const alike = readAlike(probs, first, opts, isComplete);
    return spareBacks(alike && alike.changed.length <= maxChanges ? alike : { classes: first, changed: [], complete: true, dropped: [] }, opts);
  }
  const det = opts.detScores, dropBelow = opts.dropBelow ?? DROP_BELOW, dropPrior = opts.dropPrior ?? DROP_PRIOR;
  const flowerGuessMass = opts.flowerGuessMass ?? FLOWER_GUESS_MASS;
  const unreadBelow = opts.unreadBelow ?? 0, unreadCost = opts.unreadCost ?? UNREAD_COST, unreadFirst = opts.unreadFirst ?? [];
  // Each tile's next guesses worth trying. Face-down tiles are never traded for faces or back:
  // a face-down tile beyond the kongs is left out of the hand, so turning a doubtful face into
  // `back` would dodge the check.
  // unread tiles that look alike may be read as one: the least sure of each group stands for it
  const unreadable = unreadTiles(probs, first, unreadBelow);
  const isUnread = new Set(unreadable);
  const groupOf = new Map<number, number[]>();
  for (const g of lookAlikes(probs, unreadable, opts.twinL1 ?? TWIN_L1)) if (g.length > 1) groupOf.set(g[0]!, g);
  // reading order: each tile's neighbours among the tile kinds (flowers aside) and the kinds that
  // would continue their run or set (ORDER_STEPS)
  const rank = opts.order;
  // (a face read as a flower among them, which may be a tile kind, has them too)
  const inSeq = rank ? probs.map((_, i) => i).sort((a, b) => rank[a]! - rank[b]!) : [];
  const isKind = (j: number) => first[j]! < FLOWER_BASE;
  const orderKinds = (i: number): number[] => {
    const at = inSeq.indexOf(i);
    if (at < 0) return [];
    let l = at - 1, r = at + 1;
    while (l >= 0 && !isKind(inSeq[l]!)) l--;
    while (r < inSeq.length && !isKind(inSeq[r]!)) r++;
    const ks = new Set<number>();
    for (const j of [inSeq[l], inSeq[r]]) {
      if (j === undefined) continue;
      const n = first[j]!;
      for (const d of ORDER_STEPS) {
        const k = n + d;
        if (d === 0 || (n < 27 && k >= 0 && Math.floor(k / 9) === Math.floor(n / 9))) ks.add(k);
      }
    }
    return [...ks];
  };
  const options = probs.map((p, i) => {
    const top = p[first[i]!]!;
    const alts: { k: number; cost: number }[] = [];
    if (first[i] === BACK) return alts;
    const d = det?.[i];
    const dropCost = d !== undefined && d < dropBelow ? Math.max(0, dropPrior + Math.log(Math.max(d, 1e-6) / (1 - Math.min(d, 1 - 1e-6)))) : undefined;
    const flowers = flowerMass(p, FLOWER_BASE);
    for (let k = 0; k < p.length; k++) {
      if (k === first[i] || k === BACK || p[k]! < minProb) continue;
      let cost = Math.log(top) - Math.log(p[k]!);
      // a flower takes no part in the hand, so reading a doubtful face as one leaves it out in
      // all but name: it costs at least as much as leaving it out, which wins the tie
      if (dropCost !== undefined && first[i]! < FLOWER_BASE && k >= FLOWER_BASE) cost = Math.max(cost, dropCost + FLOWER_FOR_DROP);
      // and a sure face is not a flower on a guess (FLOWER_GUESS_MASS)
      if (d !== undefined && dropCost === undefined && first[i]! < FLOWER_BASE && k >= FLOWER_BASE && flowers < flowerGuessMass) continue;
      // a claimed tile (lying sideways in a meld) is no flower: flowers are not claimed
      if (opts.claimed?.[i] && first[i]! < FLOWER_BASE && k >= FLOWER_BASE) continue;
      if (cost <= maxCost) alts.push({ k, cost });
    }
    alts.sort((a, b) => a.cost - b.cost);
    // which flower a flower is does not change the hand: without flowerIdentity only tile kinds are tried
    const next = (opts.flowerIdentity === false && isFlower(first[i]!) ? alts.filter((a) => !isFlower(a.k)) : alts).slice(0, 2);
    // a face read as a flower takes part in the hand only as the tile it may be: its likeliest tile
    // kind is a next guess too, though other flowers come before it (a pair of held-out North
    // winds read as the spring, the autumn next, and the North only third)
    if (isFlower(first[i]!) && !next.some((a) => !isFlower(a.k))) {
      const tile = alts.find((a) => !isFlower(a.k));
      if (tile) next.push(tile);
    }
    // the kinds its reading-order neighbours' run or set asks for, when the classifier allows them
    // (an unread tile may be any kind already: its look-alikes and the bird come first)
    for (const k of isUnread.has(i) ? [] : orderKinds(i)) {
      const q = p[k]!;
      if (q < minProb || k === first[i] || next.some((a) => a.k === k)) continue;
      const cost = Math.log(top) - Math.log(q);
      if (cost <= maxCost) next.push({ k, cost });
    }
    if (isUnread.has(i)) next.push({ k: UNREAD, cost: unreadCost });
    // a touch cheaper than one of them alone: look-alikes are read alike when both complete the hand
    if (groupOf.has(i)) next.push({ k: UNREAD_GROUP, cost: unreadCost - GROUP_PREFERENCE });
    if (dropCost !== undefined && dropCost <= maxCost) next.push({ k: DROPPED, cost: dropCost });
    return next;
  });
  // the least certain tiles that have one
  const open = probs.map((_, i) => i).filter((i) => options[i]!.length > 0)
    .sort((a, b) => probs[a]![first[a]!]! - probs[b]![first[b]!]!).slice(0, maxTiles);
  // every combination within the budget, cheapest first
  const combos: { cost: number; picks: [number, number][] }[] = [];
  const walk = (j: number, cost: number, picks: [number, number][]) => {
    if (combos.length >= MAX_COMBOS) return;
    if (j === open.length) {
      if (picks.length) combos.push({ cost, picks: [...picks] });
      return;
    }
    walk(j + 1, cost, picks);
    for (const o of options[open[j]!]!) {
      if (cost + o.cost > maxCost) continue;
      if ((o.k === UNREAD || o.k === UNREAD_GROUP) && picks.some(([, k]) => k === UNREAD || k === UNREAD_GROUP)) continue;
      picks.push([open[j]!, o.k]);
      walk(j + 1, cost + o.cost, picks);
      picks.pop();
    }
  };
  walk(0, 0, []);
  combos.sort((a, b) => a.cost - b.cost);
  const trial = [...first];
  // an unread group's candidate kinds, likeliest first by the members' summed probabilities
  // (sorted once per group, not per combination); a lone tile's first guess is not a candidate
  const kindsOf = new Map<string, number[]>();
  const unreadKinds = (g: number[]) => {
    const key = g.join(',');
    let ks = kindsOf.get(key);
    if (!ks) {
      ks = unreadKindOrder(probs, g, unreadFirst).filter((k) => g.length > 1 || k !== first[g[0]!]);
      kindsOf.set(key, ks);
    }
    return ks;
  };
  const completes = () => isComplete(trial.some((k) => k === DROPPED) ? trial.filter((k) => k !== DROPPED) : trial);
  // with the reading order: the cheapest mend, counting orderCost for one out of order (see `order`)
  const orderCost = rank ? opts.orderCost ?? ORDER_COST : 0;
  let best: { cost: number; result: HandCheckResult } | null = null;
  for (const combo of combos) {
    if (best && combo.cost >= best.cost) break;
    for (const [i, k] of combo.picks) trial[i] = k;
    const pick = combo.picks.find(([, k]) => k === UNREAD || k === UNREAD_GROUP);
    const group = pick === undefined ? [] : pick[1] === UNREAD ? [pick[0]] : groupOf.get(pick[0])!;
    let ok = false;
    if (pick === undefined) ok = completes();
    // a group is read as one kind: not while another pick changes one of its members
    else if (!combo.picks.some(([i]) => i !== pick[0] && group.includes(i))) {
      // the most likely tile kind (by the classifier's own split) that completes the hand; with the
      // reading order, the first that also keeps the tiles in order, if one does
      let firstFit = -1;
      for (const k of unreadKinds(group)) {
        for (const i of group) trial[i] = k;
        if (!completes()) continue;
        if (firstFit < 0) firstFit = k;
        if (!orderCost || inOrder(trial, rank!)) { ok = true; break; }
      }
      if (!ok && firstFit >= 0) {
        for (const i of group) trial[i] = firstFit;
        ok = true;
      }
    }
    if (ok) {
      const touched = [...new Set([...combo.picks.map(([i]) => i), ...group])].sort((a, b) => a - b);
      const changed = touched.filter((i) => trial[i] !== DROPPED && trial[i] !== first[i]);
      if (changed.length > maxChanges) break;
      const cost = combo.cost + (orderCost && !inOrder(trial, rank!) ? orderCost : 0);
      if (!best || cost < best.cost) best = { cost, result: { classes: [...trial], changed, complete: true, dropped: touched.filter((i) => trial[i] === DROPPED) } };
      if (!orderCost) break;
    }
    for (const i of group) trial[i] = first[i]!;
    for (const [i] of combo.picks) trial[i] = first[i]!;
  }
  if (best) return spareBacks(best.result, opts);
  return { classes: first, changed: [], complete: false, dropped: [] };
}

/**
 * The order rule for a hand the check could not complete (a tile missed, or the photo shows part of
 * the hand): when the tiles, read in the order of `rank`, are out of order (`inOrder`) and reading
 * one tile kind as another kind at most `orderCost` less likely (in log-probability) puts them in
 * order, the cheapest such change. `classes` are the tiles as read so far; flowers and face-down
 * tiles are not changed. Returns the moves (none, or one).
 */
export function orderMend(probs: readonly ArrayLike<number>[], classes: readonly number[], rank: readonly number[], orderCost = ORDER_COST): { index: number; k: number }[] {
  if (inOrder(classes, rank)) return [];
  const trial = [...classes];
  let best = { index: -1, k: -1, cost: Infinity };
  for (let i = 0; i < classes.length; i++) {
    const k0 = classes[i]!, p = probs[i]!;
    if (k0 < 0 || k0 >= FLOWER_BASE) continue;
    for (let k = 0; k < FLOWER_BASE; k++) {
      if (k === k0 || !(p[k]! > 0)) continue;
      const cost = Math.log(p[k0]!) - Math.log(p[k]!);
      if (cost > orderCost || cost >= best.cost) continue;
      trial[i] = k;
      if (inOrder(trial, rank)) best = { index: i, k, cost };
      trial[i] = k0;
    }
  }
  return best.index >= 0 ? [{ index: best.index, k: best.k }] : [];
}

/** The steps from a neighbour's kind that the order rule tries (same suit): its pung or pair, its chow. */
const ORDER_STEPS = [-2, -1, 0, 1, 2];

/**
 * Whether tiles (classes, one per tile; DROPPED and flowers aside) read in the order of `rank` are
 * in the order players lay a hand out: running up or down (sorted), or falling into contiguous
 * sets (pairs, pungs, kongs, chows) with at most one tile left over (a lone winning tile), the
 * chows all running up or all down (a hand seen from across the table reads backwards). A
 * face-down tile stands for any kind in a pung or kong (BACK is no suit, so never in a chow), and
 * two or four of them make one.
 */
export function inOrder(classes: readonly number[], rank: readonly number[]): boolean {
  const seq = classes.map((k, i) => [k, rank[i]!] as const).filter(([k]) => k >= 0 && (k < FLOWER_BASE || k === BACK)).sort((a, b) => a[1] - b[1]).map(([k]) => k);
  const faces = seq.filter((k) => k !== BACK);
  if (faces.every((k, j) => j === 0 || k >= faces[j - 1]!) || faces.every((k, j) => j === 0 || k <= faces[j - 1]!)) return true;
  const n = seq.length;
  const alike = (g: readonly number[]) => {
    const f = g.filter((k) => k !== BACK);
    return f.length === 0 ? g.length === 2 || g.length === 4 : f.every((k) => k === f[0]);
  };
  // chows all run one way: the hand is laid out left to right, or seen from across the table
  const parses = (step: 1 | -1): boolean => {
    const chow = (a: number, b: number, c: number) => a < 27 && b === a + step && c === b + step && Math.floor(a / 9) === Math.floor(c / 9);
    const memo = new Map<number, boolean>();
    const from = (i: number, spare: number): boolean => {
      if (i === n) return true;
      const key = i * 2 + spare;
      const hit = memo.get(key);
      if (hit !== undefined) return hit;
      let ok = false;
      for (const len of [2, 3, 4]) {
        if (i + len > n) break;
        const g = seq.slice(i, i + len);
        if ((alike(g) || (len === 3 && chow(g[0]!, g[1]!, g[2]!))) && from(i + len, spare)) { ok = true; break; }
      }
      if (!ok && spare > 0) ok = from(i + 1, spare - 1);
      memo.set(key, ok);
      return ok;
    };
    return from(0, 1);
  };
  return parses(1) || parses(-1);
}

/** The tiles read as a tile kind (not a flower, not face-down) with a first guess below `unreadBelow`. */
function unreadTiles(probs: readonly ArrayLike<number>[], first: readonly number[], unreadBelow: number): number[] {
  return probs.map((_, i) => i).filter((i) => probs[i]![first[i]!]! < unreadBelow && first[i]! < FLOWER_BASE);
}

/** The tile kinds (not flowers, not face-down) an unread tile or group may be read as: those of
 * `unreadFirst` first, in its order, then the likeliest by the members' summed probabilities. */
function unreadKindOrder(probs: readonly ArrayLike<number>[], g: readonly number[], unreadFirst: readonly number[]): number[] {
  const w = Array.from({ length: FLOWER_BASE }, (_, k) => g.reduce((s, j) => s + probs[j]![k]!, 0));
  const pri = (k: number) => { const j = unreadFirst.indexOf(k); return j < 0 ? unreadFirst.length : j; };
  return Array.from({ length: FLOWER_BASE }, (_, k) => k).sort((a, b) => pri(a) - pri(b) || w[b]! - w[a]!);
}

/**
 * A complete hand in which look-alike unread tiles (below `unreadBelow`, within `twinL1` of each
 * other: one unseen design, so one kind) are read as different kinds: two held-out birds of
 * thirteen orphans read one as the bamboo 1 and one as the Green dragon make a hand with a pair of
 * Green dragons. Each such group is read as one kind, the bird or one of the kinds its members are
 * read as, the first in the unread order (the bird first, then the members' summed probabilities)
 * with which the hand is still complete; null when there is no such group or no kind keeps the
 * hand complete.
 */
function readAlike(probs: readonly ArrayLike<number>[], first: readonly number[], opts: HandCheckOptions, isComplete: (c: readonly number[]) => boolean): HandCheckResult | null {
  const unreadBelow = opts.unreadBelow ?? 0, unreadFirst = opts.unreadFirst ?? [];
  const unread = unreadTiles(probs, first, unreadBelow);
  const split = lookAlikes(probs, unread, opts.twinL1 ?? TWIN_L1).filter((g) => new Set(g.map((i) => first[i])).size > 1);
  if (!split.length) return null;
  const trial = [...first];
  for (const g of split) {
    // one of the kinds they are read as, or the bird: not any kind that happens to complete the hand
    for (const k of unreadKindOrder(probs, g, unreadFirst).filter((k) => unreadFirst.includes(k) || g.some((i) => first[i] === k))) {
      for (const i of g) trial[i] = k;
      if (isComplete(trial)) break;
      for (const i of g) trial[i] = first[i]!;
    }
  }
  const changed = trial.flatMap((k, i) => (k !== first[i] ? [i] : []));
  return changed.length ? { classes: trial, changed, complete: true, dropped: [] } : null;
}

/** HandCheckOptions.dropSpareBacks on a complete result. */
function spareBacks(r: HandCheckResult, opts: HandCheckOptions): HandCheckResult {
  const det = opts.detScores;
  if (!opts.dropSpareBacks || !det) return r;
  const backs = r.classes.flatMap((k, i) => (k === BACK ? [i] : []));
  if (!backs.length) return r;
  // flowers take no part in the kongs (and with flowerIdentity false, two may still share a name)
  const spare = backs.length - usableBacks(withoutFlowers(r.classes.filter((k) => k !== DROPPED)));
  const dropBelow = opts.dropBelow ?? DROP_BELOW;
  const out = backs.filter((i) => det[i]! < dropBelow && (opts.spareBackOk?.[i] ?? true)).sort((a, b) => det[a]! - det[b]!).slice(0, spare);
  if (!out.length) return r;
  const classes = r.classes.map((k, i) => (out.includes(i) ? DROPPED : k));
  return { ...r, classes, dropped: [...r.dropped, ...out].sort((a, b) => a - b) };
}

export interface StrayCheckResult extends HandCheckResult {
  /** Indices (into the input) of the tiles kept; `classes` and `changed` refer to this list,
   * `dropped` to the input (the tiles the check left out as false detections). */
  kept: number[];
}

/**
 * The hand check over detections some of which are doubtful strays (`stray[i]`,
 * from strayDetections: out of scale with the hand or apart from it). The strays
 * are left out, unless the hand is complete only with them; when it is complete
 * neither way (a tile was missed, a misread beyond the budget), they are kept, so
 * that a real tile is never dropped on a guess.
 */
export function checkHandWithStrays(probs: readonly ArrayLike<number>[], stray: readonly boolean[], opts: HandCheckOptions = {}): StrayCheckResult {
  const all = probs.map((_, i) => i);
  const sure = all.filter((i) => !stray[i]);
  const run = (idx: number[]): StrayCheckResult => {
    // the per-tile options follow the tiles into the subset
    const sub = <T>(v?: readonly T[]) => v && idx.map((i) => v[i]!);
    const hc = checkHand(idx.map((i) => probs[i]!), { ...opts, detScores: sub(opts.detScores), spareBackOk: sub(opts.spareBackOk), order: sub(opts.order), claimed: sub(opts.claimed) });
    if (!hc.dropped.length) return { ...hc, kept: idx };
    // renumber: the dropped tiles leave the list
    const keep = idx.map((_, j) => j).filter((j) => hc.classes[j] !== DROPPED);
    const pos = new Map(keep.map((j, n) => [j, n]));
    return { classes: keep.map((j) => hc.classes[j]!), changed: hc.changed.map((j) => pos.get(j)!), complete: hc.complete, dropped: hc.dropped.map((j) => idx[j]!), kept: keep.map((j) => idx[j]!) };
  };
  if (sure.length < all.length) {
    const hc = run(sure);
    if (hc.complete) return hc;
  }
  return run(all);
}

function argmax(p: ArrayLike<number>): number {
  let b = 0;
  for (let k = 1; k < p.length; k++) if (p[k]! > p[b]!) b = k;
  return b;
}

/** A tile of a bird pung (birdPungs) is read as an honour below this probability... */
export const BIRD_PUNG_TOP = 0.45;
/** ...while giving the 1 of bamboo at least this. */
export const BIRD_PUNG_BIRD = 0.005;

/**
 * Which tiles to read as the 1 of bamboo: every tile of a set of three or four read as the same
 * honour (not the white dragon), when each of them is read so (`classes`) below BIRD_PUNG_TOP,
 * gives the bamboo 1 at least BIRD_PUNG_BIRD, and gives the honours and the bamboo 1 together
 * more than the flowers. The honours' characters are read surely in every design the
 * classifier has seen, but the bird is drawn differently in every set (UNREAD_FIRST), and a pung
 * of a bird it has never seen is read as a pung of whatever honour it resembles, which makes a
 * hand as well (see model/HISTORY.md, stop 35). The classes may come from the hand check (a tile it
 * read as that honour to complete the pung); a hand that was complete (`complete`) must stay so,
 * and no kind may exceed four tiles.
 */
export function birdPungs(probs: readonly ArrayLike<number>[], classes: readonly number[], complete: boolean): number[] {
  const bird = UNREAD_FIRST[0]!;
  const honour0 = TILE_CODES.indexOf('1z'), honour7 = TILE_CODES.indexOf('7z'), white = TILE_CODES.indexOf('5z');
  const byKind = new Map<number, number[]>();
  classes.forEach((k, i) => {
    // not the white dragon: blank, framed or lettered, it differs between sets as the bird does
    if (k >= honour0 && k <= honour7 && k !== white) byKind.set(k, [...(byKind.get(k) ?? []), i]);
  });
  // the doubt lies among the honours and the bird, not on the flowers (a picture read as a flower)
  const birdLike = (p: ArrayLike<number>) => {
    let honours = p[bird]!;
    for (let k = honour0; k <= honour7; k++) honours += p[k]!;
    return honours > flowerMass(p, FLOWER_BASE);
  };
  let trial = [...classes];
  const out: number[] = [];
  for (const idx of byKind.values()) {
    if (idx.length < 3) continue;
    if (!idx.every((i) => probs[i]![classes[i]!]! < BIRD_PUNG_TOP && probs[i]![bird]! >= BIRD_PUNG_BIRD && birdLike(probs[i]!))) continue;
    const next = trial.map((k, i) => (idx.includes(i) ? bird : k));
    // the flowers are left out: which is which is settled afterwards (distinctFlowers)
    if (next.filter((k) => k === bird).length > 4 || (complete && !isCompleteTileSet(withoutFlowers(next)))) continue;
    trial = next;
    out.push(...idx);
  }
  return out.sort((a, b) => a - b);
}

/**
 * One of each flower: a set has a single plum, orchid, ..., winter, so the tiles read as flowers
 * or seasons (`classes`, indices into TILE_CODES) are given distinct ones, the assignment that is
 * likeliest by their probabilities (the sum of log-probabilities, over the eight flower classes
 * only). Nothing changes when the readings are already distinct; otherwise a tile that was not a
 * duplicate may move as well, when that makes room for a likelier reading of another. The hand
 * check asks the same of a hand it has to mend, but only among its few least sure tiles' next
 * guesses, and not at all when it finds nothing to mend or too much (a hand of unseen birds and
 * flowers). More than eight flower readings cannot all be distinct: then nothing changes. Returns
 * the indices whose class changes and their new classes.
 */
export function distinctFlowers(probs: readonly ArrayLike<number>[], classes: readonly number[]): { index: number; k: number }[] {
  const N = ALL_TILES - FLOWER_BASE;
  const idx = classes.flatMap((k, i) => (isFlower(k) ? [i] : []));
  if (idx.length < 2 || idx.length > N) return [];
  if (new Set(idx.map((i) => classes[i])).size === idx.length) return [];
  const lp = idx.map((i) => Array.from({ length: N }, (_, f) => Math.log(Math.max(probs[i]![FLOWER_BASE + f]!, 1e-9))));
  // best[j][mask]: the best total for tiles j.. given the flowers in mask already taken
  const memo = new Map<number, number>();
  const best = (j: number, mask: number): number => {
    if (j === idx.length) return 0;
    const key = j * 512 + mask;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    let b = -Infinity;
    for (let f = 0; f < N; f++) if (!(mask & (1 << f))) b = Math.max(b, lp[j]![f]! + best(j + 1, mask | (1 << f)));
    memo.set(key, b);
    return b;
  };
  const out: { index: number; k: number }[] = [];
  let mask = 0;
  for (let j = 0; j < idx.length; j++) {
    const target = best(j, mask);
    // the first flower (by the tile's own order of likelihood) on a best path
    const order = Array.from({ length: N }, (_, f) => f).filter((f) => !(mask & (1 << f))).sort((a, b) => lp[j]![b]! - lp[j]![a]!);
    const f = order.find((g) => Math.abs(lp[j]![g]! + best(j + 1, mask | (1 << g)) - target) < 1e-9)!;
    mask |= 1 << f;
    if (FLOWER_BASE + f !== classes[idx[j]!]) out.push({ index: idx[j]!, k: FLOWER_BASE + f });
  }
  return out;
}

/** A set has four tiles of each kind... */
export const KIND_MAX = 4;
/** ...and eight flowers and seasons, one of each. */
const FLOWER_KINDS = ALL_TILES - FLOWER_BASE;

/**
 * Four of a kind at most: a set has four tiles of each kind, so when more tiles than that are read
 * as one kind, the least sure of them (by their probability of that kind) are read again, each as
 * the likeliest kind with room left whose probability is at least `minProb`, until four are left.
 * A tile the classifier cannot read (first guess below UNREAD_BELOW) goes to the bird first
 * (UNREAD_FIRST, when its probability is at least BIRD_PUNG_BIRD): the one tile every set draws in
 * its own way, so a set's bird that the classifier has never seen is read as some honour, as many
 * times as the set has birds. A tile read again as the bird takes with it, while the bird has room,
 * the other unread tiles that look like it (`twinL1`, as lookAlikes): the set's other birds, read
 * as whatever kind they resemble. Tiles with nowhere to go stay as read. A set has eight flowers
 * and seasons as well: beyond eight read so, the least flower-like (by the flower classes' total)
 * are read again first, in the same way, as tile kinds; which flower is which is left to
 * distinctFlowers, afterwards. Face-down tiles are not counted. Returns the indices whose class
 * changes and their new classes, in the order they were moved.
 */
export function atMostFour(probs: readonly ArrayLike<number>[], classes: readonly number[], opts: { minProb?: number; twinL1?: number } = {}): { index: number; k: number }[] {
  const minProb = opts.minProb ?? 0.02, twinL1 = opts.twinL1 ?? TWIN_L1;
  const bird = UNREAD_FIRST[0]!;
  const cls = [...classes];
  const count = new Array<number>(TILE_KINDS).fill(0);
  for (const k of cls) if (k >= 0 && k < TILE_KINDS) count[k]!++;
  const flowers = cls.flatMap((k, i) => (isFlower(k) ? [i] : []));
  if (count.every((n) => n <= KIND_MAX) && flowers.length <= FLOWER_KINDS) return [];
  const unread = (i: number) => probs[i]![classes[i]!]! < UNREAD_BELOW;
  const moved = new Set<number>();
  const out: { index: number; k: number }[] = [];
  const move = (i: number, k: number) => {
    if (cls[i]! < TILE_KINDS) count[cls[i]!]!--;
    count[k]!++;
    cls[i] = k;
    moved.add(i);
    out.push({ index: i, k });
  };
  const destination = (i: number): number => {
    const p = probs[i]!;
    if (unread(i) && cls[i] !== bird && count[bird]! < KIND_MAX && p[bird]! >= BIRD_PUNG_BIRD) return bird;
    let best = -1;
    for (let k = 0; k < TILE_KINDS; k++) {
      if (k !== cls[i] && count[k]! < KIND_MAX && p[k]! >= minProb && (best < 0 || p[k]! > p[best]!)) best = k;
    }
    return best;
  };
  // beyond eight flowers, the least flower-like first
  const flowerLike = (i: number) => flowerMass(probs[i]!, FLOWER_BASE);
  for (const i of flowers.sort((a, b) => flowerLike(a) - flowerLike(b)).slice(0, Math.max(0, flowers.length - FLOWER_KINDS))) {
    const to = destination(i);
    if (to >= 0) move(i, to);
  }
  for (let k = 0; k < TILE_KINDS; k++) {
    while (count[k]! > KIND_MAX) {
      const read = cls.flatMap((c, i) => (c === k && !moved.has(i) ? [i] : [])).sort((a, b) => probs[a]![k]! - probs[b]![k]!);
      const i = read.find((j) => destination(j) >= 0);
      if (i === undefined) break;
      const to = destination(i);
      move(i, to);
      if (to !== bird) continue;
      // the set's other birds, read as some kind they resemble
      for (let j = 0; j < cls.length && count[bird]! < KIND_MAX; j++) {
        const c = cls[j]!;
        if (j === i || moved.has(j) || c === bird || c >= TILE_KINDS || c < 0 || !unread(j) || !lookAlike(probs[i]!, probs[j]!, twinL1) || probs[j]![bird]! < BIRD_PUNG_BIRD) continue;
        move(j, bird);
      }
    }
  }
  return out;
}
