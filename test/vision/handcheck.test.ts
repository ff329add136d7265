import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CONFIG } from '../../src/vision/config.ts';
import { checkHand, checkHandWithStrays, DROPPED } from '../../src/vision/handcheck/check.ts';
import { isCompleteTileSet, lookAlikes, usableBacks } from '../../src/vision/handcheck/complete.ts';
import { inOrder, orderMend } from '../../src/vision/handcheck/order.ts';
import { atMostFour, birdPungs, distinctFlowers, KIND_MAX } from '../../src/vision/handcheck/sets.ts';
import { TILE_CODES } from '../../src/vision/types.ts';

const K = TILE_CODES.length;
const ix = (c: string) => {
  const i = TILE_CODES.indexOf(c as (typeof TILE_CODES)[number]);
  if (i < 0) throw new Error(`bad code ${c}`);
  return i;
};
const set = (s: string) => s.split(/\s+/).filter(Boolean).map(ix);

/** Probability vector: `top` gets p, the others in `rest` their given p, the remainder spread thin. */
function probs(top: string, p = 0.98, rest: Record<string, number> = {}): number[] {
  const v = new Array<number>(K).fill(0);
  v[ix(top)] = p;
  for (const [c, q] of Object.entries(rest)) v[ix(c)] = q;
  const left = 1 - v.reduce((a, b) => a + b, 0);
  for (let k = 0; k < K; k++) if (v[k] === 0) v[k] = left / (K - 1 - Object.keys(rest).length);
  return v;
}
const sure = (codes: string) => codes.split(/\s+/).filter(Boolean).map((c) => probs(c));
const codesOf = (classes: number[]) => classes.map((k) => TILE_CODES[k]);

/** Each tile's likeliest class. */
const classesOf = (p: number[][]) => p.map((v) => v.indexOf(Math.max(...v)));
/** The codes after a rule that reads tiles again (distinctFlowers, atMostFour) has moved them. */
const movedBy = (rule: typeof atMostFour) => (p: number[][], classes = classesOf(p)) => {
  const out = [...classes];
  for (const { index, k } of rule(p, classes)) out[index] = k;
  return codesOf(out);
};

describe('lookAlikes', () => {
  it('groups tiles whose probability vectors are close, in chains, least sure first', () => {
    const p = [probs('1z', 0.4, { '7z': 0.3 }), probs('5p'), probs('7z', 0.35, { '1z': 0.33 }), probs('1z', 0.3, { '7z': 0.33 }), probs('6z', 0.45, { f2: 0.3 })];
    expect(lookAlikes(p, [0, 2, 3, 4])).toEqual([[3, 2, 0], [4]]);
    expect(lookAlikes(p, [0, 2, 3, 4], 0.05)).toEqual([[0], [2], [3], [4]]);
  });
});

describe('isCompleteTileSet', () => {
  it('accepts four sets and a pair, with flowers aside', () => {
    expect(isCompleteTileSet(set('1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z f1 f6'))).toBe(true);
  });
  it('accepts kongs: face up, with two face-down tiles, and all face down', () => {
    expect(isCompleteTileSet(set('2m 2m 2m 2m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z'))).toBe(true);
    expect(isCompleteTileSet(set('back 2m 2m back 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z'))).toBe(true);
    expect(isCompleteTileSet(set('back back back back 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z'))).toBe(true);
  });
  it('leaves face-down tiles outside the hand aside (the wall)', () => {
    expect(isCompleteTileSet(set('1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z back'))).toBe(true);
  });
  it('accepts the special MCR shapes', () => {
    expect(isCompleteTileSet(set('1m 1m 3p 3p 5s 5s 7s 7s 1z 1z 6z 6z 9m 9m'))).toBe(true); // seven pairs
    expect(isCompleteTileSet(set('1m 9m 1p 9p 1s 9s 1z 2z 3z 4z 5z 6z 7z 7z'))).toBe(true); // thirteen orphans
    expect(isCompleteTileSet(set('1m 4m 7m 2p 5p 8p 3s 6s 9s 1z 2z 3z 5z 7z'))).toBe(true); // honours and knitted
    expect(isCompleteTileSet(set('1m 4m 7m 2p 5p 8p 3s 6s 9s 2z 2z 2z 7z 7z'))).toBe(true); // knitted straight
  });
  it('accepts 16-tile hands: five sets and a pair, or seven pairs and a pung', () => {
    expect(isCompleteTileSet(set('1m 2m 3m 4m 5m 6m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z'))).toBe(true);
    expect(isCompleteTileSet(set('1m 1m 3p 3p 5s 5s 7s 7s 1z 1z 6z 6z 9m 9m 2p 2p 2p'))).toBe(true);
  });
  it('refuses broken hands', () => {
    expect(isCompleteTileSet(set('1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z'))).toBe(false); // 13 tiles
    expect(isCompleteTileSet(set('1m 2m 4m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z'))).toBe(false); // broken chow
    expect(isCompleteTileSet(set('1m 1m 1m 1m 1m 2m 3m 7s 8s 9s 1z 1z 5z 5z'))).toBe(false); // five 1m
    expect(isCompleteTileSet(set('1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z f2 f2'))).toBe(false); // two orchids
    expect(isCompleteTileSet([])).toBe(false);
  });
});

