/**
 * Fans made by combining sets: chow combinations (double, short straight,
 * terminal chows, triple/shifted/straight, quadruple) and pung combinations
 * (double/triple pung, shifted pungs).
 *
 * The five counting principles of rules 004 decide which combinations count:
 *  - non-repeat / higher-value: a fan implied by a counted one is not counted
 *    (the exclusion table, applied to the candidate set);
 *  - non-separation + account-once ("Wyłączności"): once sets are combined into a
 *    fan, each remaining set may be combined only once with sets already used.
 *    Formally the chosen combinations form a forest over the sets: every new
 *    combination brings in at least one set not used before, and shares at most
 *    one connected group with the rest (no cycles);
 *  - non-identical: the same fan is not counted twice from sets that are
 *    identical (e.g. 123m 123m 456m: one Short Straight, not two).
 *
 * The best choice is found by trying every subset of candidate combinations,
 * memoised per multiset of sets (there are few distinct ones), so the hot path
 * costs a Map lookup.
 */
import { FANS } from './fans.ts';

export interface ComboPick {
  /** fan id -> count */
  counted: Map<number, number>;
  /** the same, flattened as [id, count, id, count, ...] for the hot path */
  flat: number[];
  /** fan ids shown by the sets but not counted (account-once or excluded by a counted combination) */
  dropped: { id: number; count: number; reason: 'account-once' | 'excluded'; byFan?: number }[];
}

interface Candidate { id: number; members: number[]; sig: string }

const suit = (t: number) => Math.floor(t / 9);
const rank = (t: number) => (t % 9) + 1;

function chowCandidates(chows: number[], pair: number): Candidate[] {
  const n = chows.length;
  const out: Candidate[] = [];
  const sigOf = (idx: number[]) => idx.map((i) => chows[i]).sort((a, b) => a! - b!).join(',');
  const add = (id: number, members: number[]) => out.push({ id, members, sig: sigOf(members) });
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) {
    const a = chows[i]!, b = chows[j]!;
    const lo = Math.min(a, b), hi = Math.max(a, b);
    if (suit(a) === suit(b)) {
      if (a === b) add(69, [i, j]);
      if (hi - lo === 3) add(71, [i, j]);
      if (rank(lo) === 1 && rank(hi) === 7) add(72, [i, j]);
    } else if (rank(a) === rank(b)) add(70, [i, j]);
  }
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) for (let k = j + 1; k < n; k++) {
    const t = [chows[i]!, chows[j]!, chows[k]!].sort((x, y) => x - y) as [number, number, number];
    const s = t.map(suit), r = t.map(rank);
    const m = [i, j, k];
    if (s[0] === s[1] && s[1] === s[2]) {
      if (t[0] === t[1] && t[1] === t[2]) add(23, m);
      if (r[0] === 1 && r[1] === 4 && r[2] === 7) add(28, m);
      const d = t[1] - t[0];
      if ((d === 1 || d === 2) && t[2] - t[1] === d) add(30, m);
    } else if (s[0] !== s[1] && s[1] !== s[2] && s[0] !== s[2]) {
      const rs = [...r].sort((x, y) => x - y);
      if (rs[0] === rs[1] && rs[1] === rs[2]) add(41, m);
      if (rs[0] === 1 && rs[1] === 4 && rs[2] === 7) add(39, m);
      if (rs[1] === rs[0] + 1 && rs[2] === rs[1] + 1) add(50, m);
    }
  }
  if (n === 4) {
    const t = [...chows].sort((x, y) => x - y);
    const m = [0, 1, 2, 3];
    const s0 = suit(t[0]!);
    if (t.every((x) => suit(x) === s0)) {
      if (t[0] === t[3]) add(14, m);
      const d = t[1]! - t[0]!;
      if ((d === 1 || d === 2) && t[2]! - t[1]! === d && t[3]! - t[2]! === d) add(16, m);
      if (rank(t[0]!) === 1 && t[1] === t[0] && rank(t[2]!) === 7 && t[3] === t[2] && pair === s0 * 9 + 4) add(13, m);
    }
    // Three-Suited Terminal Chows: 123+789 in two suits, a pair of 5s in the third.
    if (pair >= 0 && pair < 27 && rank(pair) === 5) {
      const ps = suit(pair);
      const others = [0, 1, 2].filter((x) => x !== ps);
      const want = others.flatMap((su) => [su * 9, su * 9 + 6]).sort((x, y) => x - y);
      if (want.every((w, i) => t[i] === w)) add(29, m);
    }
  }
  return out;
}

function pungCandidates(pungs: number[]): Candidate[] {
  const n = pungs.length;
  const out: Candidate[] = [];
  const sigOf = (idx: number[]) => idx.map((i) => pungs[i]).sort((a, b) => a! - b!).join(',');
  const add = (id: number, members: number[]) => out.push({ id, members, sig: sigOf(members) });
  const suited = (t: number) => t < 27;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) {
    const a = pungs[i]!, b = pungs[j]!;
    if (suited(a) && suited(b) && suit(a) !== suit(b) && rank(a) === rank(b)) add(65, [i, j]);
  }
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) for (let k = j + 1; k < n; k++) {
    const t = [pungs[i]!, pungs[j]!, pungs[k]!].sort((x, y) => x - y) as [number, number, number];
    if (!t.every(suited)) continue;
    const s = t.map(suit), r = t.map(rank);
    const m = [i, j, k];
    if (s[0] === s[1] && s[1] === s[2]) {
      if (t[1] === t[0] + 1 && t[2] === t[1] + 1) add(24, m);
    } else if (s[0] !== s[1] && s[1] !== s[2] && s[0] !== s[2]) {
      const rs = [...r].sort((x, y) => x - y);
      if (rs[0] === rs[1] && rs[1] === rs[2]) add(32, m);
      if (rs[1] === rs[0] + 1 && rs[2] === rs[1] + 1) add(42, m);
    }
  }
  if (n === 4) {
    const t = [...pungs].sort((x, y) => x - y);
    if (t.every(suited) && t.every((x) => suit(x) === suit(t[0]!)) && t[1] === t[0]! + 1 && t[2] === t[1]! + 1 && t[3] === t[2]! + 1) {
      add(15, [0, 1, 2, 3]);
    }
  }
  return out;
}

