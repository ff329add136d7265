/**
 * How much a tile-set profile helps: accuracy before and after teaching 1, 2 and 5 corrected
 * photos of a set, and what a profile taught on one set does to another.
 *
 *   npm run --silent eval:learn -- [--data training-data/val-holdout] [--real /work/real/data] [--json]
 *                                  [--cache /tmp/learn-cache] [--methods knn,head] [--calibrate]
 *                                  [--modes after,read] [--limit N] [--real-per-set 40] [--tau T --weight W] [--all-kinds]
 *
 * Synthetic: the generator draws one physical set (faces and body) for every 6 consecutive scenes
 * (scene.ts SCENES_PER_GLYPHSET), and `--holdout` sets use only designs training never saw, so
 * the scenes of a held-out set grouped by 6 are photos of one unseen set. Real: the photos of
 * `--real DIR/{valid,test}` grouped by their file name's prefix (`hand_`, `IMG_`: one camera
 * and table each; the numeric names are photos of many sets and are not grouped).
 *
 * Each photo is scanned once (cached in `--cache`); its tiles are matched to the labels (IoU 0.5)
 * and embedded. Teaching with k photos = their matched tiles with the labelled codes (the
 * scan's --json lines with the codes corrected). Every photo of a set is a test photo once, taught
 * with the k photos after it (cyclically), so each k is measured on every photo. The profile
 * Two modes: `after` re-reads the found tiles' codes of the cached scan with the profile (cheap:
 * the profile changes only codes, so tile accuracy of the tiles found and hand exact are the
 * figures); `read` scans the test photo again with the profile in the read stage
 * (PipelineOptions.profile), as the app and `scan --profile` do, so the hand check and the layout
 * see it too, and tiles may be found or left out differently: tile F1 against the labels is
 * reported as well. Each profile's training time (the head's) is printed per profile.
 *
 * The cache is kept per set of model files and recognition code (a folder named by their hash),
 * so a changed model or stage never reads an old scan.
 *
 * `--calibrate` searches the combination's (tau, weight) on the even-numbered synthetic sets and
 * reports on the odd ones (tile accuracy and hand exact); the chosen values are CONFIG.profile
 * (src/vision/config.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeNode } from '../../src/vision/decode-node.ts';
import { loadDefaultModels, MODEL_DIR } from '../../src/vision/node.ts';
import { scanPhoto } from '../../src/vision/pipeline.ts';
import { applyReadings } from '../../src/vision/profile/apply.ts';
import { knnScorer, PROFILE_COMBINE, type CombineConfig, type ProfileScorer } from '../../src/vision/profile/combine.ts';
import { embedBoxes, type CropReading } from '../../src/vision/profile/embed.ts';
import { addExamples, base64ToFloats, emptyProfile, floatsToBase64, type Profile } from '../../src/vision/profile/format.ts';
import { scorerOfHead, trainHead, type TrainedHead } from '../../src/vision/profile/head.ts';
import type { Models } from '../../src/vision/session.ts';
import type { Box, ScanResult, TileCode } from '../../src/vision/types.ts';
import { loadRealSet, realPhotoBytes } from './real.ts';

function arg(name: string, def?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : def;
}
const flag = (name: string) => process.argv.includes(`--${name}`);

/** One photo, scanned and embedded. */
interface Shot {
  name: string;
  set: string;
  result: ScanResult;
  /** Labelled code of each scanned tile (null: not a tile). */
  truth: (TileCode | null)[];
  readings: CropReading[];
  /** Labelled tiles the scan did not find. */
  missed: number;
  /** The labelled tiles, and the photo's bytes (to scan it again with a profile). */
  gt: { code: TileCode; box: Box }[];
  bytes: () => Promise<Uint8Array>;
}

