/**
 * MCR payments (rules 004 and 001): every loser pays 8 base points; on a
 * self-drawn win each of the three pays 8 + X; on a discard the discarder pays
 * 8 + X and the other two pay 8 each. X includes flowers.
 */
import type { WinContext } from './hand.ts';
import type { Payments } from './result.ts';
import { WINDS } from './tiles.ts';

export const MCR_BASE = 8;

/** Amount each seat receives (+) or pays (−). Null when a discard win names no discarder. */
export function mcrPayments(points: number, ctx: Pick<WinContext, 'seatWind' | 'selfDrawn' | 'discarder'>): Payments | null {
  const pay: Payments = { E: 0, S: 0, W: 0, N: 0 };
  if (!ctx.selfDrawn && !ctx.discarder) return null;
  for (const w of WINDS) {
    if (w === ctx.seatWind) continue;
    const amount = ctx.selfDrawn || w === ctx.discarder ? MCR_BASE + points : MCR_BASE;
    pay[w] -= amount;
    pay[ctx.seatWind] += amount;
  }
  return pay;
}
