/**
 * Standings from the sheets (docs/event-api.md, "Standings"). Each table's sheet is computed by
 * the engine (computeSheet: payments of document 004, table points 4/2/1/0 with tied players
 * sharing the points of the places they tie for); a player's event result is the sum over
 * sessions. Ranking (document 004): total table points, then total score; players still tied
 * share a rank.
 */
import { computeSheet, isSheetError, type SheetHand, type SheetRecord, type SheetRules } from '../engine/sheet.ts';
import type { HandCheck, Resolution, Standing, Standings } from './protocol.ts';

export interface StandingsSheet {
  session: number;
  table: number;
  /** Seat order A B C D. */
  players: readonly string[];
  /** Live hands in play order, each with the server's check and the referee's decision. */
  entries: readonly { hand: SheetHand; check: HandCheck; resolution?: Resolution }[];
}

export interface StandingsInput {
  eventId: string;
  name: string;
  rules: SheetRules;
  players: readonly string[];
  updatedAt: number;
  sheets: readonly StandingsSheet[];
}

/**
 * The hand the standings count: the server's total, unless the referee accepted the table's.
 * A flagged hand with no server total (its link cannot be read) keeps the table's until the
 * referee decides. Fan Pays amounts worked out for another total are dropped, so the plain
 * per-fan rule pays the server's total.
 */
export function countedHand(hand: SheetHand, check: HandCheck, resolution?: Resolution): SheetHand {
  if (hand.kind !== 'win' || resolution === 'accept-table' || check.serverPoints === undefined || check.serverPoints === hand.points) return hand;
  const { amounts: _dropped, ...rest } = hand;
  return { ...rest, points: check.serverPoints };
}

export interface SheetResult {
  totals: number[];
  tablePoints: number[];
  /** Hands counted: all of them, unless a hand breaks the sheet (then those before it). */
  counted: number;
}

/** computeSheet over the longest valid run of hands from the start, so one bad hand (a Fan Pays
 * hand after the game's end, say) cannot stop the standings. */
export function computeSheetLenient(record: SheetRecord): SheetResult {
  let hands = record.hands;
  for (;;) {
    try {
      const c = computeSheet({ ...record, hands });
      return { totals: c.totals, tablePoints: c.tablePoints, counted: hands.length };
    } catch (e) {
      if (!isSheetError(e) || e.hand === null || e.hand < 1 || e.hand > hands.length) throw e;
      hands = hands.slice(0, e.hand - 1);
    }
  }
}

/** Rank by table points, then score; tied players share the better rank (1, 2, 2, 4). */
export function rankPlayers<T extends { tablePoints: number; score: number }>(rows: readonly T[]): (T & { rank: number })[] {
  const sorted = [...rows].sort((a, b) => b.tablePoints - a.tablePoints || b.score - a.score);
  return sorted.map((r) => ({ ...r, rank: 1 + sorted.filter((o) => o.tablePoints > r.tablePoints || (o.tablePoints === r.tablePoints && o.score > r.score)).length }));
}

/** Table points are kept to 1e-9 so that sums of thirds compare equal (7/3 + 2/3 = 3). */
const tidy = (v: number): number => Math.round(v * 1e9) / 1e9;

export function computeStandings(input: StandingsInput): Standings {
  const per = new Map<string, Standing['perSession']>();
  for (const name of input.players) per.set(name, []);
  const sheets = [...input.sheets].sort((a, b) => a.session - b.session || a.table - b.table);
  for (const sheet of sheets) {
    // A table that has not played a hand yet has no result (not four shared places).
    if (sheet.entries.length === 0) continue;
    const record: SheetRecord = {
      players: [...sheet.players],
      hands: sheet.entries.map((e) => countedHand(e.hand, e.check, e.resolution)),
      meta: {},
      rules: input.rules,
    };
    const result = computeSheetLenient(record);
    sheet.players.forEach((name, p) => {
      const list = per.get(name);
      if (list) list.push({ session: sheet.session, table: sheet.table, tablePoints: result.tablePoints[p], score: result.totals[p] });
    });
  }
  const rows = input.players.map((name) => {
    const perSession = per.get(name) ?? [];
    return {
      name,
      tablePoints: tidy(perSession.reduce((s, x) => s + x.tablePoints, 0)),
      score: perSession.reduce((s, x) => s + x.score, 0),
      perSession,
    };
  });
  const ranked = rankPlayers(rows).sort((a, b) => a.rank - b.rank || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    eventId: input.eventId,
    name: input.name,
    rules: input.rules,
    updatedAt: input.updatedAt,
    players: ranked.map((r) => ({ name: r.name, rank: r.rank, tablePoints: r.tablePoints, score: r.score, perSession: r.perSession })),
  };
}
