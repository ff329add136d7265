/**
 * npm run eval:vision -- [--data training-data/val-holdout] [--limit N] [--json]
 *                        [--confusion model/confusion.png] [--draw DIR] [--draw-n 12] [--draw-lost]
 *                        [--models DIR] [--tta|--no-tta] (default: turn only uncertain crops) [--threshold 0.45] [--rescue] [--no-zoom] [--no-hand-check] [--no-beside] [--no-stray-filter] [--fine-skip-at N] [--errors FILE] [--reads FILE]
 *                        [--options '{"keepFirst":false}'] (more PipelineOptions, as JSON: to measure a rule against the build without it)
 *                        [--camera warm|cool|vivid|sharpen|sharpen-mild|phone|jpeg|vignette|dark|noise|dim]
 *                        (each photo changed as a phone or a room would change it first: scripts/eval/camera.ts)
 *                        [--turn 90|180|270] (each photo and its labels turned clockwise first: a hand
 *                        photographed from the side of the table, or from across it)
 * npm run eval:vision -- --tiles training-data/tiles-holdout [--limit N] [--json] [--errors FILE]
 * npm run eval:vision -- --real DIR [--no-unsquash] [--limit N] [--json] [--errors FILE] [--draw DIR]
 *
 * With --real, DIR is a folder of real photographs in YOLO format (images/, labels/, data.yaml;
 * scripts/eval/real.ts): besides the figures below it prints per-tile F1, per-class figures,
 * whole-hand exact on the photos of a hand (8-20 tiles in one or two rows) and the median and
 * 95th-percentile time per photo (JSON adds tile_f1, hand_exact, hand_photos, median_ms, p95_ms,
 * per_class; photos_exact counts every photo).
 *
 * With --tiles, each single-tile image of a `--tiles` generator set goes through the
 * `scan --as-tile` path instead, and the top-1 / top-3 accuracy per image is printed
 * (JSON: {"tile_top1","tile_top3","n"}).
 *
 * A held-out set that is missing is made first with its seeded generator command from
 * scripts/train/recipes/datasets.json (scripts/eval/datasets.ts), so a fresh clone can run this.
 *
 * Runs the shipped pipeline (onnxruntime-web wasm, from JPEG bytes) on a held-out
 * synthetic set and prints detection precision/recall (IoU >= 0.5 against the label
 * box), per-tile top-1 accuracy on matched tiles, and the whole-hand exact-match
 * rate (every tile found with the right code and nothing extra). Writes a
 * confusion-matrix PNG. With --json the last line is
 * {"recall","precision","tile_accuracy","hand_exact"}.
 */
