import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { computeSheet } from '../../src/engine/sheet.ts';
import { applyOps, liveRows, type HandRow } from '../../src/event/merge.ts';
import { EventApiError, opsBodySchema, parseOrThrow, formatCode, normalizeCode, type Op, type Standings } from '../../src/event/protocol.ts';
import { checkHand, checkSheet } from '../../src/event/rescore.ts';
import { drawSeating, parseSeatingCsv, seatingToCsv, validateSeating } from '../../src/event/seating.ts';
import { computeStandings, countedHand, rankPlayers } from '../../src/event/standings.ts';
import { standingsToEmaCsv } from '../../src/event/ema.ts';
import { DRAW, LINKED, names, scoredWin, typedWin } from './fixtures.ts';

const put = (opId: string, handId: string, at: number, hand = typedWin(0, 8)): Op => ({ opId, kind: 'put', handId, at, hand });
const del = (opId: string, handId: string, at: number): Op => ({ opId, kind: 'delete', handId, at });
const view = (rows: Map<string, HandRow>) => liveRows(rows.values()).map((r) => ({ handId: r.handId, hand: r.hand, at: r.at }));

function errorOf(f: () => unknown): EventApiError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(EventApiError);
    return e as EventApiError;
  }
  throw new Error('expected an EventApiError');
}

describe('protocol', () => {
  it('names the field of a bad op', () => {
    const e = errorOf(() => parseOrThrow(opsBodySchema, { ops: [{ opId: 'op-000001', kind: 'put', handId: 'hand-0001', at: 1, hand: { kind: 'win', penalties: [] } }] }));
    expect(e.code).toBe('BAD_REQUEST');
    expect(e.status).toBe(400);
    expect(e.message).toBe('body: ops[0].hand.winner: expected number');
  });

  it('refuses unknown fields, short ids and empty batches', () => {
    expect(errorOf(() => parseOrThrow(opsBodySchema, { ops: [{ ...put('op-000001', 'hand-0001', 1), extra: 1 }] })).message).toMatch(/unknown field/);
    expect(errorOf(() => parseOrThrow(opsBodySchema, { ops: [put('short', 'hand-0001', 1)] })).message).toMatch(/ops\[0\]\.opId/);
    expect(errorOf(() => parseOrThrow(opsBodySchema, { ops: [] })).message).toMatch(/ops: too small/);
  });

  it('reads table codes typed any way', () => {
    expect(normalizeCode(' k7qw-3mpx ')).toBe('K7QW3MPX');
    expect(formatCode('k7qw3mpx')).toBe('K7QW-3MPX');
  });
});

