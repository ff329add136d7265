/**
 * Synthetic training-data generator for the Mahjong hand scanner.
 *
 *   npx tsx scripts/synth/generate.ts --out training-data/<name> --count N --seed S
 *       [--size 1024] [--holdout] [--all-styles] [--extra-fonts] [--extra-styles [--decoy-flowers [--decoy-always]] [--ink] [--birds] [--ornaments]] [--line-art] [--swap-art] [--tile-cloths] [--set-grids] [--close-ups | --far] [--apart] [--workers 1] [--tiles [--codes f1,f2,...] [--tile-margin LO,HI]] [--tile-size 128] [--art DIR]
 *
 * See scripts/synth/README.md for the output format.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { checkArtRoot, defaultArtRoot } from './art.ts';
import { CLASSES } from './hand.ts';
import { EXTRA_TRAIN_FONTS } from './faces.ts';
import { GENERATOR_VERSION, type GenOptions, renderScene, renderTileCrop } from './scene.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
/** consecutive items handled by one worker (shares the glyph-set cache) */
const BLOCK = 6;

interface Args {
  out: string;
  count: number;
  seed: number;
  size: number;
  holdout: boolean;
  allStyles: boolean;
  extraFonts: boolean;
  extraStyles: boolean;
  decoyFlowers: boolean;
  decoyAlways: boolean;
  ink: boolean;
  birds: boolean;
  ornaments: boolean;
  lineArt: boolean;
  swapArt: boolean;
  tileCloths: boolean;
  setGrids: boolean;
  closeUps: boolean;
  far: boolean;
  apart: boolean;
  workers: number;
  tiles: boolean;
  /** --tiles only: render just these classes, round robin (absent: all 43). */
  codes?: string[];
  tileMargin?: [number, number];
  gridTiles?: [number, number];
  tileSize: number;
  art: string;
  shard?: number;
  dir?: string;
  quiet: boolean;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { out: '', count: 100, seed: 1, size: 1024, holdout: false, allStyles: false, extraFonts: false, extraStyles: false, decoyFlowers: false, decoyAlways: false, ink: false, birds: false, ornaments: false, lineArt: false, swapArt: false, tileCloths: false, setGrids: false, closeUps: false, far: false, apart: false, workers: 1, tiles: false, tileSize: 128, art: defaultArtRoot(REPO), quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => {
      const x = argv[++i];
      if (x === undefined) throw new Error(`missing value for ${k}`);
      return x;
    };
    switch (k) {
      case '--out': a.out = v(); break;
      case '--count': a.count = Number(v()); break;
      case '--seed': a.seed = Number(v()); break;
      case '--size': a.size = Number(v()); break;
      case '--holdout': a.holdout = true; break;
      case '--all-styles': a.allStyles = true; break;
      case '--extra-fonts': a.extraFonts = true; break;
      case '--extra-styles': a.extraStyles = true; break;
      case '--decoy-flowers': a.decoyFlowers = true; break;
      case '--decoy-always': a.decoyAlways = true; break;
      case '--ink': a.ink = true; break;
      case '--birds': a.birds = true; break;
      case '--ornaments': a.ornaments = true; break;
      case '--line-art': a.lineArt = true; break;
      case '--swap-art': a.swapArt = true; break;
      case '--tile-cloths': a.tileCloths = true; break;
      case '--set-grids': a.setGrids = true; break;
      case '--close-ups': a.closeUps = true; break;
      case '--far': a.far = true; break;
      case '--apart': a.apart = true; break;
      case '--workers': a.workers = Math.max(1, Number(v())); break;
      case '--tiles': a.tiles = true; break;
      case '--codes': a.codes = v().split(',').map((c) => c.trim()).filter(Boolean); break;
      case '--tile-size': a.tileSize = Number(v()); break;
      case '--tile-margin': { const m = v().split(',').map(Number); if (m.length !== 2 || !m.every((x) => x >= 0 && x <= 5) || m[0]! > m[1]!) throw new Error('--tile-margin must be LO,HI with 0 <= LO <= HI <= 5'); a.tileMargin = [m[0]!, m[1]!]; break; }
      case '--grid-tiles': { const m = v().split(',').map(Number); if (m.length !== 2 || !m.every((x) => Number.isInteger(x) && x >= 1 && x <= 144) || m[0]! > m[1]!) throw new Error('--grid-tiles must be LO,HI with whole numbers 1 <= LO <= HI <= 144'); a.gridTiles = [m[0]!, m[1]!]; break; }
      case '--art': a.art = path.resolve(v()); break;
      case '--shard': a.shard = Number(v()); break;
      case '--dir': a.dir = v(); break;
      case '--quiet': a.quiet = true; break;
      case '-h': case '--help':
        console.log(fs.readFileSync(path.join(HERE, 'README.md'), 'utf8'));
        process.exit(0);
        break;
      default: throw new Error(`unknown option ${k}`);
    }
  }
  if (!a.out && a.shard === undefined) throw new Error('--out is required');
  if (a.extraFonts) {
    // The output must not depend on which fonts happen to be installed: refuse instead.
    const have = execFileSync('fc-list', [':', 'family'], { encoding: 'utf8' }).replace(/\\/g, '');
    const missing = EXTRA_TRAIN_FONTS.map((f) => f.split(':')[0]!).filter((f) => !have.split(/[\n,]/).includes(f));
    if (missing.length) throw new Error(`--extra-fonts: fonts not installed: ${missing.join(', ')} (run scripts/setup-test-deps.sh)`);
  }
  if (a.codes) {
    const bad = a.codes.filter((c) => !CLASSES.includes(c));
    if (bad.length || !a.codes.length) throw new Error(`--codes: unknown class${bad.length === 1 ? '' : 'es'} ${bad.join(', ') || '(none given)'}; use codes from scripts/synth/classes.json`);
    if (!a.tiles) throw new Error('--codes works only with --tiles');
  }
  if (a.tileMargin && !a.tiles) throw new Error('--tile-margin works only with --tiles');
  // these designs are drawn only in --extra-styles sets: without it they would silently do nothing
  for (const [on, flag] of [[a.decoyFlowers, '--decoy-flowers'], [a.ink, '--ink'], [a.birds, '--birds'], [a.ornaments, '--ornaments']] as const) {
    if (on && !a.extraStyles) throw new Error(`${flag} works only with --extra-styles`);
  }
  for (const [on, flag] of [[a.lineArt, '--line-art'], [a.swapArt, '--swap-art']] as const) {
    if (on && a.holdout) throw new Error(`${flag} is a training design; it never reaches the holdout`);
  }
  if (a.decoyAlways && !a.decoyFlowers) throw new Error('--decoy-always works only with --decoy-flowers');
  if (a.gridTiles && !a.setGrids) throw new Error('--grid-tiles works only with --set-grids');
  if (a.setGrids && a.tiles) throw new Error('--set-grids lays out scenes; it does nothing with --tiles');
  if (a.closeUps && a.tiles) throw new Error('--close-ups frames scenes; it does nothing with --tiles');
  if (a.far && a.tiles) throw new Error('--far frames scenes; it does nothing with --tiles');
  if (a.apart && (a.tiles || a.setGrids || a.closeUps)) throw new Error('--apart lays flowers aside round a hand; it does nothing with --tiles, --set-grids or --close-ups');
  if (a.far && a.closeUps) throw new Error('--far and --close-ups frame scenes in opposite ways; choose one');
  if (!Number.isInteger(a.count) || a.count < 0) throw new Error('--count must be a non-negative integer');
  if (!Number.isFinite(a.seed)) throw new Error('--seed must be a number');
  if (!(a.size >= 64 && a.size <= 8192)) throw new Error('--size must be in 64..8192');
  return a;
}