describe('checkHand', () => {
  it('keeps a hand that is already complete', () => {
    const r = checkHand(sure('1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z'));
    expect(r).toMatchObject({ changed: [], complete: true });
  });

  it('reads a 5m taken for 3m as its next guess when that completes the hand', () => {
    const p = sure('4m 5m 6m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z');
    p[1] = probs('3m', 0.6, { '5m': 0.35 });
    const r = checkHand(p);
    expect(r.complete).toBe(true);
    expect(r.changed).toEqual([1]);
    expect(codesOf(r.classes)[1]).toBe('5m');
  });

  it('changes the less certain of two tiles read as the same flower', () => {
    const p = sure('1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z');
    p.push(probs('f2', 0.9), probs('f2', 0.55, { f3: 0.4 }));
    const r = checkHand(p);
    expect(r.changed).toEqual([15]);
    expect(codesOf(r.classes).slice(14)).toEqual(['f2', 'f3']);
  });

  it('with flowerIdentity false, leaves two tiles read as the same flower to the caller and tries only tile kinds for a flower', () => {
    const p = sure('1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z');
    p.push(probs('f2', 0.9), probs('f2', 0.55, { f3: 0.4 }));
    const r = checkHand(p, { flowerIdentity: false });
    expect(r.complete).toBe(true);
    expect(r.changed).toEqual([]);
    // a hand short of its 2m, one of whose two orchids (read twice) gives the 2m some weight: the
    // check mends the hand (its eight tiles and budget are not spent telling the flowers apart)
    const q = sure('1m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z');
    q.push(probs('f6', 0.22, { '3m': 0.15, f2: 0.2, f8: 0.18, '2m': 0.06 }), probs('f6', 0.9));
    const blind = checkHand(q, { flowerIdentity: false });
    expect(blind.complete).toBe(true);
    expect(codesOf(blind.classes).slice(13)).toEqual(['2m', 'f6']);
    // with the flowers' identities counted, a flower's next guesses are other flowers and its
    // likeliest tile kind (3m), which cannot complete the hand
    expect(checkHand(q).complete).toBe(false);
  });

  it('takes the cheapest completion', () => {
    // the first tile read as 1m: 4m (4-5-6) and 7m (5-6-7) both complete the hand; 4m is likelier
    const p = sure('4m 5m 6m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z');
    p[0] = probs('1m', 0.55, { '7m': 0.1, '4m': 0.3 });
    expect(codesOf(checkHand(p).classes)[0]).toBe('4m');
    p[0] = probs('1m', 0.55, { '7m': 0.3, '4m': 0.1 });
    expect(codesOf(checkHand(p).classes)[0]).toBe('7m');
  });

  it('with maxChanges, leaves the scan as read when the cheapest completion changes more tiles', () => {
    // 4m and 5m read as 4s and 5s: changing both completes the hand; one alone does not
    const p = sure('1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 5p 5p');
    p[3] = probs('4s', 0.6, { '4m': 0.38 });
    p[4] = probs('5s', 0.6, { '5m': 0.38 });
    expect(checkHand(p)).toMatchObject({ changed: [3, 4], complete: true });
    expect(checkHand(p, { maxChanges: 2 })).toMatchObject({ changed: [3, 4], complete: true });
    expect(checkHand(p, { maxChanges: 1 })).toMatchObject({ classes: set('1m 2m 3m 4s 5s 6m 7m 8m 9m 1p 2p 3p 5p 5p'), changed: [], complete: false });
    // one change is still taken
    const q = sure('1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 5p 5p');
    q[3] = probs('4s', 0.6, { '4m': 0.38 });
    expect(checkHand(q, { maxChanges: 1 })).toMatchObject({ changed: [3], complete: true });
  });

  it('leaves the scan as read when no change within the budget completes it', () => {
    const missing = sure('1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z'); // a tile was not found
    missing[0] = probs('1m', 0.7, { '7m': 0.2 });
    expect(checkHand(missing)).toMatchObject({ changed: [], complete: false });
    const p = sure('4m 5m 6m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z');
    p[1] = probs('3m', 0.97, { '5m': 0.021 }); // the fix would cost ln(0.97/0.021) = 3.8
    expect(checkHand(p, { maxCost: 3 })).toMatchObject({ changed: [], complete: false });
    expect(checkHand(p, { maxCost: 4 }).changed).toEqual([1]);
  });

  it('does not turn a doubtful face into a face-down tile to leave it out of the hand', () => {
    const p = sure('1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z 2p'); // one tile too many
    p[14] = probs('2p', 0.5, { back: 0.45 });
    expect(checkHand(p)).toMatchObject({ changed: [], complete: false });
  });

  describe('an unread tile (unreadBelow)', () => {
    // an unseen bird design: the classifier spreads its guesses over East, Red and the flowers,
    // and gives the 1 of bamboo almost nothing
    const unseen = () => probs('1z', 0.45, { '7z': 0.3, f4: 0.12, f6: 0.12, '1s': 0.004 });
    it('is read from the hand when exactly one tile kind completes it', () => {
      const p = sure('1s 2s 3s 4p 5p 6p 7m 8m 9m 2z 2z 2z 5z 5z');
      p[0] = unseen();
      expect(checkHand(p)).toMatchObject({ changed: [], complete: false }); // off by default
      const r = checkHand(p, { unreadBelow: 0.5 });
      expect(r).toMatchObject({ changed: [0], complete: true });
      expect(codesOf(r.classes)[0]).toBe('1s');
    });
    it('takes the kind the classifier finds likelier when several complete the hand', () => {
      // 2s 3s + ? : 1s and 4s both complete it
      const p = sure('1s 2s 3s 4p 5p 6p 7m 8m 9m 2z 2z 2z 5z 5z');
      p[0] = probs('1z', 0.49, { '7z': 0.46, '4s': 0.004, '1s': 0.002 });
      expect(codesOf(checkHand(p, { unreadBelow: 0.5 }).classes)[0]).toBe('4s');
      p[0] = probs('1z', 0.49, { '7z': 0.46, '4s': 0.002, '1s': 0.004 });
      expect(codesOf(checkHand(p, { unreadBelow: 0.5 }).classes)[0]).toBe('1s');
    });
    it('tries the kinds in unreadFirst before the classifier\'s order (the pipeline: the bird first)', () => {
      // three birds read as Red, East, East: a pung of East and a pung of 1s both complete the hand
      const p = sure('1s 1s 1s 4z 4z 4z 1m 1m 1m 6s 7s 8s 7s 7s');
      p[0] = probs('7z', 0.17, { '1s': 0.14, f2: 0.1, f4: 0.07 });
      p[1] = probs('1z', 0.25, { '6z': 0.12, f2: 0.14, '1s': 0.03 });
      p[2] = probs('1z', 0.42, { '6z': 0.11, f2: 0.07, '1s': 0.02 });
      expect(codesOf(checkHand(p, { unreadBelow: 0.5 }).classes).slice(0, 3)).toEqual(['1z', '1z', '1z']);
      const r = checkHand(p, { unreadBelow: 0.5, unreadFirst: CONFIG.handCheck.unreadFirst });
      expect(r).toMatchObject({ changed: [0, 1, 2], complete: true });
      expect(codesOf(r.classes).slice(0, 3)).toEqual(['1s', '1s', '1s']);
      // a kind tried first that does not complete the hand is passed over
      const q = sure('6s 4s 5s 4p 5p 6p 7m 8m 9m 2z 2z 2z 5z 5z');
      q[0] = probs('7z', 0.4, { '1z': 0.3, '1s': 0.2, '6s': 0.01 });
      expect(codesOf(checkHand(q, { unreadBelow: 0.5, unreadFirst: CONFIG.handCheck.unreadFirst }).classes)[0]).toBe('6s');
    });
    it('is only a tile whose first guess is doubtful, and at most one per hand unless they look alike', () => {
      const p = sure('1s 2s 3s 4p 5p 6p 7m 8m 9m 2z 2z 2z 5z 5z');
      p[0] = probs('1z', 0.6, { '7z': 0.39, '1s': 0.004 });
      expect(checkHand(p, { unreadBelow: 0.5 }).complete).toBe(false);
      // two unseen designs that do not look alike: only one may be read from the hand
      const two = sure('1s 2s 3s 1s 2s 3s 7m 8m 9m 2z 2z 2z 5z 5z');
      two[0] = unseen();
      two[3] = probs('6z', 0.45, { f2: 0.3, '3z': 0.2, '1s': 0.004 });
      expect(checkHand(two, { unreadBelow: 0.5 })).toMatchObject({ changed: [], complete: false });
    });
    it('reads look-alike unread tiles (a pung of an unseen bird) as one kind', () => {
      // the three birds read as East, Red, East; with a pair of East and a pung of Red beside
      // them, only 1s for all three completes the hand
      const p = sure('1s 1s 1s 1z 1z 7z 7z 7z 6s 7s 8s 2m 3m 4m');
      p[0] = probs('1z', 0.4, { '7z': 0.3, f6: 0.12, '1s': 0.01 });
      p[1] = probs('7z', 0.35, { '1z': 0.33, f6: 0.12, '1s': 0.012 });
      p[2] = probs('1z', 0.45, { '7z': 0.27, f6: 0.1, '1s': 0.008 });
      const r = checkHand(p, { unreadBelow: 0.5 });
      expect(r).toMatchObject({ changed: [0, 1, 2], complete: true });
      expect(codesOf(r.classes).slice(0, 3)).toEqual(['1s', '1s', '1s']);
      // one of them alone cannot complete it, and without the look-alike rule nothing does
      expect(checkHand(p, { unreadBelow: 0.5, twinL1: 0 }).complete).toBe(false);
    });
    it('costs unreadCost: a cheaper next guess wins, and a dearer one than the budget is not taken', () => {
      const p = sure('1s 2s 3s 4p 5p 6p 7m 8m 9m 2z 2z 2z 5z 5z');
      p[0] = unseen();
      expect(checkHand(p, { unreadBelow: 0.5, unreadCost: 7 }).complete).toBe(false);
      // 5p read as 6p with 5p next: cost ln(0.6/0.3) = 0.7, plus the unread tile
      p[4] = probs('6p', 0.6, { '5p': 0.3 });
      const r = checkHand(p, { unreadBelow: 0.5, unreadCost: 2.5 });
      expect(r).toMatchObject({ changed: [0, 4], complete: true });
      expect(codesOf(r.classes)).toEqual('1s 2s 3s 4p 5p 6p 7m 8m 9m 2z 2z 2z 5z 5z'.split(' '));
    });
    it('at the pipeline\'s CONFIG.handCheck.unreadBelow, reads a bird taken for East at 0.52 in thirteen orphans (val-holdout 047)', () => {
      // thirteen orphans with the South wind paired; the bird read as East besides the real East
      const p = sure('1m 9m 1p 9p 1s 9s 1z 2z 3z 4z 5z 6z 7z 2z');
      p[4] = probs('1z', 0.517, { f2: 0.086, '6z': 0.057, '1s': 0.003 });
      const r = checkHand(p, { unreadBelow: CONFIG.handCheck.unreadBelow, unreadFirst: CONFIG.handCheck.unreadFirst });
      expect(r).toMatchObject({ changed: [4], complete: true });
      expect(codesOf(r.classes)[4]).toBe('1s');
      // the same tile read at 0.6 is a reading, not an unread tile: the hand stays as read
      p[4] = probs('1z', 0.6, { f2: 0.05, '6z': 0.04, '1s': 0.003 });
      expect(checkHand(p, { unreadBelow: CONFIG.handCheck.unreadBelow, unreadFirst: CONFIG.handCheck.unreadFirst })).toMatchObject({ changed: [], complete: false });
    });
    it('never turns a flower into a suit tile', () => {
      const p = sure('2s 3s 4p 5p 6p 7m 8m 9m 2z 2z 2z 5z 5z');
      p.push(probs('f2', 0.4, { f3: 0.35, '1s': 0.001 }));
      expect(checkHand(p, { unreadBelow: 0.5 }).complete).toBe(false);
    });
  });

  it('never changes a confident reading of a complete hand (property)', () => {
    const hand = 'back 2m 2m back 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z f1 f5'.split(' ');
    fc.assert(fc.property(fc.array(fc.double({ min: 0.5, max: 0.99, noNaN: true }), { minLength: hand.length, maxLength: hand.length }), (ps) => {
      const r = checkHand(hand.map((c, i) => probs(c, ps[i]!)));
      expect(r.changed).toEqual([]);
      expect(codesOf(r.classes)).toEqual(hand);
    }));
  });
});

