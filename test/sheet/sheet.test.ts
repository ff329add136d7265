import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import {
  addHand, computeSheet, createSheet, deleteHand, editHand, handPayments, parseGameRecord, parseSheetJson, sheetToGameRecord,
  penaltyPayments, playerAtSeat, seatingOf, seatingsOf, sheetToCsv, sheetToJson, tablePointsFor, tablePointsText, SheetError,
  type HandSeating, type SheetHand, type SheetRecord,
} from '../../src/engine/sheet.ts';

const PLAYERS = ['Anders', 'Bente', 'Claus', 'Dorte'];
const A = 0, B = 1, C = 2, D = 3;

const win = (winner: number, points: number, discarder: number | null, penalties: SheetHand['penalties'] = []): SheetHand => ({
  kind: 'win', winner, selfDrawn: discarder === null, discarder, points, source: 'typed', penalties,
});
const draw = (penalties: SheetHand['penalties'] = []): SheetHand => ({ kind: 'draw', penalties });

/** Catch a SheetError and return its code, hand and field. */
function sheetError(f: () => unknown): { code: string; hand: number | null; field: string | null; message: string } {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(SheetError);
    const s = e as SheetError;
    return { code: s.code, hand: s.hand, field: s.field, message: s.message };
  }
  throw new Error('expected a SheetError');
}

describe('the worked example of 003 (rules README)', () => {
  const record = parseSheetJson(readFileSync(new URL('./example.json', import.meta.url), 'utf8'));
  const sheet = computeSheet(record);

  it('comes out exactly, hand by hand', () => {
    const expected = [
      { penalties: [0, 0, 0, 0], payments: [46, -8, -8, -30], running: [46, -8, -8, -30] },
      { penalties: [0, 0, 0, 0], payments: [0, 0, 0, 0], running: [46, -8, -8, -30] },
      { penalties: [0, 0, 0, 0], payments: [-18, -18, -18, 54], running: [28, -26, -26, 24] },
      { penalties: [10, 10, -30, 10], payments: [-16, -8, -8, 32], running: [22, -24, -64, 66] },
    ];
    expect(sheet.rows.map(({ penalties, payments, running }) => ({ penalties, payments, running }))).toEqual(expected);
    expect(sheet.totals).toEqual([22, -24, -64, 66]);
    expect(sheet.tablePoints).toEqual([2, 1, 0, 4]);
    expect(sheet.places).toEqual([2, 3, 4, 1]);
  });

  it('is built the same way through the editing API', () => {
    let r = createSheet(PLAYERS);
    r = addHand(r, win(A, 22, D));
    r = addHand(r, draw());
    r = addHand(r, win(D, 10, null));
    r = addHand(r, win(D, 8, A, [{ player: C, points: 30, split: true }]));
    expect(computeSheet(r).totals).toEqual([22, -24, -64, 66]);
    expect(r.hands).toEqual(record.hands);
  });
});

