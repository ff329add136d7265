/**
 * npm run bench:vision -- [--runs 9] [--image FILE] [--json]
 *
 * Times the full pipeline (sharp decode with EXIF + early downscale, letterbox,
 * detector and batched classifier in onnxruntime-web wasm, layout) from the
 * bytes of a 12-megapixel (4000x3000) JPEG, in Node, and prints the median.
 * The photo is made once with the synthetic generator (--size 4000) into
 * test/artifacts/bench/ (git-ignored) and reused. A second 12 MP photo shows a hand shot from far
 * off (generator --far: tiles 1.2-3 % of the width), which takes the fine search and the
 * full-resolution zoom; its median is printed too (not with --image). A third is the first photo as
 * an iPhone stores one: the pixels on their side with EXIF orientation 6 and a Display P3 colour
 * profile (phones tag their photos; the decode turns them upright and into sRGB).
 * onnxruntime-web runs on nodeThreads() wasm threads (the machine's cores, up to 4;
 * MAHJONG_THREADS=1 times one thread).
 * With --json the last line is {"median_ms","far_median_ms","phone_median_ms","model_bytes","threads"}.
 */
import { readFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import sharp from 'sharp';
import { loadDefaultModels, nodeThreads, scanBytes, MODEL_DIR } from '../../src/vision/node.ts';

function arg(name: string, def?: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : def;
}
const JSON_OUT = process.argv.includes('--json');
const runs = Number(arg('--runs', '9'));

type Kind = 'standard' | 'far' | 'phone';

async function benchImage(kind: Kind): Promise<string> {
  const given = arg('--image');
  if (given) return given;
  const dir = path.join('test', 'artifacts', 'bench');
  const out = path.join(dir, `${kind === 'standard' ? 'scene' : kind}-4000x3000.jpg`);
  if (existsSync(out)) return out;
  await mkdir(dir, { recursive: true });
  if (kind === 'phone') {
    // stored 3000x4000, shown 4000x3000 (orientation 6 turns it a quarter clockwise), Display P3
    await sharp(await benchImage('standard')).rotate(-90).withMetadata({ orientation: 6 }).withIccProfile('p3')
      .jpeg({ quality: 92, chromaSubsampling: '4:2:0' }).toFile(out);
    return out;
  }
  const far = kind === 'far';
  const gen = path.join('scripts', 'synth', 'generate.ts');
  let src: string | undefined;
  if (existsSync(gen)) {
    const tmp = path.join(dir, far ? 'gen-far' : 'gen');
    execFileSync('npx', ['tsx', gen, '--out', tmp, '--count', '1', '--seed', far ? '4243' : '4242', '--size', '4000', ...(far ? ['--far'] : [])], { stdio: 'ignore' });
    src = path.join(tmp, 'images', '000000.jpg');
  }
  if (!src || !existsSync(src)) throw new Error('no generator output; pass --image FILE');
  // exactly 4000x3000 (12 MP) with phone-like sensor noise and JPEG quality 92, so the file
  // (~3-4 MB) costs what a real photo costs to decode (a clean render compresses far better)
  const { data, info } = await sharp(src).resize(4000, 3000, { fit: 'cover' }).raw().toBuffer({ resolveWithObject: true });
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
  for (let i = 0; i < data.length; i++) {
    const v = data[i] + (rnd() + rnd() + rnd() - 1.5) * 14;
    data[i] = v < 0 ? 0 : v > 255 ? 255 : v;
  }
  await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .jpeg({ quality: 92, chromaSubsampling: '4:2:0' })
    .toFile(out);
  return out;
}

/** Median ms of `runs` scans of one photo (after a warm-up scan), per-stage medians, tiles found. */
async function timeScans(bytes: Uint8Array, models: Awaited<ReturnType<typeof loadDefaultModels>>) {
  await scanBytes(bytes, models); // warm
  const times: number[] = [];
  const stages: Record<string, number[]> = {};
  let tiles = 0;
  for (let i = 0; i < runs; i++) {
    const timings: Record<string, number> = {};
    const t = performance.now();
    const r = await scanBytes(bytes, models, { timings });
    times.push(performance.now() - t);
    tiles = r.tiles.length;
    for (const [k, v] of Object.entries(timings)) (stages[k] ??= []).push(v);
  }
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
  return { median: med(times), min: Math.min(...times), max: Math.max(...times), tiles, stages: Object.entries(stages).map(([k, v]) => `${k} ${med(v).toFixed(1)}`).join(', ') };
}

async function main(): Promise<void> {
  const models = await loadDefaultModels(arg('--models') ?? MODEL_DIR);
  const threads = nodeThreads();
  const modelBytes = models.bytes;
  const lines: string[] = [];
  const medians: number[] = [];
  for (const kind of arg('--image') ? ['standard' as const] : (['standard', 'far', 'phone'] as const)) {
    const file = await benchImage(kind);
    const bytes = new Uint8Array(await readFile(file));
    const meta = await sharp(bytes).metadata();
    const t = await timeScans(bytes, models);
    medians.push(t.median);
    lines.push(
      `bench:vision ${file} (${meta.width}x${meta.height}${meta.orientation && meta.orientation !== 1 ? `, EXIF orientation ${meta.orientation}` : ''}${meta.icc ? ', colour profile' : ''}, ${(bytes.length / 1e6).toFixed(1)} MB), ${runs} runs, ${t.tiles} tiles`,
      `median ${t.median.toFixed(1)} ms (min ${t.min.toFixed(1)}, max ${t.max.toFixed(1)})`,
      `stages (median ms): ${t.stages}`,
    );
  }
  lines.push(`model bytes ${modelBytes}`, `wasm threads ${threads} (MAHJONG_THREADS=1 for one)`);
  if (JSON_OUT) {
    for (const l of lines) console.error(l);
    console.log(JSON.stringify({ median_ms: +medians[0]!.toFixed(1), ...(medians[1] !== undefined ? { far_median_ms: +medians[1].toFixed(1) } : {}), ...(medians[2] !== undefined ? { phone_median_ms: +medians[2].toFixed(1) } : {}), model_bytes: modelBytes, threads }));
  } else for (const l of lines) console.log(l);
}

main().catch((e) => {
  console.error(`bench:vision: ${(e as Error).message}`);
  process.exit(1);
});