describe('inOrder (how players lay a hand out)', () => {
  const ranks = (n: number) => Array.from({ length: n }, (_, i) => i);
  const ordered = (codes: string, rank?: number[]) => { const c = set(codes); return inOrder(c, rank ?? ranks(c.length)); };
  it('accepts tiles sorted up or down', () => {
    expect(ordered('1m 1m 2m 3m 4m 5p 5p 5p 7s 8s 9s 2z 2z 2z')).toBe(true);
    expect(ordered('2z 2z 2z 9s 8s 7s 5p 5p 5p 4m 3m 2m 1m 1m')).toBe(true);
  });
  it('accepts contiguous sets in any order of sets, with one tile left over at most', () => {
    expect(ordered('4m 4m 2m 2m 2m 8s 8s 8s 4z 4z 4z 4z 2m 3m 4m')).toBe(true);
    expect(ordered('7m 4s 5s 6s 5z 5z 5z 7z 7z 7z 7z 5m 6m 7m')).toBe(true);
    expect(ordered('4m 2m 3m 5z 5z 5z 7z 7z 7z 2p 3p 4p 8m 8m')).toBe(false);
    expect(ordered('4m 1p 2m 3m 5z 5z 5z 7z 7z 7z 2p 3p 4p 8m 8m')).toBe(false);
  });
  it('wants the chows to run one way (a hand seen from across the table reads backwards)', () => {
    expect(ordered('4m 3m 2m 2m 2m 8s 8s 8s 2m 3m 4m')).toBe(false);
    expect(ordered('4m 4m 2m 2m 2m 8s 8s 8s 4m 3m 2m')).toBe(true);
  });
  it('reads face-down tiles as any kind of a pung or kong, and leaves flowers and dropped tiles aside', () => {
    expect(ordered('back 5s 5s back 2m 3m 4m 7z 7z 7z 1p 1p f3 f1')).toBe(true);
    expect(ordered('back back 2m 3m 4m 7z 7z 7z 1p 1p')).toBe(true);
    expect(ordered('back 2m 3m 4m')).toBe(true); // the lone tile left over
    expect(inOrder([...set('2m f4 3m 4m 1p 1p'), DROPPED], ranks(7))).toBe(true);
  });
  it('reads the tiles in the order of their ranks, not of the list', () => {
    expect(ordered('3m 1m 2m 5z 5z', [2, 0, 1, 3, 4])).toBe(true);
    expect(ordered('1m 2m 3m 5z 5z', [2, 0, 1, 3, 4])).toBe(false);
  });
});

