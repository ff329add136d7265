/**
 * The order rule: players lay a finished hand out sorted, or set by set, so that read in order its
 * tiles run up or down, or fall into contiguous sets (inOrder); a hand that cannot be completed is
 * put in order by one cheap change (orderMend).
 */
import { FLOWER_BASE } from '../../engine/tiles.ts';
import { CONFIG } from '../config.ts';
import { BACK } from './complete.ts';

/**
 * The order rule for a hand the check could not complete (a tile missed, or the photo shows part of
 * the hand): when the tiles, read in the order of `rank`, are out of order (`inOrder`) and reading
 * one tile kind as another kind at most `orderCost` less likely (in log-probability) puts them in
 * order, the cheapest such change. `classes` are the tiles as read so far; flowers and face-down
 * tiles are not changed. Returns the moves (none, or one).
 */
export function orderMend(probs: readonly ArrayLike<number>[], classes: readonly number[], rank: readonly number[], orderCost = CONFIG.handCheck.orderCost): { index: number; k: number }[] {
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
export const ORDER_STEPS = [-2, -1, 0, 1, 2];

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