describe('Fan Pays: the deal passes only when another player wins (card 002, Repeat Dealership)', () => {
  const fp = (hands: SheetHand[]): SheetRecord => ({ ...createSheet(PLAYERS, {}, 'fan-pays'), hands });
  const fanWin = (winner: number, discarder: number | null): SheetHand => win(winner, 3, discarder);
  it('keeps the dealer on their own win and on a draw, counting their wins in a row, and seats turn with the deal', () => {
    // A deals: A wins (run 1), a draw (run 1), A wins (run 2), then B wins on A's discard: the deal passes to B
    const record = fp([fanWin(A, null), draw(), fanWin(A, C), fanWin(B, A)]);
    const { seatings, next } = seatingsOf(record);
    expect(seatings.map((s) => [s.dealer, s.dealerRun, s.handInRound])).toEqual([[A, 0, 1], [A, 1, 1], [A, 1, 1], [A, 2, 1]]);
    expect(seatings.every((s) => s.seatWinds[A] === 'E')).toBe(true);
    expect([next!.dealer, next!.dealerRun, next!.handIndex, next!.prevalentWind]).toEqual([B, 0, 4, 'E']);
    expect(next!.seatWinds).toEqual(['N', 'E', 'S', 'W']);
    const sheet = computeSheet(record);
    expect(sheet.rows.map((r) => r.seating.dealer)).toEqual([A, A, A, A]);
    expect([sheet.complete, sheet.nextHand]).toEqual([false, 4]);
    // MCR passes the deal after every hand, as 003 says
    expect(seatingsOf({ ...record, rules: undefined }).seatings.map((s) => s.dealer)).toEqual([A, B, C, D]);
  });

  it('ends the game when the deal has gone round the table four times, and takes no hand after', () => {
    // sixteen dealerships, each lost at once (the player across from the dealer wins on the dealer's
    // discard), and one repeat in the last
    const across = (s: HandSeating) => s.positions[(s.positions.indexOf(s.dealer) + 2) % 4]!;
    let record = fp([]);
    for (let deal = 0; deal < 16; deal++) {
      if (deal === 15) record = addHand(record, fanWin(seatingsOf(record).next!.dealer, null));
      const s = seatingsOf(record).next!;
      record = addHand(record, fanWin(across(s), s.dealer));
    }
    expect(record.hands).toHaveLength(17);
    const sheet = computeSheet(record);
    expect([sheet.complete, sheet.nextHand]).toEqual([true, null]);
    expect(sheet.rows.map((r) => r.seating.prevalentWind).join('')).toBe('EEEESSSSWWWWNNNNN');
    expect(sheet.rows.map((r) => r.seating.handInRound).join('')).toBe('12341234123412344');
    expect(sheet.rows[16]!.seating.dealer).toBe(sheet.rows[15]!.seating.dealer);
    expect(sheet.rows[16]!.seating.dealerRun).toBe(1);
    expect(sheetError(() => addHand(record, draw()))).toMatchObject({ code: 'GAME_OVER', hand: 18 });
    // a game longer than sixteen hands goes through the game-record JSON (export, import, storage)
    expect(parseGameRecord(JSON.parse(JSON.stringify(sheetToGameRecord(record))))).toEqual(record);
    expect(sheetError(() => computeSheet({ ...record, hands: [...record.hands, draw()] }))).toMatchObject({ code: 'GAME_OVER', hand: 18 });
    // an edit that gives hand 16 (the last dealer's win) to another player passes the deal a hand
    // earlier: hand 17 is then after the end
    expect(sheetError(() => editHand(record, 15, fanWin(across(sheet.rows[15]!.seating), null)))).toMatchObject({ code: 'GAME_OVER', hand: 17 });
  });
});

describe('seat rotation (003)', () => {
  it('seats the players E/S/W/N as ABCD, BADC, CDBA, DCAB in the four rounds', () => {
    const pos = (round: number) => seatingOf(round * 4).positions.map((p) => 'ABCD'[p]).join('');
    expect([0, 1, 2, 3].map(pos)).toEqual(['ABCD', 'BADC', 'CDBA', 'DCAB']);
    expect([0, 3, 4, 7, 8, 12, 15].map((i) => seatingOf(i).prevalentWind)).toEqual(['E', 'E', 'S', 'S', 'W', 'N', 'N']);
  });

  it('passes the deal counter-clockwise within a round, so seat winds turn with the dealer', () => {
    // East round: dealers A, B, C, D.
    expect([0, 1, 2, 3].map((i) => 'ABCD'[seatingOf(i).dealer]).join('')).toBe('ABCD');
    // South round, positions B A D C: dealers B, A, D, C.
    expect([4, 5, 6, 7].map((i) => 'ABCD'[seatingOf(i).dealer]).join('')).toBe('BADC');
    expect(seatingOf(0).seatWinds).toEqual(['E', 'S', 'W', 'N']);
    // Hand 2: B deals; C is South, D West, A North.
    expect(seatingOf(1).seatWinds).toEqual(['N', 'E', 'S', 'W']);
    // Hand 5 (South 1): B at E deals, A at S, D at W, C at N.
    expect(seatingOf(4).seatWinds).toEqual(['S', 'E', 'N', 'W']);
    // Hand 16 (North 4): positions D C A B, the dealer is B (position N).
    expect(seatingOf(15).seatWinds).toEqual(['N', 'E', 'W', 'S']);
  });

  it('maps a seat wind to the player in that seat for a hand', () => {
    expect(playerAtSeat(0, 'E')).toBe(A);
    expect(playerAtSeat(1, 'E')).toBe(B);
    expect(playerAtSeat(4, 'S')).toBe(A);
    for (let i = 0; i < 16; i++) {
      const s = seatingOf(i);
      expect(new Set(s.seatWinds).size).toBe(4);
      expect(s.seatWinds[s.dealer]).toBe('E');
      for (const w of ['E', 'S', 'W', 'N'] as const) expect(s.seatWinds[playerAtSeat(i, w)]).toBe(w);
    }
    expect(sheetError(() => seatingOf(16)).code).toBe('NO_SUCH_HAND');
  });
});

