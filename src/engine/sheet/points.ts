/**
 * Table points and places (rules document 004: 4/2/1/0, tied players share), and the computed
 * sheet: every row, the running totals and the table points, derived from a record.
 */
import { TABLE_POINTS, rulesOf, type SheetHand, type SheetRecord } from './record.ts';
import { seatingsOf, type HandSeating } from './seating.ts';
import { handPayments, penaltyPayments } from './payments.ts';
import { validateSheetRecord } from './validation.ts';

/**
 * Table points for final totals (004: 4/2/1/0). Players with equal totals share
 * the points of the places they occupy together: two tied for first get
 * (4 + 2) / 2 = 3 each.
 */
export function tablePointsFor(totals: readonly number[]): number[] {
  const order = totals.map((t, i) => ({ t, i })).sort((a, b) => b.t - a.t);
  const out = new Array<number>(totals.length).fill(0);
  let place = 0;
  while (place < order.length) {
    let end = place;
    while (end + 1 < order.length && order[end + 1].t === order[place].t) end++;
    let sum = 0;
    for (let q = place; q <= end; q++) sum += TABLE_POINTS[q] ?? 0;
    const share = sum / (end - place + 1);
    for (let q = place; q <= end; q++) out[order[q].i] = share;
    place = end + 1;
  }
  return out;
}

/** Table points as printed: shared places give thirds and quarters (7/3 = 2.33, 1.75), shown to
 * two decimals at most; whole numbers as they are. */
export function tablePointsText(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/0+$/, '');
}

/** 1-based places for totals; tied players share the better place. */
export function placesFor(totals: readonly number[]): number[] {
  return totals.map((t) => 1 + totals.filter((u) => u > t).length);
}

export interface SheetRow {
  /** 0-based hand index. */
  index: number;
  seating: HandSeating;
  hand: SheetHand;
  /** Score changes from penalties in this hand. */
  penalties: number[];
  /** Score changes from the hand's payments. */
  payments: number[];
  /** penalties + payments. */
  delta: number[];
  /** Running totals after this hand. */
  running: number[];
}

export interface ComputedSheet {
  rows: SheetRow[];
  totals: number[];
  tablePoints: number[];
  places: number[];
  /** True when the game is over: all 16 hands are on the sheet (MCR), or the deal has gone round
   * the table four times (Fan Pays). */
  complete: boolean;
  /** 0-based index of the next hand, or null when the sheet is full. */
  nextHand: number | null;
  /** The seats of the next hand (seatingsOf), or null when the game is over. */
  next: HandSeating | null;
}

/** Validate a record and derive every row, the running totals and the table points. */
export function computeSheet(record: SheetRecord): ComputedSheet {
  validateSheetRecord(record);
  const rules = rulesOf(record);
  const { seatings, next } = seatingsOf(record);
  const running = [0, 0, 0, 0];
  const rows: SheetRow[] = record.hands.map((hand, index) => {
    const penalties = penaltyPayments(hand.penalties);
    const payments = handPayments(hand, rules);
    const delta = penalties.map((v, p) => v + payments[p]);
    delta.forEach((d, p) => { running[p] += d; });
    return { index, seating: seatings[index]!, hand, penalties, payments, delta, running: [...running] };
  });
  const totals = [...running];
  return {
    rows,
    totals,
    tablePoints: tablePointsFor(totals),
    places: placesFor(totals),
    complete: next === null,
    nextHand: next ? record.hands.length : null,
    next,
  };
}
