/**
 * Fan detection for one reading of an MCR hand, then the one exclusion pass (the fans' own
 * `excludes`, in rule-book order) and the account-once drops from the set combinations.
 */
import type { WinContext } from '../hand.ts';
import { FANS } from './fans.ts';
import { chowCombos, pungCombos } from './combos.ts';
import { popcount3, type HandFacts } from './facts.ts';
import type { Interp } from './interpret.ts';

export interface Evaluated {
  interp: Interp;
  counts: Int32Array;
  /** per fan id: 0 = counted (if present), > 0 = the fan that excluded it, -1 account-once, -2 wait not unique */
  removed: Int16Array;
  total: number;
  /** Further combinations of a fan that is counted, dropped by account-once or an exclusion. */
  extra: { id: number; count: number; byFan: number }[];
}

export const ACCOUNT_ONCE = -1;
const EXCLUDES: Int8Array[] = [new Int8Array(0), ...FANS.map((f) => Int8Array.from(f.excludes))];
const POINTS = Int32Array.from([0, ...FANS.map((f) => f.points)]);
export const WAIT_NOT_UNIQUE = -2;

// Scratch tables for one reading; a reading is copied out only when it may be the best.
const SCRATCH_COUNTS = new Int32Array(82);
const SCRATCH_REMOVED = new Int16Array(82);