describe('payments (004)', () => {
  it.each([
    { name: 'self-drawn: each loser pays 8 + points', hand: win(B, 12, null), out: [-20, 60, -20, -20] },
    { name: 'discard: discarder pays 8 + points, the others 8', hand: win(C, 8, A), out: [-16, -8, 32, -8] },
    { name: 'discard of a big hand', hand: win(A, 88, B), out: [112, -96, -8, -8] },
    { name: 'a draw pays nothing', hand: draw(), out: [0, 0, 0, 0] },
  ])('$name', ({ hand, out }) => {
    expect(handPayments(hand)).toEqual(out);
  });
});

describe('penalties', () => {
  it('a shared penalty goes equally to the other three', () => {
    expect(penaltyPayments([{ player: C, points: 30, split: true }])).toEqual([10, 10, -30, 10]);
  });
  it('a penalty that is not shared is only taken off', () => {
    expect(penaltyPayments([{ player: B, points: 10, split: false }])).toEqual([0, -10, 0, 0]);
    const r = addHand(createSheet(PLAYERS), draw([{ player: B, points: 10, split: false }]));
    expect(computeSheet(r).totals).toEqual([0, -10, 0, 0]);
  });
  it('several penalties in one hand add up, with the hand on top', () => {
    const r = addHand(createSheet(PLAYERS), win(A, 8, B, [
      { player: B, points: 30, split: true },
      { player: D, points: 5, split: false },
    ]));
    const row = computeSheet(r).rows[0];
    expect(row.penalties).toEqual([10, -30, 10, 5]);
    expect(row.payments).toEqual([32, -16, -8, -8]);
    expect(row.delta).toEqual([42, -46, 2, -3]);
  });
  it('a shared penalty must divide by three', () => {
    const e = sheetError(() => addHand(createSheet(PLAYERS), draw([{ player: A, points: 10, split: true }])));
    expect(e).toMatchObject({ code: 'INVALID_PENALTY', hand: 1, field: 'penalties[0].points' });
  });
});

describe('table points 4/2/1/0 with ties', () => {
  it.each([
    { totals: [22, -24, -64, 66], tp: [2, 1, 0, 4] },
    { totals: [10, 10, -5, -15], tp: [3, 3, 1, 0] },
    { totals: [30, 0, 0, -30], tp: [4, 1.5, 1.5, 0] },
    { totals: [5, -5, -5, 5], tp: [3, 0.5, 0.5, 3] },
    { totals: [20, 0, 0, 0], tp: [4, 1, 1, 1] },
    { totals: [0, 0, 0, 0], tp: [1.75, 1.75, 1.75, 1.75] },
  ])('$totals -> $tp', ({ totals, tp }) => {
    expect(tablePointsFor(totals)).toEqual(tp);
    expect(tp.reduce((a, b) => a + b, 0)).toBe(7);
  });
});

describe('table points as printed', () => {
  it('gives shared places to two decimals at most, whole points as they are', () => {
    expect([4, 3, 7 / 3, 1.75, 1.5, 0.5, 0].map(tablePointsText)).toEqual(['4', '3', '2.33', '1.75', '1.5', '0.5', '0']);
  });
  it('the CSV prints them so', () => {
    const record: SheetRecord = { players: PLAYERS, meta: {}, hands: [win(A, 8, null), win(B, 8, null), win(C, 8, null)] };
    expect(computeSheet(record).tablePoints[A]).toBeCloseTo(7 / 3);
    expect(sheetToCsv(record).trim().split('\r\n').pop()).toBe('table points,,,,,,,,,,,,,,2.33,2.33,2.33,0,');
  });
});