import { readFile, readdir, mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { classifyTileBytes, loadDefaultModels, scanBytes, MODEL_DIR } from '../../src/vision/node.ts';
import { iou, retakeAdvice } from '../../src/vision/postprocess.ts';
import { CHECK_BELOW, needsCheck, TILE_CODES, type Box, type ScanResult } from '../../src/vision/types.ts';
import { turnBox, type PipelineOptions } from '../../src/vision/pipeline.ts';
import { applyCamera, CAMERA_KINDS, CAMERA_NOTES, isCameraKind, type CameraKind } from './camera.ts';
import { commonCodes, loadRealSet, realPhotoBytes } from './real.ts';
import { ensureSet } from './datasets.ts';

interface Label { width: number; height: number; tiles: { code: string; box: Box; sideways?: boolean }[] }

function arg(name: string, def?: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : def;
}
const JSON_OUT = process.argv.includes('--json');
const data = arg('--data', 'training-data/val-holdout')!;
/** --real DIR: real photographs in YOLO format (scripts/eval/real.ts) instead of a synthetic set. */
const realDir = arg('--real');
const limit = Number(arg('--limit', '0'));
const confOut = arg('--confusion', 'model/confusion.png')!;
const drawDir = arg('--draw');
const drawN = Number(arg('--draw-n', '12'));
/** With --draw, draw only the scenes whose hand was not read exactly. */
const drawLost = process.argv.includes('--draw-lost');
/** With --errors FILE, one JSON line per hand not read exactly: wrong codes, missed tiles, extra detections. */
const errorsOut = arg('--errors');
const errorLines: string[] = [];
/** With --reads FILE, one JSON line per scene: every labelled tile the pipeline found, with its
 * truth, reading, score, whether the hand check changed it, and its alternatives (the read-right
 * tiles too, which --errors leaves out: to ask how a rule would act on all of them). */
const readsOut = arg('--reads');
const readLines: string[] = [];
const tta = process.argv.includes('--tta') ? true : process.argv.includes('--no-tta') ? false : undefined;
const threshold = arg('--threshold') ? Number(arg('--threshold')) : undefined;
const extraOptions = parseOptions(arg('--options'));
const camera = parseCamera(arg('--camera'));
/** With --turn 90|180|270, every photo is turned clockwise by that much before it is read, and its
 * labels with it: a hand photographed from the side of the table (90, 270) or from across it (180). */
const turn = Number(arg('--turn', '0'));
if (![0, 90, 180, 270].includes(turn)) throw new Error('--turn must be 90, 180 or 270');
if (turn && drawDir) throw new Error('--draw draws the photo as stored: it does not go with --turn');

/** A label turned clockwise by `deg` with its photo (boxes, sizes, sideways flags). */
function turnLabel(lab: Label, deg: number): Label {
  const { width: W, height: H } = lab;
  const quarter = deg !== 180;
  return { width: quarter ? H : W, height: quarter ? W : H, tiles: lab.tiles.map((t) => ({ ...t, box: turnBox(t.box, deg / 90, W, H), sideways: quarter ? !t.sideways : !!t.sideways })) };
}

/** --camera: one of the camera conditions (a clear error naming them for anything else). */
function parseCamera(text: string | undefined): CameraKind | undefined {
  if (text === undefined) return undefined;
  if (!isCameraKind(text)) {
    console.error(`eval:vision: --camera must be one of ${CAMERA_KINDS.join(', ')}, got ${JSON.stringify(text)}`);
    process.exit(2);
  }
  return text;
}

/** --options: pipeline options as a JSON object (a typed error for anything else). */
function parseOptions(text: string | undefined): Partial<PipelineOptions> {
  if (text === undefined) return {};
  let v: unknown = null;
  try {
    v = JSON.parse(text);
  } catch {
    // reported below, as any other value that is not an object
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`eval:vision: --options must be a JSON object of pipeline options, got ${JSON.stringify(text)}`);
  return v as Partial<PipelineOptions>;
}

interface Scene { name: string; file: string; label: Label; bytes(): Promise<Uint8Array>; hand: boolean }

/** A synthetic held-out set: images/ and the generator's labels/*.json. */
async function syntheticScenes(dir: string): Promise<Scene[]> {
  const imgDir = path.join(dir, 'images');
  if (!ensureSet(dir) || !existsSync(imgDir)) {
    console.error(`eval:vision: ${imgDir} not found; generate it with: npx tsx scripts/synth/generate.ts --out ${dir} --count 300 --seed <seed> --holdout`);
    process.exit(2);
  }
  const files = (await readdir(imgDir)).filter((f) => /\.(jpe?g|png)$/i.test(f)).sort();
  return Promise.all(files.map(async (name) => {
    const file = path.join(imgDir, name);
    const label = JSON.parse(await readFile(path.join(dir, 'labels', name.replace(/\.\w+$/, '.json')), 'utf8')) as Label;
    return { name, file, label, hand: true, bytes: async () => new Uint8Array(await readFile(file)) };
  }));
}

/** Real photographs in YOLO format (--real DIR), stretched back to their shape unless --no-unsquash. */
async function realScenes(dir: string): Promise<Scene[]> {
  const photos = await loadRealSet(dir, { unsquash: !process.argv.includes('--no-unsquash') });
  return photos.map((p) => ({ name: p.name, file: p.file, hand: p.hand, label: { width: p.width, height: p.height, tiles: p.tiles }, bytes: () => realPhotoBytes(p) }));
}

/** The --real figures: per-tile F1 (a tile counts when found with the right code), per-class
 * figures, whole-hand exact on the hand photos, and the time per photo. */
function realSummary(s: { conf: number[][]; missed: number[]; extraBy: Map<string, number>; correct: number; gtTotal: number; predTotal: number; handPhotos: number; handPhotosExact: number; times: number[]; codesCommon: number; handPhotosCodes: number }): { lines: string[]; json: Record<string, unknown> } {
  const p = s.correct / Math.max(1, s.predTotal), r = s.correct / Math.max(1, s.gtTotal);
  const f1 = (2 * p * r) / Math.max(1e-9, p + r);
  const codesF1 = (2 * s.codesCommon) / Math.max(1, s.gtTotal + s.predTotal);
  const perClass: Record<string, { n: number; found: number; right: number; accuracy: number; f1: number }> = {};
  TILE_CODES.forEach((code, i) => {
    const found = s.conf[i].reduce((a, b) => a + b, 0);
    const n = found + s.missed[i];
    if (!n) return;
    const right = s.conf[i][i];
    const predicted = s.conf.reduce((a, row) => a + row[i], 0) + (s.extraBy.get(code) ?? 0);
    const cf1 = (2 * right) / Math.max(1, n + predicted);
    perClass[code] = { n, found, right, accuracy: +(right / Math.max(1, found)).toFixed(4), f1: +cf1.toFixed(4) };
  });
  const t = [...s.times].sort((a, b) => a - b);
  const q = (f: number) => t[Math.min(t.length - 1, Math.floor(f * t.length))] ?? 0;
  const handExact = s.handPhotosExact / Math.max(1, s.handPhotos);
  return {
    lines: [
      `tile F1             ${f1.toFixed(4)}  (a tile counts when found with the right code)`,
      `hand photos exact   ${handExact.toFixed(4)}  (${s.handPhotosExact} of ${s.handPhotos} photos of 8-20 tiles in one or two rows)`,
      `codes only          tile F1 ${codesF1.toFixed(4)}, hand photos exact ${s.handPhotosCodes} of ${s.handPhotos}  (the codes read against the labelled ones per photo, boxes aside)`,
      `ms per photo        median ${q(0.5).toFixed(0)}, 95th percentile ${q(0.95).toFixed(0)} (incl. decode)`,
      `per class (n, found, right, F1) ${Object.entries(perClass).map(([c, v]) => `${c}:${v.n}/${v.found}/${v.right}/${v.f1.toFixed(2)}`).join(' ')}`,
    ],
    json: { tile_f1: +f1.toFixed(4), hand_exact: +handExact.toFixed(4), hand_photos: s.handPhotos, hands_exact: s.handPhotosExact, codes_f1: +codesF1.toFixed(4), hands_exact_codes: s.handPhotosCodes, median_ms: +q(0.5).toFixed(1), p95_ms: +q(0.95).toFixed(1), per_class: perClass },
  };
}

export interface Match { gt: number; pred: number }

/** Greedy matching by prediction score, IoU >= thr. */
export function matchBoxes(gt: Box[], pred: { box: Box; score: number }[], thr = 0.5): Match[] {
  const order = pred.map((p, i) => i).sort((a, b) => pred[b].score - pred[a].score);
  const used = new Set<number>();
  const out: Match[] = [];
  for (const pi of order) {
    let best = thr, bi = -1;
    gt.forEach((g, gi) => {
      if (used.has(gi)) return;
      const v = iou(g, pred[pi].box);
      if (v >= best) { best = v; bi = gi; }
    });
    if (bi >= 0) { used.add(bi); out.push({ gt: bi, pred: pi }); }
  }
  return out;
}

/** The labelled tile a left-out detection covers (matched as matchBoxes matches), or null: was it a tile after all? */
function truthAt(gt: { code: string; box: Box }[], box: Box): string | null {
  const m = matchBoxes(gt.map((g) => g.box), [{ box, score: 1 }])[0];
  return m ? gt[m.gt]!.code : null;
}

async function drawScene(file: string | Uint8Array, r: ScanResult, lab: Label, out: string): Promise<void> {
  const W = r.width, H = r.height;
  const s = Math.min(1, 1024 / Math.max(W, H));
  const el: string[] = [];
  const m = matchBoxes(lab.tiles.map((t) => t.box), r.tiles);
  const okPred = new Set(m.filter((x) => lab.tiles[x.gt].code === r.tiles[x.pred].code).map((x) => x.pred));
  const foundGt = new Set(m.map((x) => x.gt));
  lab.tiles.forEach((t, i) => {
    if (!foundGt.has(i)) el.push(`<rect x="${t.box[0] * s}" y="${t.box[1] * s}" width="${t.box[2] * s}" height="${t.box[3] * s}" fill="none" stroke="magenta" stroke-width="3" stroke-dasharray="4"/>`);
  });
  r.tiles.forEach((t, i) => {
    const c = okPred.has(i) ? 'lime' : 'red';
    el.push(`<rect x="${t.box[0] * s}" y="${t.box[1] * s}" width="${t.box[2] * s}" height="${t.box[3] * s}" fill="none" stroke="${c}" stroke-width="2"/>`);
    el.push(`<text x="${t.box[0] * s + 2}" y="${t.box[1] * s + 12}" font-size="12" font-family="sans-serif" fill="${c}" stroke="black" stroke-width="0.4">${i}:${t.code}${t.sideways ? 's' : ''}</text>`);
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(W * s)}" height="${Math.round(H * s)}">${el.join('')}</svg>`;
  await sharp(file).rotate().resize(Math.round(W * s), Math.round(H * s)).composite([{ input: Buffer.from(svg) }]).png().toFile(out);
}

async function confusionPng(conf: number[][], missed: number[], out: string): Promise<void> {
  const n = TILE_CODES.length;
  const cell = 16, left = 40, top = 40;
  const W = left + (n + 1) * cell + 10, H = top + n * cell + 10;
  const el: string[] = [`<rect width="${W}" height="${H}" fill="white"/>`];
  const rowSum = conf.map((r, i) => r.reduce((a, b) => a + b, 0) + missed[i]);
  for (let i = 0; i < n; i++) {
    el.push(`<text x="${left - 3}" y="${top + i * cell + 12}" font-size="10" text-anchor="end" font-family="sans-serif">${TILE_CODES[i]}</text>`);
    el.push(`<text x="${left + i * cell + 11}" y="${top - 4}" font-size="10" font-family="sans-serif" transform="rotate(-90 ${left + i * cell + 11} ${top - 4})">${TILE_CODES[i]}</text>`);
    for (let j = 0; j <= n; j++) {
      const v = j < n ? conf[i][j] : missed[i];
      if (!v) continue;
      const f = rowSum[i] ? v / rowSum[i] : 0;
      const color = i === j ? `rgb(${Math.round(255 - 200 * f)},${Math.round(255 - 90 * f)},${Math.round(255 - 200 * f)})` : `rgb(255,${Math.round(220 - 200 * Math.min(1, f * 5))},${Math.round(220 - 200 * Math.min(1, f * 5))})`;
      el.push(`<rect x="${left + j * cell}" y="${top + i * cell}" width="${cell - 1}" height="${cell - 1}" fill="${color}"/>`);
      if (i !== j) el.push(`<text x="${left + j * cell + 8}" y="${top + i * cell + 11}" font-size="8" text-anchor="middle" font-family="sans-serif">${v}</text>`);
    }
  }
  el.push(`<text x="${left + n * cell + 8}" y="${top - 4}" font-size="10" font-family="sans-serif" transform="rotate(-90 ${left + n * cell + 8} ${top - 4})">miss</text>`);
  el.push(`<text x="4" y="12" font-size="11" font-family="sans-serif">rows: true class, columns: predicted (last: not detected)</text>`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${el.join('')}</svg>`;
  await sharp(Buffer.from(svg)).png().toFile(out);
}

async function evalSingleTiles(dir: string): Promise<void> {
  const csv = path.join(dir, 'labels.csv');
  if (!ensureSet(dir) || !existsSync(csv)) {
    console.error(`eval:vision: ${csv} not found; generate it with: npx tsx scripts/synth/generate.ts --out ${dir} --count 40 --seed 4 --tiles --holdout`);
    process.exit(2);
  }
  let rows = (await readFile(csv, 'utf8')).trim().split('\n').slice(1).map((l) => l.split(','));
  if (limit > 0) rows = rows.slice(0, limit);
  const models = await loadDefaultModels(arg('--models') ?? MODEL_DIR);
  let top1 = 0, top3 = 0;
  const wrong = new Map<string, number>();
  // with --errors FILE, one JSON line per misread picture
  const misread: string[] = [];
  for (const [file, code] of rows) {
    const top = await classifyTileBytes(new Uint8Array(await readFile(path.join(dir, file))), models, 3);
    if (top[0]?.code === code) top1++;
    else {
      wrong.set(`${code}->${top[0]?.code}`, (wrong.get(`${code}->${top[0]?.code}`) ?? 0) + 1);
      misread.push(JSON.stringify({ file, truth: code, top }));
    }
    if (top.some((t) => t.code === code)) top3++;
  }
  const n = rows.length;
  const lines = [
    `eval:vision --tiles on ${dir}: ${n} single-tile images (scan --as-tile path)`,
    `top-1 accuracy      ${(top1 / Math.max(1, n)).toFixed(4)}`,
    `top-3 accuracy      ${(top3 / Math.max(1, n)).toFixed(4)}`,
    `top confusions      ${[...wrong].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([p, v]) => `${p}:${v}`).join(' ')}`,
  ];
  for (const l of lines) (JSON_OUT ? console.error : console.log)(l);
  if (errorsOut) await writeFile(errorsOut, misread.map((l) => l + '\n').join(''));
  if (JSON_OUT) console.log(JSON.stringify({ tile_top1: +(top1 / Math.max(1, n)).toFixed(4), tile_top3: +(top3 / Math.max(1, n)).toFixed(4), n }));
}

async function main(): Promise<void> {
  const tilesDir = arg('--tiles');
  if (tilesDir && camera) {
    console.error('eval:vision: --camera changes scene photos; it does not apply to --tiles');
    process.exit(2);
  }
  if (tilesDir) return evalSingleTiles(tilesDir);
  let scenes = realDir ? await realScenes(realDir) : await syntheticScenes(data);
  if (limit > 0) scenes = scenes.slice(0, limit);
  const files = scenes.map((s) => s.name);
  const models = await loadDefaultModels(arg('--models') ?? MODEL_DIR);
  const n = TILE_CODES.length;
  const conf = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const missed = new Array<number>(n).fill(0);
  let gtTotal = 0, predTotal = 0, tp = 0, correct = 0, handsExact = 0, sideOk = 0, sideTotal = 0;
  /** What the review screen shows: misreads and extra detections marked "please check"
   * (score below CHECK_BELOW), right tiles marked all the same, and hands whose every error is
   * marked (no tile missed, every misread and extra detection marked). */
  let wrongMarked = 0, wrongTotal = 0, rightMarked = 0, extraMarked = 0, extraTotal = 0, handsMarked = 0;
  /** Photos where the review screen suggests a retake (retakeAdvice), and how many of them were not read exactly. */
  let retakes = 0, retakesLost = 0;
  /** With --real: the photos of a hand (8-20 tiles in one or two rows) and how many were read exactly. */
  let handPhotos = 0, handPhotosExact = 0;
  /** With --real, box-free figures (what the player sees: the codes read, wherever their boxes
   * lie): per photo, the read codes that pair with a labelled code (multiset intersection), and the
   * hand photos whose read codes equal the labelled ones. Labelling conventions differ between real
   * sets (one photographer's labels here hold only the engraved face), so IoU alone undercounts. */
  let codesCommon = 0, handPhotosCodes = 0;
  /** Why hands were not exact: a hand can count under more than one cause. */
  const lost = { missed: 0, extra: 0, code: 0 };
  /** Unmatched detections by predicted code. */
  const extraBy = new Map<string, number>();
  let drawn = 0;
  const times: number[] = [];
  if (drawDir) await mkdir(drawDir, { recursive: true });
  for (const [k, scene] of scenes.entries()) {
    const f = scene.name;
    const stored = scene.label;
    const lab = turn ? turnLabel(stored, turn) : stored;
    const bytes = await scene.bytes();
    const seen = camera ? await applyCamera(bytes, camera, k) : bytes;
    const photo = turn ? new Uint8Array(await sharp(seen).rotate(turn).jpeg({ quality: 92 }).toBuffer()) : seen;
    const t0 = performance.now();
    const r = await scanBytes(photo, models, { tta, threshold, rescue: process.argv.includes('--rescue'), zoom: !process.argv.includes('--no-zoom'), handCheck: !process.argv.includes('--no-hand-check'), ...(process.argv.includes('--no-beside') ? { besideRescue: false } : {}), strayFilter: !process.argv.includes('--no-stray-filter'), ...(arg('--fine-skip-at') ? { fineSkipAt: Number(arg('--fine-skip-at')) } : {}), ...extraOptions });
    times.push(performance.now() - t0);
    const gt = lab.tiles;
    const m = matchBoxes(gt.map((t) => t.box), r.tiles);
    gtTotal += gt.length;
    predTotal += r.tiles.length;
    tp += m.length;
    let allRight = m.length === gt.length && r.tiles.length === gt.length;
    const found = new Set<number>();
    for (const { gt: gi, pred: pi } of m) {
      found.add(gi);
      const ti = TILE_CODES.indexOf(gt[gi].code as (typeof TILE_CODES)[number]);
      const pj = TILE_CODES.indexOf(r.tiles[pi].code);
      if (ti >= 0) conf[ti][pj]++;
      const marked = needsCheck(r.tiles[pi].score);
      if (ti === pj) {
        correct++;
        if (marked) rightMarked++;
      } else {
        allRight = false;
        wrongTotal++;
        if (marked) wrongMarked++;
      }
      sideTotal++;
      if (!!gt[gi].sideways === !!r.tiles[pi].sideways) sideOk++;
    }
    gt.forEach((t, i) => { if (!found.has(i)) { const ti = TILE_CODES.indexOf(t.code as (typeof TILE_CODES)[number]); if (ti >= 0) missed[ti]++; } });
    const matchedPred = new Set(m.map((x) => x.pred));
    const extras = r.tiles.filter((_, i) => !matchedPred.has(i));
    if (readsOut) {
      readLines.push(JSON.stringify({
        scene: f,
        tiles: m.map(({ gt: gi, pred: pi }) => {
          const t = r.tiles[pi];
          return { truth: gt[gi].code, read: t.code, score: +t.score.toFixed(3), handCheck: !!t.handCheck, alternatives: t.alternatives?.map((a) => ({ code: a.code, score: +a.score.toFixed(3) })) ?? [] };
        }),
      }));
    }
    const common = commonCodes(gt.map((t) => t.code), r.tiles.map((t) => t.code));
    codesCommon += common;
    if (scene.hand) {
      handPhotos++;
      if (allRight) handPhotosExact++;
      if (common === gt.length && r.tiles.length === gt.length) handPhotosCodes++;
    }
    if (allRight) handsExact++;
    else {
      if (errorsOut) {
        errorLines.push(JSON.stringify({
          scene: f,
          wrong: m.filter(({ gt: gi, pred: pi }) => gt[gi].code !== r.tiles[pi].code).map(({ gt: gi, pred: pi }) => ({ truth: gt[gi].code, read: r.tiles[pi].code, box: gt[gi].box, score: +r.tiles[pi].score.toFixed(3), handCheck: !!r.tiles[pi].handCheck, alternatives: r.tiles[pi].alternatives?.map((a) => a.code) })),
          missed: gt.filter((_, i) => !found.has(i)).map((t) => ({ code: t.code, box: t.box })),
          extra: extras.map((t) => ({ read: t.code, score: +t.score.toFixed(3), box: t.box.map((v) => +v.toFixed(1)) })),
          notes: r.notes,
          ...(r.leftOut?.length ? { leftOut: r.leftOut.map((t) => ({ read: t.code, score: +t.score.toFixed(3), box: t.box.map((v) => +v.toFixed(1)), truth: truthAt(gt, t.box) })) } : {}),
        }));
      }
      if (m.length < gt.length) lost.missed++;
      if (r.tiles.length > m.length) lost.extra++;
      if (m.some(({ gt: gi, pred: pi }) => gt[gi].code !== r.tiles[pi].code)) lost.code++;
    }
    if (retakeAdvice(r.tiles.map((t) => t.score))) {
      retakes++;
      if (!allRight) retakesLost++;
    }
    for (const t of extras) extraBy.set(t.code, (extraBy.get(t.code) ?? 0) + 1);
    extraTotal += extras.length;
    extraMarked += extras.filter((t) => needsCheck(t.score)).length;
    if (!allRight && m.length === gt.length && extras.every((t) => needsCheck(t.score))
      && m.every(({ gt: gi, pred: pi }) => gt[gi].code === r.tiles[pi].code || needsCheck(r.tiles[pi].score))) handsMarked++;
    if (drawDir && drawn < drawN && (!drawLost || !allRight)) {
      drawn++;
      await drawScene(realDir ? bytes : scene.file, r, lab, path.join(drawDir, f.replace(/\.\w+$/, '.png')));
    }
    if (!JSON_OUT && (k + 1) % 50 === 0) console.log(`  ${k + 1}/${files.length}`);
  }
  const recall = tp / Math.max(1, gtTotal);
  const precision = tp / Math.max(1, predTotal);
  const tileAcc = correct / Math.max(1, tp);
  const handExact = handsExact / Math.max(1, files.length);
  await mkdir(path.dirname(confOut), { recursive: true });
  await confusionPng(conf, missed, confOut);
  if (errorsOut) await writeFile(errorsOut, errorLines.join('\n') + '\n');
  if (readsOut) await writeFile(readsOut, readLines.join('\n') + '\n');
  const pairs: [string, number][] = [];
  conf.forEach((r, i) => r.forEach((v, j) => { if (i !== j && v) pairs.push([`${TILE_CODES[i]}->${TILE_CODES[j]}`, v]); }));
  pairs.sort((a, b) => b[1] - a[1]);
  times.sort((a, b) => a - b);
  const lines = [
    `eval:vision on ${realDir ?? data}${camera ? ` (camera: ${camera}, ${CAMERA_NOTES[camera]})` : ''}: ${files.length} scenes, ${gtTotal} labelled tiles, ${predTotal} detections`,
    `detection recall    ${recall.toFixed(4)}  (IoU >= 0.5)`,
    `detection precision ${precision.toFixed(4)}`,
    `tile accuracy       ${tileAcc.toFixed(4)}  (top-1 on matched tiles)`,
    `hand exact          ${handExact.toFixed(4)}  (hands lost to: a missed tile ${lost.missed}, an extra detection ${lost.extra}, a wrong code ${lost.code})`,
    `marked to check     ${wrongMarked} of ${wrongTotal} misreads, ${extraMarked} of ${extraTotal} extra detections, ${rightMarked} of ${correct} right tiles (score < ${CHECK_BELOW})`,
    `hand exact or every error marked ${((handsExact + handsMarked) / Math.max(1, files.length)).toFixed(4)}`,
    `retake suggested    ${retakes} photos, ${retakesLost} of them not read exactly`,
    `sideways flag       ${(sideOk / Math.max(1, sideTotal)).toFixed(4)}`,
    `median ms/scene     ${times[times.length >> 1]?.toFixed(0)} (incl. decode)`,
    `extra by code       ${[...extraBy].sort((a, b) => b[1] - a[1]).map(([c, v]) => `${c}:${v}`).join(' ')}`,
    `top confusions      ${pairs.slice(0, 12).map(([p, v]) => `${p}:${v}`).join(' ')}`,
    `missed by class     ${missed.map((v, i) => (v ? `${TILE_CODES[i]}:${v}` : '')).filter(Boolean).join(' ')}`,
    `confusion matrix -> ${confOut}`,
  ];
  if (realDir) {
    const real = realSummary({ conf, missed, extraBy, correct, gtTotal, predTotal, handPhotos, handPhotosExact, times, codesCommon, handPhotosCodes });
    lines.splice(1, 0, ...real.lines);
    if (JSON_OUT) {
      for (const l of lines) console.error(l);
      console.log(JSON.stringify({ recall: +recall.toFixed(4), precision: +precision.toFixed(4), tile_accuracy: +tileAcc.toFixed(4), photos_exact: +handExact.toFixed(4), ...real.json }));
    } else for (const l of lines) console.log(l);
    return;
  }
  if (JSON_OUT) {
    for (const l of lines) console.error(l);
    console.log(JSON.stringify({ recall: +recall.toFixed(4), precision: +precision.toFixed(4), tile_accuracy: +tileAcc.toFixed(4), hand_exact: +handExact.toFixed(4) }));
  } else {
    for (const l of lines) console.log(l);
  }
}

if (process.argv[1]?.endsWith("vision.ts")) main().catch((e) => {
  console.error(`eval:vision: ${(e as Error).message}`);
  process.exit(1);
});
