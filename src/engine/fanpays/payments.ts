/**
 * Card 002 payments, in fans times the value of one fan.
 *
 * - Self-drawn: all three other players pay ("Self-drawn MJ tile; all players pay").
 * - On a discard: the discarder pays; when a kong is robbed, the player who drew the
 *   fourth tile pays ("Stealing the Kong ... the player that drew the 4th tile pays").
 * - Dealer Penalty fans are given by the dealer alone ("Dealer gives one fan for
 *   each consecutive win"), so on a self-drawn win the other two pay without them.
 * - Secret Kong: whoever declares a concealed kong "immediately receives one (1)
 *   fan from the other three players"; reported apart from the win.
 */
import type { Payments } from '../result.ts';
import { WINDS, type Wind } from '../tiles.ts';

export const zeroPayments = (): Payments => ({ E: 0, S: 0, W: 0, N: 0 });

export interface WinPaymentInput {
  total: number;
  /** Fans of Dealer Penalty inside `total`. */
  dealerPenalty: number;
  fanValue: number;
  seatWind: Wind;
  dealer: Wind;
  selfDrawn: boolean;
  discarder: Wind | null;
}

/** What each seat receives (+) or pays (−) for the win; null when a discard win names no discarder. */
export function winPayments(p: WinPaymentInput): Payments | null {
  if (!p.selfDrawn && !p.discarder) return null;
  const pay = zeroPayments();
  for (const w of WINDS) {
    if (w === p.seatWind) continue;
    if (!p.selfDrawn && w !== p.discarder) continue;
    const fans = w === p.dealer ? p.total : p.total - p.dealerPenalty;
    const amount = fans * p.fanValue;
    pay[w] -= amount;
    pay[p.seatWind] += amount;
  }
  return pay;
}

/** Secret Kong payments: one fan from each of the other three players per concealed kong declared. */
export function secretKongPayments(holders: readonly Wind[], fanValue: number): Payments {
  const pay = zeroPayments();
  for (const h of holders) {
    for (const w of WINDS) {
      if (w === h) continue;
      pay[w] -= fanValue;
      pay[h] += fanValue;
    }
  }
  return pay;
}

export function addPayments(a: Payments, b: Payments): Payments {
  return { E: a.E + b.E, S: a.S + b.S, W: a.W + b.W, N: a.N + b.N };
}