describe('op merge', () => {
  it('the later write wins, ties by the larger opId', () => {
    const a = put('op-aaaaaa', 'hand-0001', 10, typedWin(0, 8));
    const b = put('op-bbbbbb', 'hand-0001', 10, typedWin(1, 9));
    const c = put('op-cccccc', 'hand-0001', 5, typedWin(2, 10));
    for (const order of [[a, b, c], [c, b, a], [b, a, c]]) {
      const rows = applyOps(new Map(), order);
      expect(view(rows)).toEqual([{ handId: 'hand-0001', hand: typedWin(1, 9), at: 10 }]);
    }
  });

  it('a delete is a tombstone: an older put arriving late does not bring the hand back', () => {
    const rows = applyOps(new Map(), [put('op-000001', 'hand-0001', 1), del('op-000002', 'hand-0001', 5), put('op-000003', 'hand-0001', 3, typedWin(3, 12))]);
    expect(view(rows)).toEqual([]);
    expect(rows.get('hand-0001')?.hand).toBeNull();
  });

  it('orders hands by their first put, then handId', () => {
    const rows = applyOps(new Map(), [
      put('op-000001', 'hand-bbbb', 2), put('op-000002', 'hand-aaaa', 2), put('op-000003', 'hand-cccc', 1),
      put('op-000004', 'hand-cccc', 9, typedWin(2, 16)),
    ]);
    expect(view(rows).map((r) => r.handId)).toEqual(['hand-cccc', 'hand-aaaa', 'hand-bbbb']);
  });

  it('any order of the same ops, with duplicate retries, gives the same sheet', () => {
    const opArb = fc.record({
      kind: fc.constantFrom('put', 'put', 'delete'),
      hand: fc.integer({ min: 0, max: 4 }),
      at: fc.integer({ min: 0, max: 20 }),
      winner: fc.integer({ min: 0, max: 3 }),
      points: fc.integer({ min: 8, max: 40 }),
    });
    fc.assert(fc.property(
      fc.array(opArb, { minLength: 1, maxLength: 25 }),
      fc.array(fc.nat(), { maxLength: 10 }),
      fc.integer(),
      (specs, retries, seed) => {
        const ops: Op[] = specs.map((s, i) => (s.kind === 'put'
          ? put(`op-${String(i).padStart(6, '0')}`, `hand-${s.hand}000`, s.at, typedWin(s.winner, s.points))
          : del(`op-${String(i).padStart(6, '0')}`, `hand-${s.hand}000`, s.at)));
        const withRetries = [...ops, ...retries.map((r) => ops[r % ops.length])];
        const shuffled = fc.sample(fc.shuffledSubarray(withRetries, { minLength: withRetries.length, maxLength: withRetries.length }), { seed, numRuns: 1 })[0];
        const inOrder = applyOps(new Map(), ops);
        const mixed = applyOps(new Map(), shuffled);
        expect(view(mixed)).toEqual(view(inOrder));
        // Applying everything again changes nothing.
        expect(view(applyOps(mixed, withRetries))).toEqual(view(inOrder));
      },
    ), { numRuns: 300 });
  });
});

describe('seating', () => {
  const shape = { players: names(8), tables: 2, sessions: 2 };

  it('reads the CSV with or without a header, with quoted names', () => {
    const csv = 'session,table,A,B,C,D\n1,1,Player 001,Player 002,Player 003,Player 004\r\n1,2,"Player 005",Player 006,Player 007,Player 008\n\n';
    expect(parseSeatingCsv(csv)).toEqual([
      { session: 1, table: 1, players: ['Player 001', 'Player 002', 'Player 003', 'Player 004'] },
      { session: 1, table: 2, players: ['Player 005', 'Player 006', 'Player 007', 'Player 008'] },
    ]);
    expect(parseSeatingCsv('1,1,"O""Brien, Pat",b,c,d')[0].players[0]).toBe('O"Brien, Pat');
  });

  it('names the line of a bad CSV', () => {
    expect(errorOf(() => parseSeatingCsv('1,1,a,b,c')).message).toBe('line 1: expected 6 fields (session,table,A,B,C,D), found 5');
    expect(errorOf(() => parseSeatingCsv('1,1,a,b,c,d\nx,1,a,b,c,d')).message).toBe('line 2: the session "x" is not a number from 1');
    expect(errorOf(() => parseSeatingCsv('')).code).toBe('INVALID_SEATING');
  });

  it('checks that a session seats every player once at every table', () => {
    const draw = drawSeating(shape, () => 0.5);
    expect(validateSeating(draw, shape, true)).toHaveLength(4);
    const twice = draw.map((e) => (e.session === 1 && e.table === 2 ? { ...e, players: [draw[0].players[0], ...e.players.slice(1)] } : e));
    expect(errorOf(() => validateSeating(twice, shape, true)).message).toMatch(/^session 1: "Player 00\d" sits at table 1 and table 2$/);
    expect(errorOf(() => validateSeating(draw.filter((e) => e.session === 1), shape, true)).message).toBe('session 2 has no seating');
    expect(validateSeating(draw.filter((e) => e.session === 2), shape, false)).toHaveLength(2);
    expect(errorOf(() => validateSeating([{ session: 1, table: 1, players: ['Nobody', 'a', 'b', 'c'] }], shape, false)).message).toMatch(/"Nobody" is not a player/);
  });

  it('draws every player once per session, and the CSV round-trips', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const draw = drawSeating({ players: names(40), tables: 10, sessions: 4 }, random);
    for (let s = 1; s <= 4; s++) {
      expect(draw.filter((e) => e.session === s).flatMap((e) => e.players).sort()).toEqual(names(40));
    }
    expect(parseSeatingCsv(seatingToCsv(draw))).toEqual(draw);
  });
});