function iou(a: Box, b: Box): number {
  const x0 = Math.max(a[0], b[0]), y0 = Math.max(a[1], b[1]);
  const x1 = Math.min(a[0] + a[2], b[0] + b[2]), y1 = Math.min(a[1] + a[3], b[1] + b[3]);
  const i = Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
  return i / (a[2] * a[3] + b[2] * b[3] - i);
}

/** Greedy one-to-one matching at IoU >= 0.5, the surest scanned tiles first. */
function truthOf(gt: { code: TileCode; box: Box }[], r: ScanResult): { truth: (TileCode | null)[]; missed: number } {
  const used = new Set<number>();
  const truth: (TileCode | null)[] = r.tiles.map(() => null);
  const order = r.tiles.map((_, i) => i).sort((a, b) => r.tiles[b]!.score - r.tiles[a]!.score);
  for (const i of order) {
    let best = -1, bi = 0.5;
    gt.forEach((g, j) => {
      if (used.has(j)) return;
      const v = iou(g.box, r.tiles[i]!.box);
      if (v >= bi) { bi = v; best = j; }
    });
    if (best >= 0) { used.add(best); truth[i] = gt[best]!.code; }
  }
  return { truth, missed: gt.length - used.size };
}

interface CachedShot { name: string; set: string; result: ScanResult; truth: (TileCode | null)[]; missed: number; readings: { probs: number[]; views: [string, string] }[] }

async function shoot(models: Models, name: string, set: string, bytes: () => Promise<Uint8Array>, gt: { code: TileCode; box: Box }[], cacheDir: string | undefined): Promise<Shot> {
  const cf = cacheDir ? path.join(cacheDir, `${set}--${name}.json`.replace(/[^\w.-]/g, '_')) : undefined;
  if (cf && existsSync(cf)) {
    const c = JSON.parse(await readFile(cf, 'utf8')) as CachedShot;
    return { ...c, gt, bytes, readings: c.readings.map((r) => ({ probs: Float32Array.from(r.probs), views: [base64ToFloats(r.views[0]), base64ToFloats(r.views[1])] })) };
  }
  const photo = await decodeNode(await bytes());
  const result = await scanPhoto(photo, models);
  const readings = await embedBoxes(photo, models, result.tiles.map((t) => t.box));
  const { truth, missed } = truthOf(gt, result);
  const shot: Shot = { name, set, result, truth, readings, missed, gt, bytes };
  if (cf) {
    const c: CachedShot = { name, set, result, truth, missed, readings: readings.map((r) => ({ probs: Array.from(r.probs, (p) => Math.round(p * 1e6) / 1e6), views: [floatsToBase64(r.views[0]), floatsToBase64(r.views[1])] })) };
    await writeFile(cf, JSON.stringify(c));
  }
  return shot;
}

async function syntheticShots(models: Models, dir: string, cache: string | undefined, limit: number): Promise<Shot[]> {
  const names = (await readdir(path.join(dir, 'images'))).filter((f) => f.endsWith('.jpg')).sort().slice(0, limit);
  const out: Shot[] = [];
  for (const [i, f] of names.entries()) {
    const lab = JSON.parse(await readFile(path.join(dir, 'labels', f.replace(/\.jpg$/, '.json')), 'utf8')) as { tiles: { code: TileCode; box: Box }[] };
    if (!lab.tiles.length) continue; // a scene without tiles (the generator's negatives) teaches nothing
    out.push(await shoot(models, f, `${path.basename(dir)}#${Math.floor(i / 6)}`, async () => new Uint8Array(await readFile(path.join(dir, 'images', f))), lab.tiles, cache));
    if ((i + 1) % 25 === 0) process.stderr.write(`  ${dir}: ${i + 1}/${names.length}\n`);
  }
  return out;
}