describe('bad records name the hand and the field', () => {
  const base = { players: PLAYERS };
  it.each([
    { name: 'unknown winner', hands: [{ winner: 'Erik', discarder: 'Bente', points: 8 }], code: 'UNKNOWN_PLAYER', hand: 1, field: 'winner' },
    { name: 'unknown discarder', hands: [{ draw: true }, { winner: 'Anders', discarder: 'Erik', points: 8 }], code: 'UNKNOWN_PLAYER', hand: 2, field: 'discarder' },
    { name: 'unknown penalised player', hands: [{ draw: true, penalties: [{ player: 'Erik', points: 30, split: true }] }], code: 'UNKNOWN_PLAYER', hand: 1, field: 'penalties[0].player' },
    { name: 'winner is the discarder', hands: [{ winner: 'Bente', discarder: 'Bente', points: 9 }], code: 'WINNER_IS_DISCARDER', hand: 1, field: 'discarder' },
    { name: 'points below 8', hands: [{ draw: true }, { draw: true }, { winner: 'Bente', self_drawn: true, points: 7 }], code: 'POINTS_BELOW_MINIMUM', hand: 3, field: 'points' },
    { name: 'points not a number', hands: [{ winner: 'Bente', self_drawn: true, points: '12' }], code: 'MALFORMED_RECORD', hand: 1, field: 'points' },
    { name: 'fractional points', hands: [{ winner: 'Bente', self_drawn: true, points: 8.5 }], code: 'INVALID_POINTS', hand: 1, field: 'points' },
    { name: 'no discarder and not self-drawn', hands: [{ winner: 'Bente', points: 8 }], code: 'MISSING_FIELD', hand: 1, field: 'discarder' },
    { name: 'self-drawn with a discarder', hands: [{ winner: 'Bente', self_drawn: true, discarder: 'Claus', points: 8 }], code: 'CONFLICTING_FIELDS', hand: 1, field: 'discarder' },
    { name: 'no winner', hands: [{ discarder: 'Claus', points: 8 }], code: 'MISSING_FIELD', hand: 1, field: 'winner' },
    { name: 'draw with a winner', hands: [{ draw: true, winner: 'Claus' }], code: 'CONFLICTING_FIELDS', hand: 1, field: 'winner' },
    { name: 'negative penalty', hands: [{ draw: true, penalties: [{ player: 'Anders', points: -3, split: false }] }], code: 'INVALID_PENALTY', hand: 1, field: 'penalties[0].points' },
    { name: 'more than 16 hands', hands: Array.from({ length: 17 }, () => ({ draw: true })), code: 'TOO_MANY_HANDS', hand: 17, field: 'hands' },
  ])('$name', ({ hands, code, hand, field }) => {
    const e = sheetError(() => parseGameRecord({ ...base, hands }));
    expect(e).toMatchObject({ code, hand, field });
    expect(e.message).toContain(`hand ${hand}`);
    expect(e.message).toContain(`"${field}"`);
  });

  it.each([
    { name: 'three players', players: ['a', 'b', 'c'], code: 'WRONG_PLAYER_COUNT', field: 'players' },
    { name: 'two players with one name', players: ['a', 'b', 'a', 'c'], code: 'DUPLICATE_PLAYER', field: 'players[2]' },
    { name: 'an empty name', players: ['a', ' ', 'b', 'c'], code: 'INVALID_PLAYER_NAME', field: 'players[1]' },
  ])('$name', ({ players, code, field }) => {
    expect(sheetError(() => parseGameRecord({ players, hands: [] }))).toMatchObject({ code, hand: null, field });
  });

  it('text that is not JSON', () => {
    expect(sheetError(() => parseSheetJson('{"players": ['))).toMatchObject({ code: 'MALFORMED_RECORD' });
  });

  it('the editing API refuses the same mistakes, leaving the record alone', () => {
    const r = createSheet(PLAYERS);
    expect(sheetError(() => addHand(r, win(A, 8, A)))).toMatchObject({ code: 'WINNER_IS_DISCARDER', hand: 1, field: 'discarder' });
    expect(sheetError(() => addHand(r, win(5, 8, A)))).toMatchObject({ code: 'UNKNOWN_PLAYER', hand: 1, field: 'winner' });
    expect(sheetError(() => addHand(r, win(A, 6, null)))).toMatchObject({ code: 'POINTS_BELOW_MINIMUM', field: 'points' });
    expect(r.hands).toEqual([]);
    let full = r;
    for (let i = 0; i < 16; i++) full = addHand(full, draw());
    expect(sheetError(() => addHand(full, draw()))).toMatchObject({ code: 'TOO_MANY_HANDS', hand: 17 });
    expect(sheetError(() => editHand(r, 0, draw())).code).toBe('NO_SUCH_HAND');
    expect(sheetError(() => deleteHand(r, 0)).code).toBe('NO_SUCH_HAND');
  });
});

describe('editing', () => {
  it('edits and deletes without touching the original record', () => {
    const r1 = addHand(addHand(createSheet(PLAYERS), win(A, 22, D)), win(B, 8, null));
    const r2 = editHand(r1, 0, draw());
    const r3 = deleteHand(r1, 0);
    expect(computeSheet(r1).totals).toEqual([46 - 16, -8 + 48, -8 - 16, -30 - 16]);
    expect(computeSheet(r2).totals).toEqual([-16, 48, -16, -16]);
    expect(r3.hands).toEqual([win(B, 8, null)]);
    expect(r1.hands).toHaveLength(2);
  });
});

