/**
 * Command-line scorer.
 *
 *   npm run score -- "<hand>" --seat S --round E --self-drawn --flowers 2
 *   npm run score -- "<hand>" --discarder N --json
 *   npm run score -- "<13 tiles>" --what-if
 *   npm run --silent score -- --batch < hands.jsonl
 */
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import {
  allDecompositions, formatHand, isMahjongError, MahjongError, parseHand, scoreMcr, tileCode, whatIf,
  type ScoreResult, type WinContext, type Wind,
} from '../engine/index.ts';
import { parseWaitingHand } from '../engine/notation.ts';
import { errorJson, resultToBatch, scoreRawLine } from './batch.ts';
import { FAN_PAYS_HELP, FAN_PAYS_OPTIONS, fanPaysFlags, runFanPays } from './fanpays.ts';

const HELP = `Usage: npm run score -- "<hand>" [options]

Hand notation: [123p1][345s2][999s3]78mEE6m  or  123m456p789s1122z (last tile = winning tile)

Win context:
  --seat E|S|W|N          seat wind of the winner (default E)
  --round E|S|W|N         prevalent (round) wind (default E)
  --self-drawn            won on a tile the winner drew
  --discarder E|S|W|N     seat wind of the player who discarded the winning tile
  --last-of-kind          the winning tile was the last of its kind
  --last-tile             won on the last tile of the wall (draw or claim)
  --replacement           won on the replacement tile after a kong (self-drawn)
  --robbing-kong          won by robbing a kong
  --flowers N             number of flowers (0-8)
Output:
  --json                  machine output (one JSON object)
  --what-if               the hand is 13 tiles + melds: score every winning tile
  --all                   list every way to read the hand, each scored
  --batch                 read JSON lines on stdin, write one JSON line each
  --rules mcr|fan-pays    ruleset (default mcr); in --batch a line's "rules" wins
${FAN_PAYS_HELP}`;

const WINDS = ['E', 'S', 'W', 'N'];

function fail(message: string): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(2);
}

function wind(v: string | undefined, name: string, dflt: Wind | null): Wind | null {
  if (v === undefined) return dflt;
  const u = v.toUpperCase();
  if (!WINDS.includes(u)) fail(`--${name} must be one of E, S, W, N (got "${v}")`);
  return u as Wind;
}

function describe(r: ScoreResult, lang: 'en' = 'en'): string {
  const lines: string[] = [];
  if (r.error && r.error.code !== 'BELOW_MINIMUM') return `Not a valid win: ${r.error.message}`;
  for (const f of r.fans) {
    const pts = f.points * f.count;
    lines.push(`  ${String(f.id).padStart(2)}  ${f.names[lang].padEnd(34)} ${f.names.zh.padEnd(6, '\u3000')} ${f.count > 1 ? `${f.points} x ${f.count}` : ''}`.trimEnd().padEnd(60) + `${String(pts).padStart(4)}`);
  }
  lines.push(`  ${'Total'.padEnd(56)}${String(r.total).padStart(4)}`);
  if (r.fans.some((f) => f.id === 81)) lines.push(`  ${'Without flowers'.padEnd(56)}${String(r.totalWithoutFlowers).padStart(4)}`);
  lines.push(r.validWin ? `  Valid win (minimum ${r.minimum} without flowers).` : `  NOT a valid win: ${r.error!.message}.`);
  if (r.notCounted.length) {
    lines.push('', 'Not counted:');
    for (const n of r.notCounted) lines.push(`  ${String(n.id).padStart(2)}  ${n.message}`);
  }
  if (r.decomposition) {
    const sets = r.decomposition.sets.map((s) => {
      const t = s.kind === 'knitted' ? s.tiles!.map(tileCode).join('') : s.kind === 'chow' ? [s.tile, s.tile + 1, s.tile + 2].map(tileCode).join('') : Array(s.kind === 'kong' ? 4 : s.kind === 'pair' ? 2 : 3).fill(tileCode(s.tile)).join('');
      return `${s.kind}${s.declared ? (s.concealed ? '(concealed)' : '(melded)') : ''} ${t}`;
    });
    lines.push('', `Read as (${r.decomposition.kind}): ${sets.join(' | ')}`);
  }
  if (r.waits.length) lines.push(`Waits before the win: ${r.waits.map(tileCode).join(' ')}`);
  if (r.payments) {
    lines.push('', 'Payments:');
    for (const w of WINDS) lines.push(`  ${w}  ${(r.payments as Record<string, number>)[w]! > 0 ? '+' : ''}${(r.payments as Record<string, number>)[w]}`);
  } else if (r.validWin) lines.push('', 'Payments: name the discarder (--discarder) or use --self-drawn.');
  return lines.join('\n');
}