const pad = (n: number) => String(n).padStart(6, '0');

function genOptions(a: Args): GenOptions {
  return { seed: a.seed, size: a.size, holdout: a.holdout, allStyles: a.allStyles, artRoot: a.art, tileSize: a.tileSize, ...(a.extraFonts ? { extraFonts: true } : {}), ...(a.extraStyles ? { extraStyles: true } : {}), ...(a.decoyFlowers ? { decoyFlowers: true } : {}), ...(a.decoyAlways ? { decoyAlways: true } : {}), ...(a.ink ? { ink: true } : {}), ...(a.birds ? { birds: true } : {}), ...(a.ornaments ? { ornaments: true } : {}), ...(a.lineArt ? { lineArt: true } : {}), ...(a.swapArt ? { swapArt: true } : {}), ...(a.tileCloths ? { tileCloths: true } : {}), ...(a.setGrids ? { setGrids: true } : {}), ...(a.closeUps ? { closeUps: true } : {}), ...(a.far ? { far: true } : {}), ...(a.apart ? { apart: true } : {}), ...(a.codes ? { codes: a.codes } : {}), ...(a.tileMargin ? { tileMargin: a.tileMargin } : {}), ...(a.gridTiles ? { gridTiles: a.gridTiles } : {}) };
}

/** The classes a --tiles run renders, in round-robin order. */
const tileCodes = (a: Args): readonly string[] => a.codes ?? CLASSES;
const total = (a: Args) => (a.tiles ? a.count * tileCodes(a).length : a.count);