/** The real photos of valid/ and test/ grouped by file-name prefix; the Roboflow copies of one photo (`.rf.` hash) once. */
async function realShots(models: Models, root: string, cache: string | undefined, perSet: number): Promise<Shot[]> {
  const out: Shot[] = [];
  const count = new Map<string, number>();
  for (const split of ['valid', 'test']) {
    const dir = path.join(root, split);
    if (!existsSync(dir)) continue;
    const photos = await loadRealSet(dir);
    const seen = new Set<string>();
    for (const p of photos.sort((a, b) => a.name.localeCompare(b.name))) {
      const prefix = /^(hand|IMG)[_-]/.exec(p.name)?.[1];
      const base = p.name.replace(/\.rf\..*$/, '');
      if (!prefix || seen.has(base) || (count.get(prefix) ?? 0) >= perSet) continue;
      seen.add(base);
      count.set(prefix, (count.get(prefix) ?? 0) + 1);
      out.push(await shoot(models, base, `real-${prefix}`, () => realPhotoBytes(p), p.tiles, cache));
      if (out.length % 20 === 0) process.stderr.write(`  real: ${out.length}\n`);
    }
  }
  return out;
}

interface Score { tiles: number; right: number; hands: number; exact: number; predicted: number; labelled: number }
const zero = (): Score => ({ tiles: 0, right: 0, hands: 0, exact: 0, predicted: 0, labelled: 0 });
/** `m`: the scan's tiles matched to the labels (truthOf). */
function scoreShot(m: { truth: (TileCode | null)[]; missed: number }, r: ScanResult, into: Score): void {
  let right = 0, found = 0;
  r.tiles.forEach((t, i) => { const g = m.truth[i]; if (g) { found++; if (g === t.code) right++; } });
  into.tiles += found;
  into.right += right;
  into.hands++;
  into.predicted += r.tiles.length;
  into.labelled += found + m.missed;
  if (right === found && found === m.truth.length && m.missed === 0) into.exact++;
}
const acc = (s: Score) => ({
  tile_accuracy: +(s.right / Math.max(1, s.tiles)).toFixed(4),
  // a tile counts when found and read right: 2 right / (scanned + labelled)
  tile_f1: +((2 * s.right) / Math.max(1, s.predicted + s.labelled)).toFixed(4),
  hand_exact: +(s.exact / Math.max(1, s.hands)).toFixed(4),
  tiles: s.tiles,
  hands: s.hands,
});

/** A profile taught by these photos' found tiles, with their labelled codes. */
function taught(shots: readonly Shot[]): Profile {
  const ex = shots.flatMap((s) => s.readings.flatMap((r, i) => (s.truth[i] ? [{ code: s.truth[i]!, embedding: r.views[0], at: 0 }] : [])));
  return addExamples(emptyProfile(ex[0]?.embedding.length ?? 512), ex, 1000);
}

type Method = 'knn' | 'head';
/** A scorer for the profile taught by the photos named `key`. */
type MakeScorer = (p: Profile, key: string) => Promise<ProfileScorer>;
const heads = new Map<string, TrainedHead>();

function groups(shots: readonly Shot[]): Shot[][] {
  const m = new Map<string, Shot[]>();
  for (const s of shots) m.set(s.set, [...(m.get(s.set) ?? []), s]);
  return [...m.values()];
}

type Mode = 'after' | 'read';
let MODELS: Models;

/** The test photo read with the profile: its cached scan's codes re-read (`after`), or the photo
 * scanned again with the profile in the read stage (`read`), matched to the labels again. */
async function withProfile(test: Shot, sc: ProfileScorer, mode: Mode): Promise<{ m: { truth: (TileCode | null)[]; missed: number }; r: ScanResult }> {
  if (mode === 'after') return { m: test, r: applyReadings(test.result, test.readings, sc, LABELS) };
  const r = await scanPhoto(await decodeNode(await test.bytes()), MODELS, { profile: sc });
  return { m: truthOf(test.gt, r), r };
}

/** Accuracy before, after teaching k photos of the same set (each photo tested once per k), and
 * on the next set with a profile taught by 5 photos of this one. */