async function batch(rules: string): Promise<void> {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  let n = 0;
  for await (const line of rl) {
    n++;
    if (line.trim() === '') continue;
    process.stdout.write(JSON.stringify(scoreRawLine(line, n, rules)) + '\n');
  }
}

process.stdout.on('error', (e: NodeJS.ErrnoException) => { if (e.code === 'EPIPE') process.exit(0); throw e; });

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        seat: { type: 'string' }, round: { type: 'string' }, 'self-drawn': { type: 'boolean' },
        discarder: { type: 'string' }, 'last-of-kind': { type: 'boolean' }, 'last-tile': { type: 'boolean' },
        replacement: { type: 'boolean' }, 'robbing-kong': { type: 'boolean' }, flowers: { type: 'string' },
        json: { type: 'boolean' }, batch: { type: 'boolean' }, 'what-if': { type: 'boolean' }, all: { type: 'boolean' },
        rules: { type: 'string' }, help: { type: 'boolean', short: 'h' }, ...FAN_PAYS_OPTIONS,
      },
    });
  } catch (e) {
    fail((e as Error).message);
  }
  const o = parsed.values;
  if (o.help) { process.stdout.write(HELP); return; }
  const rules = o.rules ?? 'mcr';
  if (rules !== 'mcr' && rules !== 'fan-pays') fail(`unknown ruleset "${rules}" (known: mcr, fan-pays)`);
  const fanPaysFlag = Object.keys(FAN_PAYS_OPTIONS).find((k) => (o as Record<string, unknown>)[k] !== undefined);
  if (rules === 'mcr' && fanPaysFlag) fail(`--${fanPaysFlag} is a Fan Pays option (add --rules fan-pays)`);
  if (o.batch) { await batch(rules); return; }
  if (parsed.positionals.length !== 1) fail('give exactly one hand, in quotes (see --help)');
  const flowers = o.flowers === undefined ? 0 : Number(o.flowers);
  if (!Number.isInteger(flowers) || flowers < 0 || flowers > 8) fail('--flowers must be a whole number from 0 to 8');
  const ctx: WinContext = {
    seatWind: wind(o.seat, 'seat', 'E')!, prevalentWind: wind(o.round, 'round', 'E')!,
    selfDrawn: !!o['self-drawn'], discarder: wind(o.discarder, 'discarder', null),
    lastOfKind: !!o['last-of-kind'], lastTileOfWall: !!o['last-tile'], replacementTile: !!o.replacement,
    robbingKong: !!o['robbing-kong'], flowers,
  };
  const text = parsed.positionals[0]!;
  if (rules === 'fan-pays') {
    runFanPays(text, { ...ctx, ...fanPaysFlags(o, fail) }, { json: !!o.json, all: !!o.all, whatIf: !!o['what-if'] }, (s) => process.stdout.write(s), fail);
    return;
  }
  try {
    if (o['what-if']) {
      const hand = parseWaitingHand(text);
      const list = whatIf(hand, ctx);
      if (o.json) { process.stdout.write(JSON.stringify(list.map((w) => ({ tile: tileCode(w.tile), ...resultToBatch(null, w.result) }))) + '\n'); return; }
      if (!list.length) { process.stdout.write(`${formatHand(hand)} is not waiting on any tile.\n`); return; }
      for (const w of list) process.stdout.write(`Win on ${tileCode(w.tile)}: ${w.result.validWin ? `${w.result.total} points` : w.result.error!.message}\n   ${w.result.fans.map((f) => `${f.names.en} ${f.points}${f.count > 1 ? 'x' + f.count : ''}`).join(', ')}\n`);
      return;
    }
    const hand = parseHand(text);
    if (o.all) {
      const list = allDecompositions(hand, ctx);
      if (o.json) { process.stdout.write(JSON.stringify(list.map((r) => ({ decomposition: r.decomposition, ...resultToBatch(null, r) }))) + '\n'); return; }
      list.forEach((r, i) => process.stdout.write(`#${i + 1}\n${describe(r)}\n\n`));
      return;
    }
    const r = scoreMcr(hand, ctx);
    if (o.json) { process.stdout.write(JSON.stringify({ hand: formatHand(hand), ...r }) + '\n'); }
    else if (!r.error || r.error.code === 'BELOW_MINIMUM') process.stdout.write(`${formatHand(hand)}\n\n${describe(r)}\n`);
    if (r.error && r.error.code !== 'BELOW_MINIMUM') fail(r.error.message);
  } catch (e) {
    if (isMahjongError(e)) {
      if (o.json) process.stdout.write(JSON.stringify(errorJson(text, e)) + '\n');
      fail(e.message);
    }
    throw e;
  }
}

main().catch((e: unknown) => fail(e instanceof MahjongError ? e.message : `unexpected failure: ${(e as Error).message}`));
