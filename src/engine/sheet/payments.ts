/**
 * What each player pays or receives for one hand (rules document 004 for MCR, card 002 for
 * Fan Pays), and the score changes from its penalties (003's worked example).
 */
import { BASE_PAYMENT, PLAYER_COUNT, type Penalty, type SheetHand, type SheetRules } from './record.ts';

/** What each player receives (+) or pays (−) for the hand itself, penalties apart. */
export function handPayments(hand: SheetHand, rules: SheetRules = 'mcr'): number[] {
  const out = [0, 0, 0, 0];
  if (hand.kind === 'draw') return out;
  const { winner, points } = hand;
  if (rules === 'fan-pays') {
    if (hand.amounts) return [...hand.amounts];
    // Card 002: "Self-drawn MJ tile; all players pay"; on a discard the discarder pays.
    for (let p = 0; p < PLAYER_COUNT; p++) {
      if (p === winner || (!hand.selfDrawn && p !== hand.discarder)) continue;
      out[p] -= points;
      out[winner] += points;
    }
    return out;
  }
  for (let p = 0; p < PLAYER_COUNT; p++) {
    if (p === winner) continue;
    // 004: self-drawn, every loser pays EP + PP; on a discard the discarder pays
    // EP + PP and the other two pay EP only.
    const pays = hand.selfDrawn || p === hand.discarder ? BASE_PAYMENT + points : BASE_PAYMENT;
    out[p] -= pays;
    out[winner] += pays;
  }
  return out;
}

/** Score changes from a hand's penalties. */
export function penaltyPayments(penalties: readonly Penalty[]): number[] {
  const out = [0, 0, 0, 0];
  for (const pen of penalties) {
    out[pen.player] -= pen.points;
    if (pen.split) {
      const share = pen.points / (PLAYER_COUNT - 1);
      for (let p = 0; p < PLAYER_COUNT; p++) if (p !== pen.player) out[p] += share;
    }
  }
  return out;
}
