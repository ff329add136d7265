/**
 * The set's rules, applied after the hand check: a pung read doubtfully as an honour is the set's
 * bird (birdPungs), a set has four of each tile and eight flowers and seasons (atMostFour), and one
 * of each flower (distinctFlowers).
 */
import { ALL_TILES, FLOWER_BASE, isFlower, TILE_KINDS } from '../../engine/tiles.ts';
import { CONFIG } from '../config.ts';
import { flowerMass } from '../postprocess.ts';
import { TILE_CODES } from '../types.ts';
import { isCompleteTileSet, lookAlike, withoutFlowers } from './complete.ts';

/**
 * Which tiles to read as the 1 of bamboo: every tile of a set of three or four read as the same
 * honour (not the white dragon), when each of them is read so (`classes`) below handCheck.birdPungTop,
 * gives the bamboo 1 at least handCheck.birdPungBird, and gives the honours and the bamboo 1 together
 * more than the flowers. The honours' characters are read surely in every design the
 * classifier has seen, but the bird is drawn differently in every set (handCheck.unreadFirst), and a pung
 * of a bird it has never seen is read as a pung of whatever honour it resembles, which makes a
 * hand as well (see model/HISTORY.md, stop 35). The classes may come from the hand check (a tile it
 * read as that honour to complete the pung); a hand that was complete (`complete`) must stay so,
 * and no kind may exceed four tiles.
 */
export function birdPungs(probs: readonly ArrayLike<number>[], classes: readonly number[], complete: boolean): number[] {
  const bird = CONFIG.handCheck.unreadFirst[0]!;
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
    if (!idx.every((i) => probs[i]![classes[i]!]! < CONFIG.handCheck.birdPungTop && probs[i]![bird]! >= CONFIG.handCheck.birdPungBird && birdLike(probs[i]!))) continue;
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
 * A tile the classifier cannot read (first guess below handCheck.unreadBelow) goes to the bird first
 * (handCheck.unreadFirst, when its probability is at least handCheck.birdPungBird): the one tile every set draws in
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
  const minProb = opts.minProb ?? CONFIG.handCheck.minProb, twinL1 = opts.twinL1 ?? CONFIG.handCheck.twinL1;
  const bird = CONFIG.handCheck.unreadFirst[0]!;
  const cls = [...classes];
  const count = new Array<number>(TILE_KINDS).fill(0);
  for (const k of cls) if (k >= 0 && k < TILE_KINDS) count[k]!++;
  const flowers = cls.flatMap((k, i) => (isFlower(k) ? [i] : []));
  if (count.every((n) => n <= KIND_MAX) && flowers.length <= FLOWER_KINDS) return [];
  const unread = (i: number) => probs[i]![classes[i]!]! < CONFIG.handCheck.unreadBelow;
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
    if (unread(i) && cls[i] !== bird && count[bird]! < KIND_MAX && p[bird]! >= CONFIG.handCheck.birdPungBird) return bird;
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
        if (j === i || moved.has(j) || c === bird || c >= TILE_KINDS || c < 0 || !unread(j) || !lookAlike(probs[i]!, probs[j]!, twinL1) || probs[j]![bird]! < CONFIG.handCheck.birdPungBird) continue;
        move(j, bird);
      }
    }
  }
  return out;
}