describe('the order rule (HandCheckOptions.order)', () => {
  const ranks = (n: number) => Array.from({ length: n }, (_, i) => i);
  it('takes the kind that continues the neighbours\' run for a face read as a flower (val-holdout 044)', () => {
    // 1m 2m 3m, the 1m and the 2m read as flowers: the 1m's likeliest tile kind is 4m, which
    // completes the hand as 2m 3m 4m too, but out of order
    const p = sure('1m 2m 3m 5z 5z 5z 7z 7z 7z 2p 3p 4p 8m 8m');
    p[0] = probs('f2', 0.21, { f6: 0.14, f8: 0.11, '4m': 0.081, '2m': 0.066, '1m': 0.051 });
    p[1] = probs('f6', 0.23, { '3m': 0.16, f2: 0.08, '2m': 0.059, '1m': 0.034 });
    // (the pipeline leaves which flower is which to the end: flowerIdentity false)
    expect(codesOf(checkHand(p, { flowerIdentity: false }).classes).slice(0, 3)).toEqual(['4m', '2m', '3m']);
    const r = checkHand(p, { flowerIdentity: false, order: ranks(14) });
    expect(r).toMatchObject({ changed: [0, 1], complete: true });
    expect(codesOf(r.classes).slice(0, 3)).toEqual(['1m', '2m', '3m']);
  });
  it('pays up to CONFIG.handCheck.orderCost more for a mend that keeps the tiles in order (val-holdout 156)', () => {
    // 1m 1m | 5m 5m 5m | 8m 8m 8m | 5p 5p 5p | 2m 3m 4m, the second 1m and the 2m doubtful
    const p = sure('1m 1m 5m 5m 5m 8m 8m 8m 5p 5p 5p 2m 3m 4m');
    p[1] = probs('1m', 0.433, { '2m': 0.43 });
    p[11] = probs('3m', 0.549, { '2m': 0.383 });
    const plain = checkHand(p);
    expect(plain).toMatchObject({ changed: [1], complete: true }); // 1m 2m 3m ... 3m 4m: 0.007 dearer
    const r = checkHand(p, { order: ranks(14) });
    expect(r).toMatchObject({ changed: [11], complete: true });
    // a mend in order that is dearer by more than the rule's price is not taken
    p[11] = probs('3m', 0.9, { '2m': 0.9 * Math.exp(-CONFIG.handCheck.orderCost - 0.1) });
    expect(checkHand(p, { order: ranks(14) })).toMatchObject({ changed: [1], complete: true });
    // nor does the rule move anything when no mend keeps the tiles in order
    const shuffled = [13, 0, 7, 2, 10, 4, 5, 6, 3, 9, 1, 11, 12, 8];
    expect(checkHand(p, { order: shuffled }).changed).toEqual(plain.changed);
  });
  it('reads an unread tile as the first kind that completes the hand in order (val-holdout 131)', () => {
    // 4m 4m | 2m 2m 2m | 8s 8s 8s | 4z 4z 4z 4z | 2m 3m 4m: the second 4m unreadable; as 3m it makes
    // 4m 3m 2m, a chow running against the last one
    const p = sure('4m 4m 2m 2m 2m 8s 8s 8s 4z 4z 4z 4z 2m 3m 4m');
    p[1] = probs('5m', 0.49, { '8m': 0.23, '6m': 0.11, '3m': 0.01, '4m': 0.005 });
    expect(codesOf(checkHand(p, { unreadBelow: 0.55 }).classes)[1]).toBe('3m');
    expect(codesOf(checkHand(p, { unreadBelow: 0.55, order: ranks(15) }).classes)[1]).toBe('4m');
  });
  it('does not read a claimed tile (sideways in a meld) as a flower (val-holdout 119)', () => {
    // the claimed 7p of a kong, read as 1p or 9p: taken for the autumn it leaves the hand, which is
    // then complete with a pung of 7p; read from the hand (unread) as the 7p, it makes the kong
    const p = sure('1m 2m 3m 4p 5p 6p 7s 8s 9s 5z 5z 7p 7p 7p 7p');
    p[12] = probs('1p', 0.282, { '9p': 0.246, f7: 0.057, f5: 0.03, f2: 0.03, '4p': 0.038, '7p': 0.037 });
    const opts = { flowerIdentity: false, unreadBelow: CONFIG.handCheck.unreadBelow, detScores: p.map(() => 0.9) };
    expect(codesOf(checkHand(p, opts).classes)[12]).toBe('f7');
    const claimed = p.map((_, i) => i === 12);
    const r = checkHand(p, { ...opts, claimed });
    expect(r).toMatchObject({ changed: [12], complete: true });
    expect(codesOf(r.classes)[12]).toBe('7p');
  });
  it('changes nothing in a hand already complete, and nothing without the order', () => {
    const p = sure('4m 2m 3m 5z 5z 5z 7z 7z 7z 2p 3p 4p 8m 8m');
    expect(checkHand(p, { order: ranks(14) })).toMatchObject({ changed: [], complete: true });
  });
});

