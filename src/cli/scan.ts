/**
 * npm run --silent scan -- [--json] [--as-tile] [--score] FILE...
 *
 *   --json     one JSON line per file: {"file","width","height","tiles":[{"code","score","box":[x,y,w,h]}]}
 *              (reading order; boxes in pixels of the original, EXIF-rotated photo)
 *   --as-tile  treat each image as one tile: {"file","top":[{"code","score"} x3]}
 *   --score    pass the recognised hand to the scoring engine (src/engine)
 *   --profile P.json  read with the club's tile-set profile (src/vision/profile): tiles the set
 *              was taught are read as taught; without it nothing changes
 *   --learn TEACH.jsonl --profile P.json
 *              teach the profile (created or updated, written atomically) from lines
 *              {"file","tiles":[{"code","box":[x,y,w,h]}]} (this command's --json lines with the
 *              codes corrected) and print one line {"profile","examples","kinds"}; a bad line
 *              (a missing file, an unknown code) is an error naming it and nothing is written
 *
 * A bad file gives one error line (stderr, or {"file","error":{"code","message"}} with --json)
 * and a non-zero exit status; the other files are still processed.
 */
import { readFile } from 'node:fs/promises';
import { classifyTileBytes, loadDefaultModels, scanBytes } from '../vision/node.ts';
import { needsCheck, VisionError, type ScanResult } from '../vision/types.ts';
import { retakeAdvice } from '../vision/postprocess.ts';
import { formatHand, scoreTiles } from '../engine/index.ts';
import { knnScorer, type ProfileScorer } from '../vision/profile/combine.ts';
import { countsByKind } from '../vision/profile/format.ts';
import { classifierId, readProfileFile, readTeachLines, scanBytesWithProfile, teachProfile, writeProfileFile } from '../vision/profile/node.ts';
import { MODEL_DIR } from '../vision/node.ts';
import path from 'node:path';

interface Args { json: boolean; asTile: boolean; score: boolean; files: string[]; learn?: string; profile?: string }

const USAGE = 'usage: npm run --silent scan -- [--json] [--as-tile] [--score] [--profile P.json] FILE...\n       npm run --silent scan -- --learn TEACH.jsonl --profile P.json';

function parseArgs(argv: string[]): Args {
  const a: Args = { json: false, asTile: false, score: false, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i]!;
    if (x === '--learn' || x === '--profile') {
      const v = argv[++i];
      if (!v || v.startsWith('--')) {
        console.error(`scan: ${x} needs a file name`);
        process.exit(2);
      }
      if (x === '--learn') a.learn = v;
      else a.profile = v;
    } else if (x === '--json') a.json = true;
    else if (x === '--as-tile') a.asTile = true;
    else if (x === '--score') a.score = true;
    else if (x === '--help' || x === '-h') {
      console.log(USAGE);
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

/** --learn: the profile taught from the lines and written atomically; one summary line. Every
 * line is checked, and every photo embedded, before anything is written. */
async function learn(teach: string, profileFile: string, models: Awaited<ReturnType<typeof loadDefaultModels>>): Promise<number> {
  let text: string;
  try {
    text = await readFile(teach, 'utf8');
  } catch (e) {
    console.error(`scan: cannot read ${teach}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    return 2;
  }
  try {
    const lines = readTeachLines(text, path.dirname(teach));
    const existing = await readProfileFile(profileFile);
    const p = await teachProfile(lines, models, existing, await classifierId(path.join(MODEL_DIR, 'classifier.onnx')));
    await writeProfileFile(profileFile, p);
    console.log(JSON.stringify({ profile: profileFile, examples: p.examples.length, kinds: countsByKind(p).length }));
    return 0;
  } catch (e) {
    console.error(`scan: ${teach}: ${(e as Error).message}`);
    return 1;
  }
}

/** --profile: the profile's scorer, or an error message (a missing or bad file). */
async function profileScorer(file: string): Promise<ProfileScorer | string> {
  try {
    const p = await readProfileFile(file);
    if (!p) return `no tile-set profile at ${file}`;
    const model = await classifierId(path.join(MODEL_DIR, 'classifier.onnx'));
    if (p.model && p.model !== model) return `${file} was learnt with another classifier (${p.model}, now ${model}); teach it again`;
    return knnScorer(p);
  } catch (e) {
    return `${file}: ${(e as Error).message}`;
  }
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (args.learn !== undefined ? !args.profile || args.files.length > 0 || args.asTile : !args.files.length) {
    console.error(args.learn !== undefined && !args.profile ? 'scan: --learn needs --profile P.json (the profile to create or update)' : USAGE);
    return 2;
  }
  if (args.asTile && args.profile) {
    console.error('scan: --profile reads hands; it does not apply to --as-tile');
    return 2;
  }
  let scorer: ProfileScorer | undefined;
  if (args.profile && args.learn === undefined) {
    const s = await profileScorer(args.profile);
    if (typeof s === 'string') {
      console.error(`scan: ${s}`);
      return 2;
    }
    scorer = s;
  }
  let models;
  try {
    models = await loadDefaultModels();
  } catch (e) {
    console.error(`scan: ${(e as Error).message}`);
    return 3;
  }
  if (args.learn !== undefined) return learn(args.learn, args.profile!, models);
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
      const r = scorer ? await scanBytesWithProfile(bytes, models, scorer) : await scanBytes(bytes, models);
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
