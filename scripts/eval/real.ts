/**
 * Real photographs in YOLO format, for `npm run eval:vision -- --real DIR`.
 *
 * DIR holds `images/` and `labels/` (one `name.txt` per image: `class cx cy w h`, normalised),
 * and a `data.yaml` naming the classes (in DIR or up to two folders above it, as a Roboflow
 * export has it). The class names are the "Chinese Mahjong Detection" names (`sc1` 1m, `sd1` 1p,
 * `sb1` 1s, `hwe` East, `hdw` White, `bf1` f1, `bs1` f5, ...) or our own codes.
 *
 * Roboflow stretched every photo to 640x640. A stretched photo is not a photo a phone takes, so
 * it is stretched back before it is read: the factor is the one that brings the labelled boxes
 * to a tile's shape (4:3 standing or lying), applied only where it is clear (the labels fix the
 * photo's shape, never what is in it). Only square photos are candidates, and only the shapes a
 * camera or screen gives (4:3, 16:9 either way). `unsquash: false` reads the photos as stored.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { TILE_CODES, type Box, type TileCode } from '../../src/vision/types.ts';

/** Roboflow "Chinese Mahjong Detection" class names -> our tile codes. */
export const ROBOFLOW_CODES: Readonly<Record<string, TileCode>> = Object.freeze({
  ...Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8, 9].flatMap((n) => [[`sc${n}`, `${n}m`], [`sd${n}`, `${n}p`], [`sb${n}`, `${n}s`]])),
  hwe: '1z', hws: '2z', hww: '3z', hwn: '4z', hdw: '5z', hdg: '6z', hdr: '7z',
  bf1: 'f1', bf2: 'f2', bf3: 'f3', bf4: 'f4', bs1: 'f5', bs2: 'f6', bs3: 'f7', bs4: 'f8',
}) as Record<string, TileCode>;

export class RealSetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RealSetError';
  }
}

export interface RealTile { code: TileCode; box: Box; sideways: boolean }
export interface RealPhoto {
  /** File name inside images/. */
  name: string;
  file: string;
  /** Size the photo is read at (after stretching back). */
  width: number;
  height: number;
  /** Width factor applied to undo the export's stretch (1: read as stored). */
  stretch: number;
  tiles: RealTile[];
  /** A hand: 8-20 tiles in one or two rows (whole-hand exact is counted on these). */
  hand: boolean;
}