describe('orderMend (a hand the check could not complete)', () => {
  const ranks = (n: number) => Array.from({ length: n }, (_, i) => i);
  it('reads one tile as its next guess when that puts the tiles in order (val-holdout 284)', () => {
    // 3p 4p (the 2p missed) 2s 3s 4s 6s 6s, the last 6s read as 4s at 0.31, as 6s at 0.14
    const p = sure('3p 4p 2s 3s 4s 6s 6s');
    p[6] = probs('4s', 0.306, { '9p': 0.142, '6s': 0.136, '3m': 0.071 });
    const classes = classesOf(p);
    expect(codesOf(classes)[6]).toBe('4s');
    expect(orderMend(p, classes, ranks(7))).toEqual([{ index: 6, k: ix('6s') }]);
    // not when the change costs more than handCheck.orderCost, nor when the tiles are in order already
    p[6] = probs('4s', 0.306, { '9p': 0.2, '6s': 0.306 * Math.exp(-CONFIG.handCheck.orderCost - 0.05) });
    expect(orderMend(p, classesOf(p), ranks(7))).toEqual([]);
    expect(orderMend(sure('3p 4p 2s 3s 4s 6s 6s'), set('3p 4p 2s 3s 4s 6s 6s'), ranks(7))).toEqual([]);
  });
  it('takes the cheapest such change, and leaves flowers and face-down tiles alone', () => {
    const p = sure('7z 7z 7z 1m 2m 3m f3 back back');
    p[4] = probs('5m', 0.5, { '2m': 0.3 });
    p[5] = probs('9m', 0.5, { '3m': 0.4 });
    // either change alone leaves 1m 2m 9m or 1m 5m 3m: out of order; no single change mends it
    expect(orderMend(p, classesOf(p), ranks(9))).toEqual([]);
    p[4] = probs('2m', 0.9);
    expect(orderMend(p, classesOf(p), ranks(9))).toEqual([{ index: 5, k: ix('3m') }]);
  });
});

describe('checkHandWithStrays', () => {
  const hand = '1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z';
  it('leaves a stray out when the hand is complete without it (a checked square read as a white dragon)', () => {
    const p = [...sure(hand), probs('5z', 0.6)];
    const r = checkHandWithStrays(p, [...hand.split(' ').map(() => false), true]);
    expect(r.kept).toEqual(hand.split(' ').map((_, i) => i));
    expect(r.complete).toBe(true);
  });
  it('keeps a stray the hand needs (a tile set apart, read with doubt)', () => {
    const tiles = hand.split(' ');
    const p = sure(hand);
    const stray = tiles.map((_, i) => i === 13);
    const r = checkHandWithStrays(p, stray);
    expect(r.kept).toHaveLength(14);
    expect(r.complete).toBe(true);
  });
  it('keeps every stray when the hand is complete neither way (a tile was missed)', () => {
    const short = '1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 5z 5z';
    const p = [...sure(short), probs('back', 0.6)];
    const r = checkHandWithStrays(p, [...short.split(' ').map(() => false), true]);
    expect(r.kept).toHaveLength(14);
    expect(r.complete).toBe(false);
    expect(r.changed).toEqual([]);
  });
  it('reports changes by position in the kept list', () => {
    // 3m read as 2m (next guess 3m) makes the hand incomplete; the stray is left out
    const p = [probs('1m'), probs('2m'), probs('2m', 0.6, { '3m': 0.35 }), ...sure('4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z'), probs('8p', 0.5)];
    const stray = p.map((_, i) => i === 14);
    const r = checkHandWithStrays(p, stray);
    expect(r.kept).toHaveLength(14);
    expect(r.changed).toEqual([2]);
    expect(codesOf(r.classes).slice(0, 3)).toEqual(['1m', '2m', '3m']);
  });
});

describe('leaving out doubtful detections', () => {
  const hand = '1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z';
  const det = (n: number, low: Record<number, number> = {}) => Array.from({ length: n }, (_, i) => low[i] ?? 0.95);
  it('leaves out a doubtful extra face when that completes the hand (a checked square read as 5z)', () => {
    const p = [...sure(hand), probs('5z', 0.9)];
    const r = checkHand(p, { detScores: det(15, { 14: 0.5 }) });
    expect(r.complete).toBe(true);
    expect(r.dropped).toEqual([14]);
    expect(r.classes[14]).toBe(DROPPED);
    expect(r.changed).toEqual([]);
  });
  it('never leaves out a tile the detector is sure of, nor without detector scores', () => {
    const p = [...sure(hand), probs('5z', 0.9)];
    expect(checkHand(p, { detScores: det(15, { 14: CONFIG.handCheck.dropBelow }) }).complete).toBe(false);
    expect(checkHand(p).dropped).toEqual([]);
    expect(checkHand(p).complete).toBe(false);
  });
  it('takes the cheaper fix: a likely next guess, or else leaving out a doubtful tile', () => {
    // 15 faces: a fifth 5z is one too many; as 1z it makes a kong of East, left out the hand is complete too
    const likely = [...sure(hand), probs('5z', 0.55, { '1z': 0.44 })];
    const a = checkHand(likely, { detScores: det(15, { 14: 0.55 }) });
    expect(a.complete).toBe(true);
    expect(a.dropped).toEqual([]);
    expect(a.changed).toEqual([14]);
    expect(TILE_CODES[a.classes[14]!]).toBe('1z');
    const unlikely = [...sure(hand), probs('5z', 0.9, { '1z': 0.05 })];
    const b = checkHand(unlikely, { detScores: det(15, { 14: 0.55 }) });
    expect(b.complete).toBe(true);
    expect(b.dropped).toEqual([14]);
    expect(b.changed).toEqual([]);
  });
  it('leaves a doubtful face out rather than read it as a flower, which would keep it in the result (a cloth patch read 6m, f3 next)', () => {
    // a flower takes no part in the hand: as f3 the hand is complete too, and that guess is cheap
    const patch = [...sure(hand), probs('6m', 0.12, { f3: 0.11 })];
    const r = checkHand(patch, { detScores: det(15, { 14: 0.57 }) });
    expect(r.complete).toBe(true);
    expect(r.dropped).toEqual([14]);
    expect(r.changed).toEqual([]);
    // a face the detector is sure of may still be read as a flower (a flower taken for a tile)
    const flower = checkHand(patch, { detScores: det(15) });
    expect(flower.dropped).toEqual([]);
    expect(flower.changed).toEqual([14]);
    expect(TILE_CODES[flower.classes[14]!]).toBe('f3');
  });
  it('reads a face the detector is sure of as a flower only when it gives the flowers CONFIG.handCheck.flowerGuessMass (a 5m is not the winter on a 3 % guess)', () => {
    // 15 faces: a sure extra 5m read at 0.9, with 3 % on the winter: as f8 the hand is complete
    const guess = [...sure(hand), probs('5m', 0.9, { f8: 0.03 })];
    const mass = TILE_CODES.reduce((m, c, k) => (c.startsWith('f') ? m + guess[14]![k]! : m), 0);
    expect(mass).toBeLessThan(CONFIG.handCheck.flowerGuessMass);
    const r = checkHand(guess, { detScores: det(15) });
    expect(r.complete).toBe(false);
    expect(r.changed).toEqual([]);
    // with the rule off (or without detector scores) the guess is taken, as before
    const off = checkHand(guess, { detScores: det(15), flowerGuessMass: 0 });
    expect(off.complete).toBe(true);
    expect(TILE_CODES[off.classes[14]!]).toBe('f8');
    expect(TILE_CODES[checkHand(guess).classes[14]!]).toBe('f8');
  });
  it('checkHandWithStrays reports kept tiles without the dropped ones, changes by kept position', () => {
    const p = [probs('5z', 0.9), probs('1m'), probs('2m'), probs('2m', 0.6, { '3m': 0.35 }), ...sure('4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z')];
    const r = checkHandWithStrays(p, p.map(() => false), { detScores: det(15, { 0: 0.5 }) });
    expect(r.complete).toBe(true);
    expect(r.dropped).toEqual([0]);
    expect(r.kept).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    expect(r.changed).toEqual([2]);
    expect(codesOf(r.classes).slice(0, 3)).toEqual(['1m', '2m', '3m']);
  });
});