async function measure(sets: Shot[][], make: MakeScorer, ks: readonly number[], mode: Mode = 'after'): Promise<Record<string, ReturnType<typeof acc>>> {
  const before = zero(), cross = zero(), crossBefore = zero();
  const after = new Map(ks.map((k) => [k, zero()]));
  // before, on the photos measured at k (a set of k photos or fewer is not measured at k)
  const beforeAt = new Map(ks.map((k) => [k, zero()]));
  const memo = new Map<string, ProfileScorer>();
  const scorerFor = async (key: string, shots: Shot[]) => memo.get(key) ?? memo.set(key, await make(taught(shots), shots.map((s) => s.name).join('|'))).get(key)!;
  let done = 0;
  for (const [gi, set] of sets.entries()) {
    for (const [ti, test] of set.entries()) {
      scoreShot(test, test.result, before);
      for (const k of ks) {
        if (set.length <= k) continue;
        const teach = Array.from({ length: k }, (_, j) => set[(ti + 1 + j) % set.length]!);
        const sc = await scorerFor(`${gi}:${ti}:${k}`, teach);
        const { m, r } = await withProfile(test, sc, mode);
        scoreShot(m, r, after.get(k)!);
        scoreShot(test, test.result, beforeAt.get(k)!);
      }
      if (mode === 'read' && ++done % 10 === 0) process.stderr.write(`  read with profiles: ${done} photos\n`);
    }
    if (sets.length > 1) {
      const other = sets[(gi + 1) % sets.length]!;
      const sc = await scorerFor(`x${gi}`, set.slice(0, 5));
      for (const test of other) {
        scoreShot(test, test.result, crossBefore);
        const { m, r } = await withProfile(test, sc, mode);
        scoreShot(m, r, cross);
      }
    }
  }
  const partly = ks.filter((k) => beforeAt.get(k)!.hands !== before.hands);
  return { before: acc(before), ...Object.fromEntries(partly.map((k) => [`before_${k}`, acc(beforeAt.get(k)!)])), ...Object.fromEntries(ks.map((k) => [`after_${k}`, acc(after.get(k)!)])), other_set_before: acc(crossBefore), other_set_after: acc(cross) };
}

/** The first 16 hex digits of the SHA-256 of the model files and the recognition code
 * (src/vision), which name the cache's folder: a changed model or stage never reads an old scan. */
async function modelsHash(): Promise<string> {
  const h = createHash('sha256');
  for (const f of (await readdir(MODEL_DIR)).filter((x) => x.endsWith('.onnx') || x === 'labels.json').sort()) h.update(f).update(await readFile(path.join(MODEL_DIR, f)));
  const vision = path.resolve(MODEL_DIR, '../src/vision');
  for (const f of (await readdir(vision, { recursive: true })).filter((x) => x.endsWith('.ts')).sort()) h.update(f).update(await readFile(path.join(vision, f)));
  return h.digest('hex').slice(0, 16);
}

let LABELS: readonly string[] = [];