describe('re-scoring', () => {
  it('agrees with a hand scored by the app', () => {
    for (let k = 0; k < LINKED.length; k++) {
      expect(checkHand(scoredWin(k, 0), 'mcr')).toEqual({ status: 'ok', serverPoints: LINKED[k].total, tablePoints: LINKED[k].total });
    }
  });

  it('flags a wrong total with both readings', () => {
    const check = checkHand(scoredWin(0, 2, { points: 50 }), 'mcr');
    expect(check).toEqual({ status: 'flagged', serverPoints: 98, tablePoints: 50, reason: 'the table wrote 50, the engine scores the tiles 98' });
  });

  it('flags a damaged link, a self-drawn mismatch and another ruleset', () => {
    const hand = scoredWin(0, 1);
    if (hand.kind !== 'win') throw new Error('fixture');
    const damaged = checkHand({ ...hand, link: hand.link!.replace(/.$/, (c) => (c === '0' ? '1' : '0')) }, 'mcr');
    expect(damaged.status).toBe('flagged');
    expect(damaged.serverPoints).toBeUndefined();
    expect(damaged.reason).toMatch(/^the link cannot be read: This hand link is damaged/);
    expect(checkHand({ ...hand, selfDrawn: false, discarder: 2 }, 'mcr').reason).toBe('the link says the win was self-drawn, the sheet says on a discard');
    expect(checkHand(hand, 'fan-pays').reason).toBe('the hand was scored by mcr rules, but the table plays fan-pays');
  });

  it("checks the link's winds against the hand's seats on the sheet (003)", () => {
    // Hand 3 of the East round: C deals, so C is East and D South (seat rotation of 003).
    const right = scoredWin(1, 2, { discarder: 3, hand: 2 });
    expect(checkSheet([DRAW, DRAW, right], 'mcr')[2].status).toBe('ok');
    // The same hand scored as if it were hand 1 (C sat West then).
    const early = scoredWin(1, 2, { discarder: 3, hand: 0 });
    expect(checkSheet([DRAW, DRAW, early], 'mcr')[2]).toMatchObject({
      status: 'flagged', reason: 'the link scores the winner in the West seat, but on the sheet the winner sits East in hand 3',
    });
    // Hand 5 opens the South round: B deals. B also dealt hand 2, in the East round.
    const south = scoredWin(1, 1, { discarder: 0, hand: 4 });
    expect(checkSheet([...Array(4).fill(DRAW), south], 'mcr')[4].status).toBe('ok');
    expect(checkSheet([...Array(4).fill(DRAW), scoredWin(1, 1, { discarder: 0, hand: 1 })], 'mcr')[4]).toMatchObject({
      status: 'flagged', reason: 'the link is scored in the East round, but hand 5 is in the South round',
    });
    // Without the sheet around it a hand is only re-scored.
    expect(checkHand(early, 'mcr').status).toBe('ok');
  });

  it('marks typed hands and passes draws', () => {
    expect(checkHand(typedWin(0, 12), 'mcr')).toEqual({ status: 'typed', tablePoints: 12 });
    expect(checkHand(DRAW, 'mcr')).toEqual({ status: 'ok', tablePoints: 0 });
  });
});