export function detect(ip: Interp, f: HandFacts, base: Int32Array, ctx: WinContext, uniqueWait: boolean): Evaluated {
  const c = SCRATCH_COUNTS;
  c.set(base);
  const removed = SCRATCH_REMOVED;
  removed.fill(0);
  const noHonors = !f.winds && !f.dragons;
  const nSuits = popcount3(f.suits);
  const std = ip.kind === 'standard' || ip.kind === 'knitted-straight';

  let chowFans: ReturnType<typeof chowCombos> | null = null;
  let pungFans: ReturnType<typeof pungCombos> | null = null;

  // Hands that are always a single wait: the wait fan is implied (000/004: 7, 19, 20, 34 exclude 79).
  if (!std && ip.wait && uniqueWait) c[79] = 1;
  if (ip.kind === 'seven-pairs') {
    c[19] = 1;
    // Seven Shifted Pairs: seven consecutive pairs of one suit.
    if (nSuits === 1 && noHonors && f.maxRank - f.minRank === 6) {
      let ok = true;
      for (let t = 0; t < 34; t++) if (f.all[t] !== 0 && f.all[t] !== 2) ok = false;
      if (ok) c[6] = 1;
    }
  } else if (ip.kind === 'thirteen-orphans') {
    c[7] = 1;
  } else if (ip.kind === 'honors-knitted') {
    let honors = 0;
    for (let t = 27; t < 34; t++) if (f.all[t]) honors++;
    c[honors === 7 ? 20 : 34] = 1;
    if (ip.knitted!.every((t) => f.all[t])) c[35] = 1;
  } else if (std) {
    if (ip.kind === 'knitted-straight') c[35] = 1;
    const sets = ip.sets;
    const chows: number[] = [];
    const pungs: number[] = [];
    let kongsC = 0, kongsM = 0, concealedPungs = 0;
    let windPungs = 0, dragonPungs = 0, termPungs = 0;
    let outside = true, fives = true;
    const pr = ip.pair;
    for (const s of sets) {
      if (s.kind === 0) {
        chows.push(s.tile);
        const r = (s.tile % 9) + 1;
        if (r !== 1 && r !== 7) outside = false;
        if (r < 3 || r > 5) fives = false;
      } else {
        pungs.push(s.tile);
        if (s.kind === 2) { if (s.concealed) kongsC++; else kongsM++; }
        if (s.concealed) concealedPungs++;
        if (s.tile >= 27) { if (s.tile <= 30) windPungs++; else dragonPungs++; }
        else {
          const r = (s.tile % 9) + 1;
          if (r === 1 || r === 9) termPungs++;
          else outside = false;
          if (r !== 5) fives = false;
        }
        if (s.tile >= 27) fives = false;
      }
    }
    if (ip.knitted) { outside = false; fives = false; }
    if (pr >= 27) fives = false;
    else { const r = (pr % 9) + 1; if (r !== 1 && r !== 9) outside = false; if (r !== 5) fives = false; }
    if (outside) c[55] = 1;
    if (fives) c[31] = 1;

    // Honour sets.
    const pairWind = pr >= 27 && pr <= 30, pairDragon = pr >= 31;
    if (windPungs === 4) c[1] = 1;
    if (windPungs === 3 && pairWind) c[9] = 1;
    if (windPungs >= 3) c[38] = 1;
    if (dragonPungs === 3) c[2] = 1;
    if (dragonPungs === 2 && pairDragon) c[10] = 1;
    if (dragonPungs >= 2) c[54] = 1;
    if (dragonPungs) c[59] = dragonPungs;
    const prevalent = f.prevalent, seat = f.seat;
    let windT73 = 0;
    for (const t of pungs) {
      if (t === prevalent) c[60] = 1;
      if (t === seat) c[61] = 1;
      if (t >= 27 && t <= 30 && t !== prevalent && t !== seat) windT73++;
    }
    // Wind pungs inside Big Three Winds / Little or Big Four Winds do not also score
    // Pung of Terminals or Honors (000/003: 38, 9, 1 exclude 73 for their winds).
    const t73 = termPungs + (windPungs >= 3 ? 0 : windT73);
    if (t73) c[73] = t73;
    if (windPungs >= 3 && windT73 && !t73) { c[73] = windT73; removed[73] = c[1] ? 1 : c[9] ? 9 : 38; }

    // Kongs (004 fan 57: one melded + one concealed kong = Two Melded Kongs + Concealed Kong).
    // Every kong fan the sets show is marked; the exclusion table keeps the biggest
    // and lists the rest as not counted (003: Three Kongs excludes Melded Kong and
    // Two Melded Kongs; Two Concealed Kongs excludes Concealed Kong ...).
    const kongs = kongsC + kongsM;
    if (kongs === 4) c[5] = 1;
    if (kongs >= 3) c[17] = 1;
    if (kongsC >= 2) c[53] = 1;
    if (kongsM >= 2 || (kongs === 2 && kongsC === 1)) c[57] = 1;
    if (kongsC) c[67] = kongsC;
    if (kongsM) c[74] = kongsM;
    // Concealed kongs count as concealed pungs (dispute 3); smaller counts are marked for the explanation.
    if (concealedPungs === 4) c[12] = 1;
    if (concealedPungs >= 3) c[33] = 1;
    if (concealedPungs >= 2) c[66] = 1;

    if (pungs.length === 4) c[48] = 1;
    const chowLike = chows.length + (ip.knitted ? 3 : 0);
    if (chowLike === 4 && pr < 27) c[63] = 1;
    if (std && ip.kind === 'standard' && f.allEven && pungs.length === 4) c[21] = 1;
    if (f.nineGates) c[4] = 1;
    // Melded Hand: four melded sets, won on a discard (single wait on the pair).
    if (f.meldedHand && !ctx.selfDrawn) c[52] = 1;

    chowFans = chowCombos(chows, pr);
    pungFans = pungCombos(pungs);
    const cf = chowFans.flat, pf = pungFans.flat;
    for (let k = 0; k < cf.length; k += 2) c[cf[k]!] = cf[k + 1]!;
    for (let k = 0; k < pf.length; k += 2) c[pf[k]!] = pf[k + 1]!;

    if (ip.wait) {
      if (uniqueWait) c[ip.wait] = 1;
      else { c[ip.wait] = 1; removed[ip.wait] = WAIT_NOT_UNIQUE; }
    }
  }

  // One exclusion pass, in rule-book order: a counted fan removes what it implies.
  for (let id = 1; id <= 80; id++) {
    if (!c[id] || removed[id]) continue;
    const ex = EXCLUDES[id]!;
    for (let k = 0; k < ex.length; k++) {
      const e = ex[k]!;
      if (c[e] && !removed[e]) removed[e] = id;
    }
  }
  let total = 0;
  for (let id = 1; id <= 80; id++) if (c[id] && !removed[id]) total += c[id]! * POINTS[id]!;
  if (total === 0) { c[43] = 1; total = 8; }
  const ev: Evaluated = { interp: ip, counts: c, removed, total, extra: [] };
  for (let q = 0; q < 2; q++) {
    const pick = q === 0 ? chowFans : pungFans;
    if (!pick || pick.dropped.length === 0) continue;
    for (const d of pick.dropped) {
      const by = d.reason === 'excluded' ? d.byFan! : ACCOUNT_ONCE;
      if (!c[d.id]) { c[d.id] = d.count; removed[d.id] = by; } else if (!removed[d.id]) ev.extra.push({ id: d.id, count: d.count, byFan: by });
    }
  }
  return ev;
}