async function main(): Promise<void> {
  const data = (arg('data', 'training-data/val-holdout') ?? '').split(',').filter(Boolean);
  const real = arg('real');
  const cacheRoot = arg('cache', '/tmp/learn-cache');
  const methods = (arg('methods', 'knn,head') ?? 'knn').split(',') as Method[];
  const modes = (arg('modes', 'after') ?? 'after').split(',') as Mode[];
  for (const m of modes) if (m !== 'after' && m !== 'read') throw new Error(`--modes: "${m}" is neither after nor read`);
  for (const m of methods) if (m !== 'knn' && m !== 'head') throw new Error(`--methods: "${m}" is neither knn nor head`);
  const limit = Number(arg('limit', '100000'));
  const cache = cacheRoot ? path.join(cacheRoot, await modelsHash()) : undefined;
  if (cache) mkdirSync(cache, { recursive: true });
  const models = await loadDefaultModels();
  MODELS = models;
  LABELS = models.labels;
  const synth: Shot[] = [];
  for (const d of data) synth.push(...(await syntheticShots(models, d, cache, limit)));
  const realSets = real ? groups(await realShots(models, real, cache, Number(arg('real-per-set', '40')))) : [];
  const synthSets = groups(synth);
  const ks = [1, 2, 5];
  // --all-kinds: a tile read as a kind the profile has no example of may change too (measures the rule that keeps it)
  const ALL_KINDS = new Set(LABELS.map((_, k) => k));
  const widen = (s: ProfileScorer): ProfileScorer => (flag('all-kinds') ? Object.assign((v: readonly Float32Array[]) => s(v), { kinds: ALL_KINDS }) : s);
  const makers: Record<Method, (c: CombineConfig) => MakeScorer> = {
    knn: (c) => async (p) => widen(knnScorer(p, c)),
    head: (c) => async (p, key) => {
      let h = heads.get(key);
      if (!h) {
        const t0 = performance.now();
        h = await trainHead(p);
        heads.set(key, h);
        headTrain.n++;
        headTrain.ms += performance.now() - t0;
        headTrain.examples += p.examples.length;
      }
      return widen(scorerOfHead(h, p, c));
    },
  };
  const headTrain = { n: 0, ms: 0, examples: 0 };
  // --tau, --weight: measure another combination than the shipped one (CONFIG.profile)
  const combine: CombineConfig = { tau: Number(arg('tau', String(PROFILE_COMBINE.tau))), weight: Number(arg('weight', String(PROFILE_COMBINE.weight))) };
  const out: Record<string, unknown> = { combine };
  if (flag('calibrate')) {
    const even = synthSets.filter((_, i) => i % 2 === 0), odd = synthSets.filter((_, i) => i % 2 === 1);
    const grid: Record<string, unknown>[] = [];
    // the grid for the nearest neighbours; the head is measured at the values they choose
    for (const m of ['knn'] as const) {
      for (const tau of [0.75, 0.8, 0.85, 0.9, 0.95]) {
        for (const weight of [2, 4, 8]) {
          const r = await measure(even, makers[m]({ tau, weight }), [2]);
          const row = { method: m, tau, weight, after_2: r.after_2!.tile_accuracy, before: r.before!.tile_accuracy, other_before: r.other_set_before!.tile_accuracy, other_after: r.other_set_after!.tile_accuracy, hands_before: r.before!.hand_exact, hands_after_2: r.after_2!.hand_exact, hands_other_after: r.other_set_after!.hand_exact };
          grid.push(row);
          process.stderr.write(`${JSON.stringify(row)}\n`);
        }
      }
    }
    out.calibration = grid;
    out.odd_sets = Object.fromEntries(await Promise.all(methods.map(async (m) => [m, await measure(odd, makers[m](combine), ks)] as const)));
  }
  for (const m of methods) {
    for (const mode of modes) {
      const t0 = performance.now();
      out[`${m}_${mode}`] = {
        synthetic: synthSets.length ? { sets: synthSets.length, ...(await measure(synthSets, makers[m](combine), ks, mode)) } : undefined,
        ...Object.fromEntries(realSets.map((s) => [s[0]!.set, { photos: s.length }])),
        real: realSets.length ? await measure(realSets, makers[m](combine), ks, mode) : undefined,
        seconds: +((performance.now() - t0) / 1000).toFixed(1),
        ...(m === 'head' && headTrain.n ? { head_profiles: headTrain.n, head_ms_per_profile: +(headTrain.ms / headTrain.n).toFixed(1), head_mean_examples: +(headTrain.examples / headTrain.n).toFixed(1) } : {}),
      };
    }
  }
  console.log(JSON.stringify(out, null, flag('json') ? undefined : 1));
}

main().catch((e) => {
  console.error(`eval:learn: ${(e as Error).stack ?? e}`);
  process.exit(1);
});
