/**
 * The results CSV in the layout the EMA's tournament result pages use: one row per player by
 * rank, with name, table points ("points") and score ("mahjong points"), then each session's
 * table points and score. EMA numbers and countries are not known to the app: their columns are
 * left empty for the director to fill in before sending the file.
 */
import { tablePointsText } from '../engine/sheet.ts';
import type { Standings } from './protocol.ts';

/** A text cell: quoted when it holds a comma, quote or line break; a leading = + - @ is escaped
 * with an apostrophe so a spreadsheet does not run a name as a formula. */
function cell(text: string): string {
  const v = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export function standingsToEmaCsv(s: Standings, sessions: number): string {
  const header = ['Rank', 'Name', 'EMA number', 'Country', 'Table points', 'Score'];
  for (let k = 1; k <= sessions; k++) header.push(`Session ${k} table`, `Session ${k} table points`, `Session ${k} score`);
  const lines = [header.join(',')];
  for (const p of s.players) {
    const row = [String(p.rank), cell(p.name), '', '', tablePointsText(p.tablePoints), String(p.score)];
    for (let k = 1; k <= sessions; k++) {
      const r = p.perSession.find((x) => x.session === k);
      row.push(r ? String(r.table) : '', r ? tablePointsText(r.tablePoints) : '', r ? String(r.score) : '');
    }
    lines.push(row.join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