describe('usableBacks', () => {
  it('counts the face-down tiles the concealed kongs take, the most over the ways the hand completes', () => {
    expect(usableBacks(set('1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z'))).toBe(0);
    expect(usableBacks(set('back 2m 2m back 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z'))).toBe(2);
    expect(usableBacks(set('back back back back 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z'))).toBe(4);
    // a third face-down tile is spare: the hand takes two
    expect(usableBacks(set('back 2m 2m back 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z back'))).toBe(2);
    // two concealed kongs, each with two face-down tiles
    expect(usableBacks(set('back 2m 2m back back 7p 7p back 7s 8s 9s 1z 1z 1z 5z 5z'))).toBe(4);
  });
  it('is -1 for a hand that is not complete', () => {
    expect(usableBacks(set('1m 2m 4m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z back back'))).toBe(-1);
    expect(isCompleteTileSet(set('1m 2m 4m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z back back'))).toBe(false);
  });
});

describe('spare face-down tiles (dropSpareBacks)', () => {
  const hand = 'back 2m 2m back 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z';
  const det = (n: number, low: Record<number, number> = {}) => Array.from({ length: n }, (_, i) => low[i] ?? 0.95);
  it('leaves out a doubtful face-down tile beyond the concealed kongs (a checked square read as a back)', () => {
    const p = [...sure(hand), probs('back', 0.9)];
    const r = checkHand(p, { detScores: det(16, { 15: 0.45 }), dropSpareBacks: true });
    expect(r.complete).toBe(true);
    expect(r.dropped).toEqual([15]);
    expect(r.classes[15]).toBe(DROPPED);
    expect(r.changed).toEqual([]);
    // off by default, and never without detector scores
    expect(checkHand(p, { detScores: det(16, { 15: 0.45 }) }).dropped).toEqual([]);
    expect(checkHand(p, { dropSpareBacks: true }).dropped).toEqual([]);
  });
  it('leaves out the least sure of them, and only as many as are spare', () => {
    // the kong's own back (index 3) is less sure than the spare one, so it is the one left out:
    // the count decides what is spare, the detector score which tile it is
    const p = [...sure(hand), probs('back', 0.9)];
    const r = checkHand(p, { detScores: det(16, { 3: 0.3, 15: 0.5 }), dropSpareBacks: true });
    expect(r.dropped).toEqual([3]);
  });
  it('keeps a spare face-down tile the detector is sure of, or that lies beside another (spareBackOk: the wall)', () => {
    const p = [...sure(hand), probs('back', 0.9)];
    expect(checkHand(p, { detScores: det(16, { 15: 0.7 }), dropSpareBacks: true }).dropped).toEqual([]);
    const ok = p.map((_, i) => i !== 15);
    expect(checkHand(p, { detScores: det(16, { 15: 0.45 }), dropSpareBacks: true, spareBackOk: ok }).dropped).toEqual([]);
  });
  it('keeps the face-down tiles the hand needs', () => {
    const p = sure(hand);
    expect(checkHand(p, { detScores: det(15, { 0: 0.4, 3: 0.4 }), dropSpareBacks: true }).dropped).toEqual([]);
  });
  it('works after a fix, and checkHandWithStrays renumbers the kept tiles', () => {
    // 3m read as 2m (next guess 3m), plus a doubtful lone back
    const p = [probs('back', 0.9), probs('1m'), probs('2m'), probs('2m', 0.6, { '3m': 0.35 }), ...sure('4p 5p 6p 7s 8s 9s 1z 1z 1z 5z 5z')];
    const r = checkHandWithStrays(p, p.map(() => false), { detScores: det(15, { 0: 0.5 }), dropSpareBacks: true, spareBackOk: p.map(() => true) });
    expect(r.complete).toBe(true);
    expect(r.dropped).toEqual([0]);
    expect(r.kept).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    expect(r.changed).toEqual([2]);
  });
});

describe('faces read as flowers', () => {
  it('may be read as their likeliest tile kind when the hand needs it, though other flowers are likelier', () => {
    // a concealed kong of North winds whose two face-up tiles (a held-out design) are read as the spring
    const north = () => probs('f5', 0.32, { f7: 0.15, f1: 0.107, '4z': 0.083 });
    const p = [...sure('3s 3s 3s 8m 8m 2z 2z 2z 8p 8p 8p back back'), north(), north()];
    const r = checkHand(p);
    expect(r.complete).toBe(true);
    expect(r.changed).toEqual([13, 14]);
    expect(codesOf(r.classes).slice(13)).toEqual(['4z', '4z']);
    // a tile kind the face gives almost nothing (below the next guesses' floor) is not tried
    const faint = () => probs('f5', 0.32, { f7: 0.15, f1: 0.107, '4z': 0.01 });
    expect(checkHand([...sure('3s 3s 3s 8m 8m 2z 2z 2z 8p 8p 8p back back'), faint(), faint()]).complete).toBe(false);
  });
});

describe('look-alike unread tiles in a complete hand', () => {
  // thirteen orphans whose two held-out birds are read one as the bamboo 1, one as the Green dragon
  const orphans = sure('1m 9m 1p 9p 9s 1z 2z 3z 4z 5z 6z 7z');
  const birdA = probs('1s', 0.22, { '7z': 0.2, '6z': 0.15 });
  const birdB = probs('6z', 0.25, { '1s': 0.18, '7z': 0.15 });
  const opts = { unreadBelow: 0.5, unreadFirst: CONFIG.handCheck.unreadFirst };

  it('reads them as one kind, the bird first, when the hand stays complete', () => {
    const p = [...orphans, birdA, birdB];
    expect(isCompleteTileSet(p.map((v) => v.indexOf(Math.max(...v))))).toBe(true);
    const r = checkHand(p, opts);
    expect(r.complete).toBe(true);
    expect(r.changed).toEqual([13]);
    expect(codesOf(r.classes).slice(12)).toEqual(['1s', '1s']);
  });

  it('leaves them as read when they do not look alike, when they are read surely, or when no one kind keeps the hand complete', () => {
    const p = [...orphans, birdA, birdB];
    expect(checkHand(p, { ...opts, twinL1: 0.05 }).changed).toEqual([]);
    expect(checkHand(p, { ...opts, unreadBelow: 0.2 }).changed).toEqual([]);
    // a chow hand: the look-alikes are read 1s and 2s in 1s 2s 3s; as one kind they break the chow
    const chow = [...sure('3s 4m 5m 6m 7p 8p 9p 2z 2z 2z 5z 5z'), probs('1s', 0.3, { '2s': 0.25 }), probs('2s', 0.3, { '1s': 0.25 })];
    const r = checkHand(chow, opts);
    expect(r.complete).toBe(true);
    expect(r.changed).toEqual([]);
  });
});