/** The class names of a YOLO set: `names:` in data.yaml, as a flow list or a block list. */
export function parseYoloNames(yaml: string): string[] {
  const flow = /^names:\s*\[([^\]]*)\]/m.exec(yaml);
  if (flow) return flow[1].split(',').map((s) => s.trim().replace(/^['"]|['"]$/g, '')).filter(Boolean);
  const block = /^names:\s*\n((?:[ \t]+.*\n?)+)/m.exec(yaml);
  if (block) {
    return block[1].split('\n').map((l) => l.trim()).filter(Boolean)
      .map((l) => l.replace(/^-\s*/, '').replace(/^\d+\s*:\s*/, '').replace(/^['"]|['"]$/g, ''));
  }
  throw new RealSetError('data.yaml has no "names:" list of classes');
}

/** The tile code of a class name (Roboflow names or our own codes), or a typed error. */
export function codeOfClass(name: string): TileCode {
  const code = ROBOFLOW_CODES[name] ?? (TILE_CODES as readonly string[]).find((c) => c === name);
  if (!code) throw new RealSetError(`unknown class name ${JSON.stringify(name)} (expected sc1..9, sd1..9, sb1..9, hwe hws hww hwn, hdw hdg hdr, bf1..4, bs1..4, or a tile code such as 1m)`);
  return code as TileCode;
}

async function findYaml(dir: string): Promise<string> {
  for (const d of [dir, path.dirname(dir), path.dirname(path.dirname(dir))]) {
    const f = path.join(d, 'data.yaml');
    if (existsSync(f)) return readFile(f, 'utf8');
  }
  throw new RealSetError(`no data.yaml naming the classes in ${dir} or the two folders above it`);
}

const TILE_ASPECT = Math.log(4 / 3);

/** The shapes a phone or a screen gives a photo, as width factors of a square: the export
 * stretched every photo to a square, so only these are candidates. */
const STRETCHES = [1, 4 / 3, 3 / 4, 16 / 9, 9 / 16];

/** The width factor, among STRETCHES, that brings boxes (w, h) closest to a tile's 4:3 (standing
 * or lying); 1 unless it fits clearly better (a third less misfit) than the photo as stored. */
export function stretchOf(boxes: { w: number; h: number }[]): number {
  const logs = boxes.filter((b) => b.w > 0 && b.h > 0).map((b) => Math.log(b.h / b.w));
  if (logs.length < 3) return 1;
  const misfit = (s: number) => logs.reduce((a, l) => a + Math.min(Math.abs(l - Math.log(s) - TILE_ASPECT), Math.abs(l - Math.log(s) + TILE_ASPECT)), 0);
  const asStored = misfit(1);
  let best = 1, bestCost = asStored;
  for (const s of STRETCHES) if (misfit(s) < bestCost) { best = s; bestCost = misfit(s); }
  return bestCost < asStored * 0.67 ? best : 1;
}

/** Rows of boxes, by their centres' height. */
export function rowCount(boxes: Box[]): number {
  if (!boxes.length) return 0;
  const hs = boxes.map((b) => Math.min(b[2], b[3])).sort((a, b) => a - b);
  const gap = 0.6 * hs[hs.length >> 1];
  const ys = boxes.map((b) => b[1] + b[3] / 2).sort((a, b) => a - b);
  let rows = 1;
  for (let i = 1; i < ys.length; i++) if (ys[i] - ys[i - 1] > gap) rows++;
  return rows;
}

/** A real set in YOLO format (typed errors for a missing folder, a bad line or an unknown class). */
export async function loadRealSet(dir: string, opts: { unsquash?: boolean } = {}): Promise<RealPhoto[]> {
  const imgDir = path.join(dir, 'images'), labDir = path.join(dir, 'labels');
  if (!existsSync(imgDir) || !existsSync(labDir)) throw new RealSetError(`${dir} must hold images/ and labels/ (YOLO format)`);
  const names = parseYoloNames(await findYaml(dir));
  const files = (await readdir(imgDir)).filter((f) => /\.(jpe?g|png|webp)$/i.test(f)).sort();
  const out: RealPhoto[] = [];
  for (const name of files) {
    const file = path.join(imgDir, name);
    const labFile = path.join(labDir, name.replace(/\.\w+$/, '.txt'));
    if (!existsSync(labFile)) throw new RealSetError(`${name} has no label file ${labFile}`);
    const meta = await sharp(file).metadata().catch(() => { throw new RealSetError(`${file} is not an image sharp can read`); });
    const W0 = meta.width ?? 0, H0 = meta.height ?? 0;
    const rows = (await readFile(labFile, 'utf8')).split('\n').map((l) => l.trim()).filter(Boolean);
    const raw = rows.map((l, i) => {
      const p = l.split(/\s+/).map(Number);
      if (p.length < 5 || p.some((v) => !Number.isFinite(v)) || !names[p[0]]) throw new RealSetError(`${labFile} line ${i + 1}: expected "class cx cy w h", got ${JSON.stringify(l)}`);
      return { code: codeOfClass(names[p[0]]), cx: p[1] * W0, cy: p[2] * H0, w: p[3] * W0, h: p[4] * H0 };
    });
    // only a square photo can be one the export stretched
    const stretch = opts.unsquash === false || W0 !== H0 ? 1 : stretchOf(raw);
    // stretch back by enlarging one side, never shrinking the other
    const sx = Math.max(1, stretch), sy = Math.max(1, 1 / stretch);
    const tiles = raw.map((t) => {
      const w = t.w * sx, h = t.h * sy;
      return { code: t.code, box: [t.cx * sx - w / 2, t.cy * sy - h / 2, w, h] as Box, sideways: w > h };
    });
    const boxes = tiles.map((t) => t.box);
    out.push({ name, file, width: Math.round(W0 * sx), height: Math.round(H0 * sy), stretch, tiles, hand: tiles.length >= 8 && tiles.length <= 20 && rowCount(boxes) <= 2 });
  }
  return out;
}

/** The photo's bytes as it is read: stretched back to its shape when the export stretched it. */
export async function realPhotoBytes(p: RealPhoto): Promise<Uint8Array> {
  const bytes = await readFile(p.file);
  if (p.stretch === 1) return new Uint8Array(bytes);
  return new Uint8Array(await sharp(bytes).resize(p.width, p.height, { fit: 'fill' }).jpeg({ quality: 95 }).toBuffer());
}

/** How many of `read` pair with a code of `truth` (multiset intersection). */
export function commonCodes(truth: readonly string[], read: readonly string[]): number {
  const left = new Map<string, number>();
  for (const c of truth) left.set(c, (left.get(c) ?? 0) + 1);
  let n = 0;
  for (const c of read) {
    const k = left.get(c) ?? 0;
    if (k > 0) { n++; left.set(c, k - 1); }
  }
  return n;
}