/** True when adding `members` to the forest keeps it acyclic (union-find on set indices). */
function forestAdd(parent: number[], members: number[]): boolean {
  const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x]!)));
  const roots = new Set<number>();
  for (const m of members) {
    const r = find(m);
    if (roots.has(r)) return false;
    roots.add(r);
  }
  const [first, ...rest] = [...roots];
  for (const r of rest) parent[r] = first!;
  return true;
}

function choose(cands: Candidate[], nSets: number): ComboPick {
  const counted = new Map<number, number>();
  const dropped: ComboPick['dropped'] = [];
  if (cands.length === 0) return { counted, dropped, flat: [] };
  const points = (id: number) => FANS[id - 1]!.points;
  let best = -1;
  let bestMask = 0;
  const total = 1 << cands.length;
  for (let mask = 1; mask < total; mask++) {
    const parent = Array.from({ length: nSets }, (_, i) => i);
    const seen = new Set<string>();
    let ok = true;
    const ids = new Set<number>();
    for (let c = 0; c < cands.length && ok; c++) {
      if (!(mask & (1 << c))) continue;
      const cand = cands[c]!;
      const key = cand.id + ':' + cand.sig;
      if (seen.has(key)) { ok = false; break; }
      seen.add(key);
      if (!forestAdd(parent, cand.members)) ok = false;
      ids.add(cand.id);
    }
    if (!ok) continue;
    let value = 0;
    for (let c = 0; c < cands.length; c++) {
      if (!(mask & (1 << c))) continue;
      const id = cands[c]!.id;
      let excluded = false;
      for (const other of ids) if (other !== id && FANS[other - 1]!.excludes.includes(id)) { excluded = true; break; }
      if (!excluded) value += points(id);
    }
    // Equal values: keep the choice with the higher-ranked fans (lower numbers), as the scorer does between readings.
    if (value > best || (value === best && tieBetter(cands, mask, bestMask))) { best = value; bestMask = mask; }
  }
  const chosenIds = new Set<number>();
  for (let c = 0; c < cands.length; c++) if (bestMask & (1 << c)) chosenIds.add(cands[c]!.id);
  const drop = (id: number, reason: 'account-once' | 'excluded', byFan?: number) => {
    const d = dropped.find((x) => x.id === id && x.reason === reason && x.byFan === byFan);
    if (d) d.count++;
    else dropped.push({ id, count: 1, reason, ...(byFan !== undefined ? { byFan } : {}) });
  };
  for (let c = 0; c < cands.length; c++) {
    const id = cands[c]!.id;
    const by = [...chosenIds].find((o) => o !== id && FANS[o - 1]!.excludes.includes(id));
    if (bestMask & (1 << c)) {
      if (by === undefined) counted.set(id, (counted.get(id) ?? 0) + 1);
      else drop(id, 'excluded', by);
    } else if (by !== undefined) drop(id, 'excluded', by);
    else drop(id, 'account-once');
  }
  return { counted, dropped, flat: [...counted].flat() };
}

function tieBetter(cands: Candidate[], a: number, b: number): boolean {
  const ids = (m: number) => cands.filter((_, i) => m & (1 << i)).map((c) => c.id).sort((x, y) => x - y);
  const x = ids(a), y = ids(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]!;
  return x.length < y.length;
}

const chowMemo = new Map<number, ComboPick>();
const pungMemo = new Map<number, ComboPick>();

/** Sorts a short list in place (insertion sort: at most 4 items, no allocation). */
function sortSmall(a: number[]): number[] {
  for (let i = 1; i < a.length; i++) {
    const v = a[i]!;
    let j = i - 1;
    while (j >= 0 && a[j]! > v) { a[j + 1] = a[j]!; j--; }
    a[j + 1] = v;
  }
  return a;
}

/** Numeric memo key of a sorted list of tile ids (each < 34), plus an extra value. */
function keyOf(sorted: number[], extra: number): number {
  let k = 0;
  for (const t of sorted) k = k * 35 + t + 1;
  return k * 36 + extra + 1;
}

/** Best chow-combination fans for these chows (lowest tiles) and pair. Sorts `chows` in place. */
export function chowCombos(chows: number[], pair: number): ComboPick {
  if (chows.length < 2) return EMPTY;
  const sorted = sortSmall(chows);
  const key = keyOf(sorted, sorted.length === 4 ? pair : -1);
  let r = chowMemo.get(key);
  if (!r) { r = choose(chowCandidates(sorted.slice(), pair), sorted.length); chowMemo.set(key, r); }
  return r;
}

/** Best pung-combination fans for these pungs and kongs (their tiles). Sorts `pungs` in place. */
export function pungCombos(pungs: number[]): ComboPick {
  if (pungs.length < 2) return EMPTY;
  const sorted = sortSmall(pungs);
  const key = keyOf(sorted, -1);
  let r = pungMemo.get(key);
  if (!r) { r = choose(pungCandidates(sorted.slice()), sorted.length); pungMemo.set(key, r); }
  return r;
}

const EMPTY: ComboPick = { counted: new Map(), dropped: [], flat: [] };
