/**
 * Score-sheet CLI.
 *
 *   npm run --silent sheet -- [--json] [file] < game.json
 *
 * Reads a game record (see src/engine/sheet.ts, "The game-record JSON") from the
 * file or stdin and prints the sheet. With --json the last line is
 * {"totals": [..4], "table_points": [..4], "hands": [[..4], ...]} in player order,
 * where each entry of "hands" is the score change of that hand, penalties included.
 * A bad record prints one line naming the hand and the field, and exits 1.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { computeSheet, describeHand, tablePointsText, isSheetError, parseSheetJson, type ComputedSheet, type SheetRecord } from '../engine/sheet.ts';

const USAGE = 'usage: npm run --silent sheet -- [--json] [game.json]   (reads stdin when no file is given)';

const signed = (n: number): string => (n > 0 ? `+${n}` : n === 0 ? '0' : `${n}`);

export function renderSheet(record: SheetRecord, sheet: ComputedSheet): string {
  const names = record.players;
  // Each line: a label, four player cells, an optional note; or a heading.
  type Line = { label: string; cells: string[]; note?: string } | { heading: string };
  const body: Line[] = [];
  let round = -1;
  for (const row of sheet.rows) {
    if (row.seating.round !== round) {
      round = row.seating.round;
      const seats = row.seating.positions.map((p, i) => `${'ESWN'[i]} ${names[p]}`).join(', ');
      body.push({ heading: `-- ${['East', 'South', 'West', 'North'][round]} round (${seats})` });
    }
    const hasPenalty = row.hand.penalties.length > 0;
    // As on the 003 sheet, a hand with a penalty shows "penalty / hand" per player.
    const cells = row.delta.map((_, p) =>
      hasPenalty ? `${signed(row.penalties[p])} / ${signed(row.payments[p])}` : signed(row.delta[p]));
    body.push({ label: `${row.index + 1} ${row.seating.prevalentWind}${row.seating.handInRound}`, cells, note: describeHand(record, row.hand) });
    body.push({ label: '', cells: row.running.map(String) });
  }
  body.push({ label: 'total', cells: sheet.totals.map(String) });
  body.push({ label: 'table pts', cells: sheet.tablePoints.map(tablePointsText) });
  const width = 2 + Math.max(6, ...names.map((n) => n.length), ...body.flatMap((l) => ('cells' in l ? l.cells.map((c) => c.length) : [])));
  const render = (label: string, cells: string[], note?: string) =>
    `${label.padEnd(10)}${cells.map((c) => c.padStart(width)).join('')}${note ? `   ${note}` : ''}`;
  const lines: string[] = [];
  const meta = Object.entries(record.meta).filter(([, v]) => v).map(([k, v]) => `${k}: ${v}`);
  if (meta.length) lines.push(meta.join('   '));
  lines.push(render('hand', names));
  for (const l of body) lines.push('heading' in l ? l.heading : render(l.label, l.cells, l.note));
  return lines.join('\n');
}

export function main(argv: string[], readStdin: () => string): { out: string; err: string; code: number } {
  const json = argv.includes('--json');
  const rest = argv.filter((a) => a !== '--json');
  if (rest.includes('--help') || rest.includes('-h')) return { out: USAGE, err: '', code: 0 };
  const unknown = rest.find((a) => a.startsWith('-'));
  if (unknown) return { out: '', err: `error: unknown option ${unknown}\n${USAGE}`, code: 2 };
  if (rest.length > 1) return { out: '', err: `error: give at most one file\n${USAGE}`, code: 2 };
  let text: string;
  try {
    text = rest.length === 1 ? readFileSync(rest[0], 'utf8') : readStdin();
  } catch (e) {
    return { out: '', err: `error: cannot read ${rest[0] ?? 'stdin'}: ${(e as Error).message}`, code: 2 };
  }
  try {
    const record = parseSheetJson(text);
    const sheet = computeSheet(record);
    let out = renderSheet(record, sheet);
    if (json) {
      out += `\n${JSON.stringify({ totals: sheet.totals, table_points: sheet.tablePoints, hands: sheet.rows.map((r) => r.delta) })}`;
    }
    return { out, err: '', code: 0 };
  } catch (e) {
    if (isSheetError(e)) return { out: '', err: `error: ${e.message}`, code: 1 };
    throw e;
  }
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const { out, err, code } = main(process.argv.slice(2), () => readFileSync(0, 'utf8'));
  if (out) process.stdout.write(`${out}\n`);
  if (err) process.stderr.write(`${err}\n`);
  process.exitCode = code;
}