describe('birdPungs', () => {
  // a complete hand whose pung of red dragons is read doubtfully, each tile giving the bamboo 1 some weight
  const rest = sure('1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 5p');
  const doubtful = (top = CONFIG.handCheck.birdPungTop - 0.05, bird = 0.1) => probs('7z', top, { '1s': bird });

  it('reads a pung read doubtfully as one honour, with some weight on the bamboo 1, as a pung of the bird, and the hand stays complete', () => {
    const p = [...rest, doubtful(), doubtful(0.38, 0.2), doubtful(0.3, CONFIG.handCheck.birdPungBird)];
    const classes = classesOf(p);
    expect(isCompleteTileSet(classes)).toBe(true);
    expect(birdPungs(p, classes, true)).toEqual([11, 12, 13]);
    const after = classes.map((k, i) => (i >= 11 ? ix('1s') : k));
    expect(isCompleteTileSet(after)).toBe(true);
  });

  it('leaves a pung alone when one tile is read surely enough, one gives the bird too little, or there are only two', () => {
    const classes = (p: number[][]) => classesOf(p);
    const sureOne = [...rest, doubtful(), doubtful(CONFIG.handCheck.birdPungTop + 0.01), doubtful()];
    expect(birdPungs(sureOne, classes(sureOne), true)).toEqual([]);
    const noBird = [...rest, doubtful(), doubtful(undefined, CONFIG.handCheck.birdPungBird / 2), doubtful()];
    expect(birdPungs(noBird, classes(noBird), true)).toEqual([]);
    const pair = [...sure('1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 5p 5p'), doubtful(), doubtful()];
    expect(birdPungs(pair, classes(pair), true)).toEqual([]);
  });

  it('leaves a pung of white dragons alone, and one whose doubt lies on the flowers', () => {
    const white = [...rest, ...[0, 1, 2].map(() => probs('5z', CONFIG.handCheck.birdPungTop - 0.1, { '1s': 0.1 }))];
    expect(birdPungs(white, classesOf(white), true)).toEqual([]);
    const flowerish = probs('7z', CONFIG.handCheck.birdPungTop - 0.1, { '1s': 0.05, f8: 0.3, f7: 0.2 });
    const p = [...rest, doubtful(), flowerish, doubtful()];
    expect(birdPungs(p, classesOf(p), true)).toEqual([]);
  });

  it('never makes five of the bamboo 1; in a hand the check could not complete, the count is the only bound', () => {
    // two bamboo 1s already: a pung of them would make five
    const five = [...sure('1s 1s 2s 3s 4s 6m 7m 8m 5p 5p 6p'), doubtful(), doubtful(), doubtful()];
    expect(birdPungs(five, classesOf(five), false)).toEqual([]);
    const incomplete = [...sure('1m 2m 4m 5m 7m 8m 1p 2p 4p 5p 9s'), doubtful(), doubtful(), doubtful()];
    expect(isCompleteTileSet(classesOf(incomplete))).toBe(false);
    expect(birdPungs(incomplete, classesOf(incomplete), false)).toEqual([11, 12, 13]);
  });
});

describe('atMostFour (a set has four of each tile kind)', () => {
  const apply = movedBy(atMostFour);

  it('reads the least sure of five tiles of one kind again, as its likeliest kind with room', () => {
    const p = [...sure('5m 5m 5m'), probs('5m', 0.9), probs('5m', 0.45, { '7m': 0.4 }), ...sure('3m 3m')];
    expect(apply(p)).toEqual(['5m', '5m', '5m', '5m', '7m', '3m', '3m']);
    expect(atMostFour(p, classesOf(p))).toEqual([{ index: 4, k: ix('7m') }]);
  });

  it('skips a kind that is full already and a guess below minProb', () => {
    // the doubtful 5m's next guess is 3m, of which four are read: it takes 4m (0.1) instead
    const p = [...sure('5m 5m 5m 5m 3m 3m 3m 3m'), probs('5m', 0.6, { '3m': 0.25, '4m': 0.1 })];
    expect(apply(p)).toEqual(['5m', '5m', '5m', '5m', '3m', '3m', '3m', '3m', '4m']);
    // with nowhere to go (every other kind under minProb), it stays as read
    const q = [...sure('5m 5m 5m 5m'), probs('5m', 0.99)];
    expect(atMostFour(q, classesOf(q))).toEqual([]);
  });

  it('reads a set\'s unseen birds, taken for an honour, as the 1 of bamboo, the look-alikes with them', () => {
    // four birds read doubtfully as East, besides two real East winds: six East winds
    const bird = (top: number) => probs('1z', top, { '7z': 0.2, f2: 0.15, '1s': 0.01 });
    const p = [...sure('1z 1z'), bird(0.45), bird(0.4), bird(0.35), bird(0.3), ...sure('2s 3s')];
    expect(apply(p)).toEqual(['1z', '1z', '1s', '1s', '1s', '1s', '2s', '3s']);
    // the least sure first, then its look-alikes
    expect(atMostFour(p, classesOf(p)).map((m) => m.index)).toEqual([5, 2, 3, 4]);
  });

  it('sends a tile read surely enough (not unread) to its next guess, not to the bird', () => {
    const p = [...sure('1z 1z 1z 1z'), probs('1z', CONFIG.handCheck.unreadBelow + 0.05, { '2z': 0.3, '1s': 0.1 })];
    expect(apply(p)).toEqual(['1z', '1z', '1z', '1z', '2z']);
  });

  it('beyond eight flowers read, reads the least flower-like again as a tile kind (an unseen bird first)', () => {
    const FL = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8'];
    // eight flowers read surely, and a bird read as the orchid at 0.3 with its flowers together under a half
    const bird = probs('f2', 0.3, { '1z': 0.25, '1s': 0.01 });
    const p = [...FL.map((c) => probs(c, 0.9)), bird, ...sure('2s 3s')];
    expect(apply(p)).toEqual([...FL, '1s', '2s', '3s']);
    // eight or fewer: nothing moves, duplicates included (distinctFlowers tells those apart)
    const q = [...FL.slice(0, 7).map((c) => probs(c, 0.9)), bird];
    expect(atMostFour(q, classesOf(q))).toEqual([]);
  });

  it('leaves flowers and face-down tiles alone, and changes nothing when no kind has more than four', () => {
    const p = [...sure('back back back back back f1 f1'), ...sure('1z 1z 1z 1z')];
    expect(atMostFour(p, classesOf(p))).toEqual([]);
  });

  it('property: afterwards no kind that had room has more than four, moves go only to tile kinds, face-down tiles never move, and flowers only beyond eight', () => {
    const kinds = ['1m', '2m', '1z', '1s', 'f1', 'back'];
    fc.assert(fc.property(fc.array(fc.tuple(fc.constantFrom(...kinds), fc.double({ min: 0.05, max: 0.99, noNaN: true }), fc.constantFrom(...kinds), fc.double({ min: 0, max: 0.5, noNaN: true })), { minLength: 1, maxLength: 60 }), (tiles) => {
      const p = tiles.map(([top, q, next, r]) => (next === top ? probs(top, q) : probs(top, q, { [next]: Math.min(r, (1 - q) * 0.9) })));
      const classes = classesOf(p);
      const out = [...classes];
      const moves = atMostFour(p, classes);
      const count = (cl: number[], k: number) => cl.filter((c) => c === k).length;
      const isFl = (k: number) => k >= ix('f1') && k <= ix('f8');
      const flowersRead = classes.filter(isFl).length;
      for (const { index, k } of moves) {
        expect(classes[index]).not.toBe(ix('back'));
        expect(k < ix('f1')).toBe(true);
        out[index] = k;
      }
      expect(moves.filter((m) => isFl(classes[m.index]!)).length).toBeLessThanOrEqual(Math.max(0, flowersRead - 8));
      expect(new Set(moves.map((m) => m.index)).size).toBe(moves.length);
      for (let k = 0; k < ix('f1'); k++) {
        // a kind that was over four comes down to four unless its tiles had nowhere to go; none goes over
        if (count(classes, k) <= KIND_MAX) expect(count(out, k)).toBeLessThanOrEqual(KIND_MAX);
        else expect(count(out, k)).toBeLessThanOrEqual(count(classes, k));
      }
    }));
  });
});

