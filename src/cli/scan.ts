/**
 * npm run --silent scan -- [--json] [--as-tile] [--score] FILE...
 *
 *   --json     one JSON line per file: {"file","width","height","tiles":[{"code","score","box":[x,y,w,h]}]}
 *              (reading order; boxes in pixels of the original, EXIF-rotated photo)
 *   --as-tile  treat each image as one tile: {"file","top":[{"code","score"} x3]}
 *   --score    pass the recognised hand to the scoring engine (src/engine)
 *
 * A bad file gives one error line (stderr, or {"file","error":{"code","message"}} with --json)
 * and a non-zero exit status; the other files are still processed.
 */
import { readFile } from 'node:fs/promises';
import { classifyTileBytes, loadDefaultModels, scanBytes } from '../vision/node.ts';
import { needsCheck, VisionError, type ScanResult } from '../vision/types.ts';
import { retakeAdvice } from '../vision/postprocess.ts';
import { formatHand, scoreTiles } from '../engine/index.ts';

interface Args { json: boolean; asTile: boolean; score: boolean; files: string[] }

function parseArgs(argv: string[]): Args {
  const a: Args = { json: false, asTile: false, score: false, files: [] };
  for (const x of argv) {
    if (x === '--json') a.json = true;
    else if (x === '--as-tile') a.asTile = true;
    else if (x === '--score') a.score = true;
    else if (x === '--help' || x === '-h') {
      console.log('usage: npm run --silent scan -- [--json] [--as-tile] [--score] FILE...');
      process.exit(0);
    } else if (x.startsWith('--')) {
      console.error(`scan: unknown option ${x}`);
      process.exit(2);
    } else a.files.push(x);
  }
  return a;
}

// ------------------------------------------------------------------ scoring hook
/**
 * Hand the recognised tiles to the scoring engine (src/engine `scoreTiles`):
 * sets laid apart with a sideways tile are melded, two face-down tiles with a
 * pair are a concealed kong, flowers are counted, and the winning tile is the
 * last concealed tile in reading order. Default win conditions (East seat and
 * round, discard win); the app asks for the real ones.
 */
export function scoreRecognisedHand(result: ScanResult): { hand: string; valid_win: boolean; error: string | null; total: number; fans: { id: number; name: string; points: number; count: number }[] } {
  const { hand, result: r } = scoreTiles(result.tiles.map((t) => t.code), { tiles: result.tiles });
  if (r.error && r.error.code !== 'BELOW_MINIMUM') throw new Error(`not scored: ${r.error.message} (read as ${formatHand(hand)})`);
  return {
    hand: formatHand(hand), valid_win: r.validWin, error: r.error?.message ?? null, total: r.total,
    fans: r.fans.map((f) => ({ id: f.id, name: f.names.en, points: f.points, count: f.count })),
  };
}

function readable(file: string, r: ScanResult): string {
  const lines = [`${file}: ${r.width}x${r.height}, ${r.tiles.length} tiles`];
  if (r.reason) lines.push(`  (${r.reason})`);
  let row = -1;
  let line = '';
  r.tiles.forEach((t, i) => {
    if (t.row !== row) {
      if (line) lines.push(line);
      row = t.row ?? 0;
      line = `  row ${row + 1}:`;
    }
    const prev = r.tiles[i - 1];
    if (prev && prev.row === t.row && prev.group !== t.group) line += ' |';
    line += ` ${t.code}${t.sideways ? '(side)' : ''}${needsCheck(t.score) ? '?' : ''}`;
  });
  if (line) lines.push(line);
  for (const n of r.notes ?? []) lines.push(`  note: ${n}`);
  const retake = retakeAdvice(r.tiles.map((t) => t.score));
  if (retake) lines.push(`  ${retake.unsure} of ${retake.of} tiles are uncertain (marked ?): if the photo is blurred, dark or steep, take it again`);
  for (const d of r.leftOut ?? []) lines.push(`  left out: ${d.code}? (score ${d.score.toFixed(2)}) at [${d.box.map((v) => Math.round(v)).join(', ')}]`);
  return lines.join('\n');
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (!args.files.length) {
    console.error('usage: npm run --silent scan -- [--json] [--as-tile] [--score] FILE...');
    return 2;
  }
  let models;
  try {
    models = await loadDefaultModels();
  } catch (e) {
    console.error(`scan: ${(e as Error).message}`);
    return 3;
  }
  let failed = 0;
  for (const file of args.files) {
    try {
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(await readFile(file));
      } catch (e) {
        throw new VisionError('decode-failed', `cannot read file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      if (args.asTile) {
        const top = await classifyTileBytes(bytes, models, 3);
        if (args.json) console.log(JSON.stringify({ file, top }));
        else console.log(`${file}: ${top.map((t) => `${t.code} ${(t.score * 100).toFixed(1)}%`).join(', ')}`);
        continue;
      }
      const r = await scanBytes(bytes, models);
      let scored: unknown;
      let scoreError: string | undefined;
      if (args.score) {
        try {
          scored = scoreRecognisedHand(r);
        } catch (e) {
          scoreError = (e as Error).message;
          failed++;
        }
      }
      if (args.json) {
        const out: Record<string, unknown> = {
          file,
          width: r.width,
          height: r.height,
          tiles: r.tiles.map((t) => ({ code: t.code, score: t.score, box: t.box, ...(t.sideways ? { sideways: true } : {}), group: t.group, row: t.row })),
        };
        if (r.reason) out.reason = r.reason;
        if (r.notes) out.notes = r.notes;
        if (r.leftOut) out.left_out = r.leftOut;
        if (args.score) out[scoreError ? 'score_error' : 'score'] = scoreError ?? scored;
        console.log(JSON.stringify(out));
      } else {
        console.log(readable(file, r));
        if (args.score) {
          if (scoreError) console.error(`${file}: ${scoreError}`);
          else console.log(`  score: ${JSON.stringify(scored)}`);
        }
      }
    } catch (e) {
      failed++;
      const code = e instanceof VisionError ? e.code : 'inference-failed';
      const message = (e as Error).message;
      if (args.json) console.log(JSON.stringify({ file, error: { code, message } }));
      else console.error(`${file}: error (${code}): ${message}`);
    }
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`scan: ${(e as Error).message}`);
    process.exit(1);
  },
);
