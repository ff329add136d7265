/**
 * The sheet as CSV (one line per hand, then totals and table points) and a hand in words.
 */
import { rulesOf, type PlayerIndex, type SheetHand, type SheetRecord } from './record.ts';
import { computeSheet, tablePointsText } from './points.ts';

function csvCell(v: string | number): string {
  if (typeof v === 'number') return String(v);
  // A text cell starting with = + - @ would run as a formula in a spreadsheet.
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A short description of a hand, e.g. "Anders wins 22 on Dorte's discard". */
export function describeHand(record: SheetRecord, hand: SheetHand): string {
  const name = (p: PlayerIndex) => record.players[p];
  const parts: string[] = hand.penalties.map((pen) =>
    `${name(pen.player)} penalty ${pen.points}${pen.split ? ' (shared)' : ''}`);
  const won = hand.kind === 'win' ? `${hand.points}${rulesOf(record) === 'fan-pays' ? ' fans' : ''}` : '';
  if (hand.kind === 'draw') parts.push('draw');
  else if (hand.selfDrawn) parts.push(`${name(hand.winner)} wins ${won} self-drawn`);
  else parts.push(`${name(hand.winner)} wins ${won} on ${name(hand.discarder as PlayerIndex)}'s discard`);
  return parts.join('; ');
}

/** One line per hand with its changes and running totals, then totals and table points. */
export function sheetToCsv(record: SheetRecord): string {
  const sheet = computeSheet(record);
  const P = record.players;
  const header = [
    'hand', 'round', 'dealer', 'result', 'winner', 'discarder', 'self_drawn', rulesOf(record) === 'fan-pays' ? 'fans' : 'points', 'source', 'penalties',
    ...P.map((p) => `${p} change`), ...P.map((p) => `${p} total`), 'link',
  ];
  const lines: (string | number)[][] = [header];
  for (const row of sheet.rows) {
    const h = row.hand;
    const pens = h.penalties.map((pen) => `${P[pen.player]} ${pen.points}${pen.split ? ' shared' : ''}`).join('; ');
    lines.push([
      row.index + 1,
      `${row.seating.prevalentWind}${row.seating.handInRound}`,
      P[row.seating.dealer],
      h.kind,
      h.kind === 'win' ? P[h.winner] : '',
      h.kind === 'win' && h.discarder !== null ? P[h.discarder] : '',
      h.kind === 'win' ? (h.selfDrawn ? 'yes' : 'no') : '',
      h.kind === 'win' ? h.points : '',
      h.kind === 'win' ? h.source : '',
      pens,
      ...row.delta,
      ...row.running,
      h.kind === 'win' ? h.link ?? '' : '',
    ]);
  }
  const blank = (n: number) => new Array<string>(n).fill('');
  lines.push(['total', ...blank(9), ...blank(4), ...sheet.totals, '']);
  lines.push(['table points', ...blank(9), ...blank(4), ...sheet.tablePoints.map(tablePointsText), '']);
  return lines.map((l) => l.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