/** Render all items whose block belongs to this shard into dir. */
export async function runShard(a: Args, dir: string, shard: number, shards: number): Promise<number> {
  const opts = genOptions(a);
  const n = total(a);
  let done = 0;
  const t0 = Date.now();
  const mine: number[] = [];
  for (let i = 0; i < n; i++) if (Math.floor(i / BLOCK) % shards === shard) mine.push(i);
  // two items in flight: one item's JS rendering overlaps the other's sharp (libvips) encoding
  const one = async (i: number) => {
    if (a.tiles) {
      const { jpg, code } = await renderTileCrop(opts, i);
      fs.writeFileSync(path.join(dir, 'tiles', code, `${pad(Math.floor(i / tileCodes(a).length))}.jpg`), jpg);
    } else {
      const { jpg, label } = await renderScene(opts, i);
      fs.writeFileSync(path.join(dir, 'images', `${pad(i)}.jpg`), jpg);
      fs.writeFileSync(path.join(dir, 'labels', `${pad(i)}.json`), JSON.stringify(label));
    }
    done++;
    if (!a.quiet && done % 100 === 0) {
      const s = (Date.now() - t0) / 1000;
      console.error(`[synth shard ${shard}] ${done}/${mine.length} items, ${(done / s).toFixed(1)}/s`);
    }
  };
  let next = 0;
  const lane = async () => {
    while (next < mine.length) await one(mine[next++]);
  };
  await Promise.all([lane(), lane()]);
  return done;
}

async function main(): Promise<void> {
  const a = parseArgs(process.argv.slice(2));
  checkArtRoot(a.art);
  if (a.shard !== undefined) {
    await runShard(a, a.dir!, a.shard, a.workers);
    return;
  }
  const out = path.resolve(a.out);
  const tmp = `${out}.partial`;
  fs.rmSync(tmp, { recursive: true, force: true });
  if (a.tiles) for (const c of tileCodes(a)) fs.mkdirSync(path.join(tmp, 'tiles', c), { recursive: true });
  else {
    fs.mkdirSync(path.join(tmp, 'images'), { recursive: true });
    fs.mkdirSync(path.join(tmp, 'labels'), { recursive: true });
  }
  const t0 = Date.now();
  if (a.workers <= 1) await runShard(a, tmp, 0, 1);
  else {
    const self = fileURLToPath(import.meta.url);
    const base = process.argv.slice(2).filter((x, i, arr) => !['--out'].includes(x) && arr[i - 1] !== '--out');
    await Promise.all(Array.from({ length: a.workers }, (_, k) => new Promise<void>((res, rej) => {
      const child = fork(self, [...base, '--shard', String(k), '--dir', tmp], { execArgv: process.execArgv, stdio: 'inherit' });
      child.on('exit', (code) => (code === 0 ? res() : rej(new Error(`worker ${k} exited with ${code}`))));
    })));
  }
  const secs = (Date.now() - t0) / 1000;
  if (a.tiles) {
    const lines = ['file,code'];
    for (let i = 0; i < total(a); i++) {
      const codes = tileCodes(a), c = codes[i % codes.length];
      lines.push(`tiles/${c}/${pad(Math.floor(i / codes.length))}.jpg,${c}`);
    }
    fs.writeFileSync(path.join(tmp, 'labels.csv'), lines.join('\n') + '\n');
  }
  const classCounts: Record<string, number> = Object.fromEntries(CLASSES.map((c) => [c, 0]));
  let negatives = 0;
  if (a.tiles) for (let i = 0; i < total(a); i++) classCounts[tileCodes(a)[i % tileCodes(a).length]]++;
  else {
    for (let i = 0; i < total(a); i++) {
      const lab = JSON.parse(fs.readFileSync(path.join(tmp, 'labels', `${pad(i)}.json`), 'utf8')) as { negative?: boolean; tiles: { code: string }[] };
      if (lab.negative) negatives++;
      for (const t of lab.tiles) classCounts[t.code]++;
    }
  }
  const manifest = {
    generator: 'scripts/synth/generate.ts',
    version: GENERATOR_VERSION,
    mode: a.tiles ? 'tiles' : 'scenes',
    seed: a.seed,
    count: a.count,
    items: total(a),
    options: { size: a.size, holdout: a.holdout, allStyles: a.allStyles, extraFonts: a.extraFonts, extraStyles: a.extraStyles, decoyFlowers: a.decoyFlowers, decoyAlways: a.decoyAlways, ink: a.ink, birds: a.birds, ornaments: a.ornaments, lineArt: a.lineArt, swapArt: a.swapArt, tileCloths: a.tileCloths, setGrids: a.setGrids, closeUps: a.closeUps, far: a.far, apart: a.apart, tileSize: a.tiles ? a.tileSize : undefined, codes: a.codes, tileMargin: a.tileMargin, gridTiles: a.gridTiles },
    classes: CLASSES,
    min_visible_fraction: 0.5,
    negatives,
    class_counts: classCounts,
  };
  fs.writeFileSync(path.join(tmp, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  // atomic-ish swap: readers never see a half-written set
  const old = `${out}.old`;
  fs.rmSync(old, { recursive: true, force: true });
  if (fs.existsSync(out)) fs.renameSync(out, old);
  fs.renameSync(tmp, out);
  fs.rmSync(old, { recursive: true, force: true });
  if (!a.quiet) console.error(`[synth] wrote ${total(a)} ${a.tiles ? 'tiles' : 'scenes'} to ${out} in ${secs.toFixed(1)} s (${(total(a) / secs).toFixed(1)}/s)`);
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
