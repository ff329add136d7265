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
import { FLOWER_BASE, isFlower } from '../../engine/tiles.ts';
import { CONFIG } from '../config.ts';
import { flowerMass } from '../postprocess.ts';
import { argmax, BACK, isCompleteTileSet, lookAlikes, usableBacks, withoutFlowers } from './complete.ts';
import { inOrder, ORDER_STEPS } from './order.ts';

export interface HandCheckOptions {
  /** Whether the flowers' identities count (no two of one flower) in the check; default true.
   * With false the check leaves them to distinctFlowers, which tells them apart afterwards. */
  flowerIdentity?: boolean;
  /** Only this many of the least certain tiles may change (default handCheck.maxTiles). */
  maxTiles?: number;
  /** A guess below this probability is never taken (default handCheck.minProb). */
  minProb?: number;
  /** Largest total drop in log-probability accepted (default handCheck.maxCost). */
  maxCost?: number;
  /**
   * Detector score per tile. A face whose detector score is below `dropBelow` may be
   * left out as a false detection (a square of a checked cloth read as a blank white
   * dragon), at the cost handCheck.dropPrior + log(score / (1 - score)). Without it no tile is left out.
   */
  detScores?: readonly number[];
  /** Only tiles whose detector score is below this may be left out (default handCheck.dropBelow). */
  dropBelow?: number;
  /** Added to the cost of leaving a tile out (default handCheck.dropPrior). */
  dropPrior?: number;
  /** With detScores: a face whose detector score is not below `dropBelow` may be read as a flower only
   * when its flowers and seasons together have at least this probability (default handCheck.flowerGuessMass;
   * 0: always). */
  flowerGuessMass?: number;
  /**
   * An unread tile: a face whose first guess is below this probability (a design the classifier
   * has never seen spreads its guesses thin) may become any tile kind, even one below `minProb`,
   * when that completes the hand, at the fixed cost `unreadCost`. At most one tile per hand, or
   * one set of look-alikes: unread tiles whose probability vectors are within handCheck.twinL1 of each other
   * (L1 distance, linked in chains) are taken to show the same unseen design, so they are read
   * as one tile kind together (a pung of an unseen bird). Default 0: off.
   */
  unreadBelow?: number;
  /** Unread tiles closer than this (L1 between probability vectors) look alike (default handCheck.twinL1; 0: never). */
  twinL1?: number;
  /** Cost of reading an unread tile from the hand (default handCheck.unreadCost). */
  unreadCost?: number;
  /**
   * Tile kinds (indices into TILE_CODES) an unread tile is tried as first, in this order, before
   * the classifier's own order of the rest (default none). The pipeline passes handCheck.unreadFirst.
   */
  unreadFirst?: readonly number[];
  /**
   * Most tiles the check may change (default: no limit). When the cheapest mend that completes the
   * hand changes more, the tiles stay as read (the hand incomplete; look-alikes read as one kind in
   * a hand already complete stay as read too). The pipeline passes edge.cutHandMaxChanges when the
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
  /** Added to the cost of a mend that leaves the tiles out of order (default handCheck.orderCost). */
  orderCost?: number;
}

/** Class value of a tile the hand check leaves out. */
export const DROPPED = -1;
/** Pick value of an unread tile, read from the hand (HandCheckOptions.unreadBelow). */
const UNREAD = -2;
/** Pick value of a group of look-alike unread tiles, read from the hand as one kind. */
const UNREAD_GROUP = -3;

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

/** Pick classes for the tiles of one photo (`probs[i]` = class probabilities of tile i). */
export function checkHand(probs: readonly ArrayLike<number>[], opts: HandCheckOptions = {}): HandCheckResult {
  const maxTiles = opts.maxTiles ?? CONFIG.handCheck.maxTiles, minProb = opts.minProb ?? CONFIG.handCheck.minProb, maxCost = opts.maxCost ?? CONFIG.handCheck.maxCost;
  const first = probs.map(argmax);
  const isComplete = opts.flowerIdentity === false ? (c: readonly number[]) => isCompleteTileSet(withoutFlowers(c)) : isCompleteTileSet;
  const maxChanges = opts.maxChanges ?? Infinity;
  if (isComplete(first)) {
    const alike = readAlike(probs, first, opts, isComplete);
    return spareBacks(alike && alike.changed.length <= maxChanges ? alike : { classes: first, changed: [], complete: true, dropped: [] }, opts);
  }
  const det = opts.detScores, dropBelow = opts.dropBelow ?? CONFIG.handCheck.dropBelow, dropPrior = opts.dropPrior ?? CONFIG.handCheck.dropPrior;
  const flowerGuessMass = opts.flowerGuessMass ?? CONFIG.handCheck.flowerGuessMass;
  const unreadBelow = opts.unreadBelow ?? 0, unreadCost = opts.unreadCost ?? CONFIG.handCheck.unreadCost, unreadFirst = opts.unreadFirst ?? [];
  // Each tile's next guesses worth trying. Face-down tiles are never traded for faces or back:
  // a face-down tile beyond the kongs is left out of the hand, so turning a doubtful face into
  // `back` would dodge the check.
  // unread tiles that look alike may be read as one: the least sure of each group stands for it
  const unreadable = unreadTiles(probs, first, unreadBelow);
  const isUnread = new Set(unreadable);
  const groupOf = new Map<number, number[]>();
  for (const g of lookAlikes(probs, unreadable, opts.twinL1 ?? CONFIG.handCheck.twinL1)) if (g.length > 1) groupOf.set(g[0]!, g);
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
      if (dropCost !== undefined && first[i]! < FLOWER_BASE && k >= FLOWER_BASE) cost = Math.max(cost, dropCost + CONFIG.handCheck.flowerForDrop);
      // and a sure face is not a flower on a guess (handCheck.flowerGuessMass)
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
    if (groupOf.has(i)) next.push({ k: UNREAD_GROUP, cost: unreadCost - CONFIG.handCheck.groupPreference });
    if (dropCost !== undefined && dropCost <= maxCost) next.push({ k: DROPPED, cost: dropCost });
    return next;
  });
  // the least certain tiles that have one
  const open = probs.map((_, i) => i).filter((i) => options[i]!.length > 0)
    .sort((a, b) => probs[a]![first[a]!]! - probs[b]![first[b]!]!).slice(0, maxTiles);
  // every combination within the budget, cheapest first
  const combos: { cost: number; picks: [number, number][] }[] = [];
  const walk = (j: number, cost: number, picks: [number, number][]) => {
    if (combos.length >= CONFIG.handCheck.maxCombos) return;
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
  const orderCost = rank ? opts.orderCost ?? CONFIG.handCheck.orderCost : 0;
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
  const split = lookAlikes(probs, unread, opts.twinL1 ?? CONFIG.handCheck.twinL1).filter((g) => new Set(g.map((i) => first[i])).size > 1);
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
  const dropBelow = opts.dropBelow ?? CONFIG.handCheck.dropBelow;
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
