import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isStandardComplete, KNITTED_PATTERNS, TERMINALS_AND_HONORS } from '../../src/engine/decompose.ts';
import { parseWaitingHand, waitingTiles, tileCode } from '../../src/engine/index.ts';

/** Reference: try every tile and test the 14 tiles against each hand shape directly. */
function bruteWaits(c: Uint8Array, melds: number): number[] {
  const out: number[] = [];
  for (let t = 0; t < 34; t++) {
    c[t]!++;
    let ok = isStandardComplete(c, 4 - melds);
    if (!ok && melds === 0) {
      let pairs = 0, odd = false;
      for (let k = 0; k < 34; k++) { if (c[k]! % 2) odd = true; pairs += Math.floor(c[k]! / 2); }
      if (!odd && pairs === 7) ok = true;
      let sum = 0;
      for (const k of TERMINALS_AND_HONORS) sum += c[k]!;
      if (sum === 14 && TERMINALS_AND_HONORS.every((k) => c[k]! > 0)) ok = true;
      for (const pat of KNITTED_PATTERNS) {
        let good = true;
        for (let k = 0; k < 34; k++) if (c[k]! > 1 || (c[k] && k < 27 && !pat.includes(k))) good = false;
        if (good) ok = true;
      }
    }
    if (!ok && melds <= 1) {
      for (const pat of KNITTED_PATTERNS) {
        if (!pat.every((k) => c[k]! > 0)) continue;
        for (const k of pat) c[k]!--;
        if (isStandardComplete(c, 1 - melds)) ok = true;
        for (const k of pat) c[k]!++;
      }
    }
    c[t]!--;
    if (ok) out.push(t);
  }
  return out;
}

const waitsOf = (s: string) => waitingTiles(parseWaitingHand(s)).map(tileCode);

describe('waiting tiles', () => {
  it('nine gates waits on all nine tiles', () => {
    expect(waitsOf('1112345678999m')).toEqual(['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']);
  });
  it('thirteen orphans: thirteen-sided and single', () => {
    expect(waitsOf('19m19p19sESWNCFP')).toHaveLength(13);
    expect(waitsOf('19m19p19sESWNCFF')).toEqual(['5z']);
  });
  it('seven pairs single, including a pair held twice', () => {
    expect(waitsOf('1122m3344p5566s7z')).toContain('7z');
    expect(waitsOf('11112233m4455p7z')).toEqual(['7z']);
  });
  it('honours and knitted tiles wait on the three missing tiles', () => {
    expect(waitsOf('147m258p36sESWNC')).toEqual(['9s', '5z', '6z']);
  });
  it('knitted straight with a declared set', () => {
    expect(waitsOf('[123m1]147m258p369s5z')).toEqual(['5z']);
    expect(waitsOf('[123m1]147m258p36s55z')).toEqual(['9s']);
  });
  it('a tile the hand holds four of still counts as a wait (by shape)', () => {
    expect(waitsOf('[444s3]222m1113333p')).toEqual(['2p', '3p']);
  });
  it('agree with trying every tile against every shape (random hands)', () => {
    const arb = fc.array(fc.integer({ min: 0, max: 33 }), { minLength: 13, maxLength: 13 })
      .filter((ts) => { const c = new Array(34).fill(0); ts.forEach((t) => c[t]++); return c.every((n) => n <= 4); });
    // Near-complete hands: a complete 14-tile standard hand with one tile removed.
    const near = fc.record({ sets: fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 33 })), { minLength: 4, maxLength: 4 }), pair: fc.integer({ min: 0, max: 33 }), drop: fc.nat() })
      .map(({ sets, pair, drop }) => {
        const ts: number[] = [pair, pair];
        for (const [chow, t] of sets) {
          if (chow && t < 27 && t % 9 <= 6) ts.push(t, t + 1, t + 2); else ts.push(t, t, t);
        }
        ts.splice(drop % ts.length, 1);
        return ts;
      })
      .filter((ts) => { const c = new Array(34).fill(0); ts.forEach((t) => c[t]++); return c.every((n) => n <= 4); });
    fc.assert(fc.property(fc.oneof(arb, near, near), (ts) => {
      const c = new Uint8Array(34);
      ts.forEach((t) => c[t]!++);
      const got = waitingTiles({ melds: [], concealed: ts });
      expect(got).toEqual(bruteWaits(c, 0));
    }), { numRuns: 3000 });
  });
});