describe('distinctFlowers', () => {
  const FLOWERS = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8'];
  const apply = movedBy(distinctFlowers);

  it('tells apart two tiles read as the same flower, the less sure one taking its next flower', () => {
    const p = [...sure('1m 2m 3m'), probs('f2', 0.6, { f3: 0.3 }), probs('f2', 0.45, { f1: 0.4 }), probs('f5')];
    expect(apply(p)).toEqual(['1m', '2m', '3m', 'f2', 'f1', 'f5']);
    expect(distinctFlowers(p, classesOf(p))).toEqual([{ index: 4, k: ix('f1') }]);
  });

  it('takes the likeliest distinct reading, which may move a tile that was not a duplicate', () => {
    // A and B both read f1; B can only be f1, A's next is f2, which C holds with little more weight than its f3
    const p = [probs('f1', 0.5, { f2: 0.45 }), probs('f1', 0.9), probs('f2', 0.5, { f3: 0.48 })];
    expect(apply(p)).toEqual(['f2', 'f1', 'f3']);
  });

  it('changes nothing when the flowers are already distinct, or with more than eight of them', () => {
    const p = [probs('f1', 0.4, { f2: 0.39 }), probs('f2', 0.9), probs('5z')];
    expect(distinctFlowers(p, classesOf(p))).toEqual([]);
    const nine = [...FLOWERS, 'f1'].map((c) => probs(c, 0.7));
    expect(distinctFlowers(nine, classesOf(nine))).toEqual([]);
  });

  it('only moves flowers among flowers, and keeps readings the caller chose (the hand check\'s) when distinct', () => {
    const p = [probs('f3', 0.5, { '7z': 0.45 }), probs('7z', 0.5, { f3: 0.4 })];
    // the caller read tile 1 as f4 though f3 is its likeliest flower: distinct, so it stays
    expect(distinctFlowers(p, [ix('f3'), ix('f4')])).toEqual([]);
    expect(apply(p)).toEqual(['f3', '7z']);
  });

  it('property: the flowers come out distinct, tiles that are not flowers never change, and the total log-probability is not lower than any other distinct reading found by trying swaps', () => {
    const flowerVec = fc.array(fc.double({ min: 0.001, max: 1, noNaN: true }), { minLength: 8, maxLength: 8 });
    fc.assert(fc.property(fc.array(fc.tuple(fc.boolean(), flowerVec), { minLength: 1, maxLength: 8 }), (tiles) => {
      const p = tiles.map(([isFlower, fv]) => {
        const v = new Array<number>(K).fill(0.0001);
        fv.forEach((q, f) => { v[ix(FLOWERS[f]!)] = q; });
        if (!isFlower) v[ix('9p')] = 10;
        const s = v.reduce((a, b) => a + b, 0);
        return v.map((x) => x / s);
      });
      const classes = classesOf(p);
      const out = [...classes];
      for (const { index, k } of distinctFlowers(p, classes)) out[index] = k;
      const fl = out.filter((k) => k >= ix('f1') && k <= ix('f8'));
      expect(new Set(fl).size).toBe(fl.length);
      out.forEach((k, i) => { if (classes[i] === ix('9p')) expect(k).toBe(ix('9p')); });
      const total = (cl: number[]) => cl.reduce((s, k, i) => s + (k >= ix('f1') && k <= ix('f8') ? Math.log(p[i]![k]!) : 0), 0);
      // no swap of two flower tiles' readings, and no move to an unused flower, does better
      const fIdx = out.flatMap((k, i) => (k >= ix('f1') && k <= ix('f8') ? [i] : []));
      for (const a of fIdx) {
        for (const b of fIdx) {
          const t = [...out]; [t[a], t[b]] = [t[b]!, t[a]!];
          expect(total(t)).toBeLessThanOrEqual(total(out) + 1e-9);
        }
        for (let f = ix('f1'); f <= ix('f8'); f++) {
          if (out.includes(f)) continue;
          const t = [...out]; t[a] = f;
          expect(total(t)).toBeLessThanOrEqual(total(out) + 1e-9);
        }
      }
    }));
  });
});