describe('JSON and CSV', () => {
  const record: SheetRecord = {
    players: PLAYERS,
    meta: { tournament: 'Club night', table: '3' },
    hands: [
      { ...win(A, 22, D), source: 'scored', link: 'https://x.example/#/h/abc.00000000' } as SheetHand,
      draw([{ player: C, points: 30, split: true }]),
      win(D, 10, null),
    ],
  };

  it('JSON round-trips and is the CLI format (players by name)', () => {
    const text = sheetToJson(record);
    const data = JSON.parse(text);
    expect(data.players).toEqual(PLAYERS);
    expect(data.hands[0]).toMatchObject({ winner: 'Anders', discarder: 'Dorte', points: 22, source: 'scored' });
    expect(data.hands[2]).toMatchObject({ winner: 'Dorte', self_drawn: true, points: 10 });
    expect(parseSheetJson(text)).toEqual(record);
  });

  it('CSV has a line per hand, the totals and the table points', () => {
    const lines = sheetToCsv(record).trimEnd().split('\r\n');
    expect(lines[0]).toBe('hand,round,dealer,result,winner,discarder,self_drawn,points,source,penalties,Anders change,Bente change,Claus change,Dorte change,Anders total,Bente total,Claus total,Dorte total,link');
    expect(lines[1]).toBe('1,E1,Anders,win,Anders,Dorte,no,22,scored,,46,-8,-8,-30,46,-8,-8,-30,https://x.example/#/h/abc.00000000');
    expect(lines[2]).toBe('2,E2,Bente,draw,,,,,,Claus 30 shared,10,10,-30,10,56,2,-38,-20,');
    expect(lines[4]).toBe('total,,,,,,,,,,,,,,38,-16,-56,34,');
    expect(lines[5]).toBe('table points,,,,,,,,,,,,,,4,1,0,2,');
  });

  it('CSV quotes commas and defuses formulas in names', () => {
    const csv = sheetToCsv(createSheet(['=SUM(A1)', 'Lee, Ann', 'Bo "B"', 'Di']));
    expect(csv.split('\r\n')[0]).toContain(`'=SUM(A1) change,"Lee, Ann change","Bo ""B"" change"`);
  });
});

// ---------------------------------------------------------------------------
// Properties

const penaltyArb = fc.record({
  player: fc.integer({ min: 0, max: 3 }),
  split: fc.boolean(),
  points: fc.integer({ min: 1, max: 40 }),
}).map((p) => ({ ...p, points: p.split ? p.points * 3 : p.points }));

const handArb: fc.Arbitrary<SheetHand> = fc.oneof(
  fc.record({ penalties: fc.array(penaltyArb, { maxLength: 2 }) }).map((h) => draw(h.penalties)),
  fc.record({
    winner: fc.integer({ min: 0, max: 3 }),
    shift: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
    points: fc.integer({ min: 8, max: 400 }),
    penalties: fc.array(penaltyArb, { maxLength: 2 }),
  }).map((h) => win(h.winner, h.points, h.shift === null ? null : (h.winner + h.shift) % 4, h.penalties)),
);

const recordArb = fc.array(handArb, { maxLength: 16 }).map((hands): SheetRecord => ({ players: PLAYERS, hands, meta: {} }));

describe('properties', () => {
  it('totals sum to zero when every penalty is shared (and to minus the other penalties otherwise)', () => {
    fc.assert(fc.property(recordArb, (record) => {
      const { totals, rows } = computeSheet(record);
      const takenOff = record.hands.flatMap((h) => h.penalties).filter((p) => !p.split).reduce((s, p) => s + p.points, 0);
      expect(totals.reduce((a, b) => a + b, 0) + takenOff).toBe(0);
      for (const row of rows) expect(row.payments.reduce((a, b) => a + b, 0)).toBe(0);
      if (takenOff === 0) expect(totals.reduce((a, b) => a + b, 0)).toBe(0);
    }));
  });

  it('the last running total is the total, and table points always add up to 7', () => {
    fc.assert(fc.property(recordArb, (record) => {
      const s = computeSheet(record);
      expect(s.rows.at(-1)?.running ?? [0, 0, 0, 0]).toEqual(s.totals);
      expect(s.tablePoints.reduce((a, b) => a + b, 0)).toBeCloseTo(7, 10);
    }));
  });

  it('JSON export and import give back the same record', () => {
    fc.assert(fc.property(recordArb, (record) => {
      expect(parseSheetJson(sheetToJson(record))).toEqual(record);
    }));
  });
});