describe('standings', () => {
  const players = names(8);
  const table1 = players.slice(0, 4);
  const table2 = players.slice(4, 8);
  const ok = (hand: ReturnType<typeof typedWin>) => ({ hand, check: checkHand(hand, 'mcr') });

  it('sums table points and score per session from the engine sheet, ties sharing places', () => {
    const s1 = [ok(typedWin(0, 8, 1)), ok(typedWin(2, 10))];
    const s2 = [ok(DRAW)];
    const st = computeStandings({
      eventId: 'ev_x', name: 'Club', rules: 'mcr', players, updatedAt: 1,
      sheets: [
        { session: 1, table: 1, players: table1, entries: s1 },
        { session: 1, table: 2, players: table2, entries: s2 },
      ],
    });
    const sheet = computeSheet({ players: table1, hands: s1.map((e) => e.hand), meta: {} });
    const byName = new Map(st.players.map((p) => [p.name, p]));
    table1.forEach((name, i) => {
      expect(byName.get(name)?.score).toBe(sheet.totals[i]);
      expect(byName.get(name)?.tablePoints).toBe(sheet.tablePoints[i]);
    });
    // Table 2 drew its only hand: four players tie and share (4+2+1+0)/4.
    for (const name of table2) expect(byName.get(name)?.tablePoints).toBe(1.75);
    // C paid 8 on hand 1 (A won 8 on B's discard) and took 3 × (8 + 10) self-drawn on hand 2 (004).
    expect(st.players[0]).toMatchObject({ name: table1[2], rank: 1, tablePoints: 4, score: -8 + 3 * 18 });
    // Ranks follow table points then score; the four tied players share a rank.
    const ranks = table2.map((n) => byName.get(n)?.rank);
    expect(new Set(ranks).size).toBe(1);
  });

  it('a table that has not played yet gives nobody a result', () => {
    const st = computeStandings({ eventId: 'ev_x', name: 'Club', rules: 'mcr', players: table1, updatedAt: 1, sheets: [{ session: 1, table: 1, players: table1, entries: [] }] });
    expect(st.players.every((p) => p.perSession.length === 0 && p.tablePoints === 0 && p.rank === 1)).toBe(true);
  });

  it('counts the server reading of a flagged hand unless the referee accepts the table', () => {
    const hand = scoredWin(0, 0, { points: 50 });
    const check = checkHand(hand, 'mcr');
    expect(countedHand(hand, check)).toMatchObject({ points: 98 });
    expect(countedHand(hand, check, 'accept-server')).toMatchObject({ points: 98 });
    expect(countedHand(hand, check, 'accept-table')).toMatchObject({ points: 50 });
  });

  it('ranks by table points then score, sharing ranks for full ties', () => {
    const ranked = rankPlayers([
      { id: 'a', tablePoints: 4, score: 10 }, { id: 'b', tablePoints: 4, score: 30 },
      { id: 'c', tablePoints: 4, score: 10 }, { id: 'd', tablePoints: 1, score: 90 },
    ]);
    expect(ranked.map((r) => [r.id, r.rank])).toEqual([['b', 1], ['a', 2], ['c', 2], ['d', 4]]);
  });

  it('writes the EMA results CSV', () => {
    const st: Standings = {
      eventId: 'ev_x', name: 'Club', rules: 'mcr', updatedAt: 1,
      players: [
        { name: 'Ann', rank: 1, tablePoints: 7 / 3, score: 40, perSession: [{ session: 1, table: 2, tablePoints: 7 / 3, score: 40 }] },
        { name: '=cmd, "x"', rank: 2, tablePoints: 0, score: -40, perSession: [] },
      ],
    };
    expect(standingsToEmaCsv(st, 2)).toBe(
      'Rank,Name,EMA number,Country,Table points,Score,Session 1 table,Session 1 table points,Session 1 score,Session 2 table,Session 2 table points,Session 2 score\r\n'
      + '1,Ann,,,2.33,40,2,2.33,40,,,\r\n'
      + `2,"'=cmd, ""x""",,,0,-40,,,,,,\r\n`,
    );
  });
});
