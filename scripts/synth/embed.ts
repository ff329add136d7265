/**
 * npx tsx scripts/synth/embed.ts --from training-data/val-holdout --out training-data/embed-holdout [--scale 3] [--seed 1] [--limit N]
 *
 * A sharp photo of a hand shot from far off, made from a generator scene set: each scene is pasted
 * at its own resolution into a frame `scale` times larger each way, at a random place, the rest of
 * the frame in the scene's border colour. The tiles keep their pixels (as in a 12 MP phone photo of
 * a whole table) but are `scale` times smaller against the frame, so a pipeline that reads the photo
 * only at a fixed raster size loses them. Labels move with the scene. The generator's own `--far`
 * option renders far views directly, but its photo effects (blur, motion) scale with the frame and
 * smear tiles that small; this set keeps them sharp.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { rngFor } from './rng.ts';

interface Args { from: string; out: string; scale: number; seed: number; limit: number }

export function parseEmbedArgs(argv: readonly string[]): Args {
  const a: Args = { from: '', out: '', scale: 3, seed: 1, limit: 0 };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i]!;
    const v = () => {
      const x = argv[++i];
      if (x === undefined) throw new Error(`${k} needs a value`);
      return x;
    };
    switch (k) {
      case '--from': a.from = v(); break;
      case '--out': a.out = v(); break;
      case '--scale': a.scale = Number(v()); break;
      case '--seed': a.seed = Number(v()); break;
      case '--limit': a.limit = Number(v()); break;
      default: throw new Error(`unknown option ${k}`);
    }
  }
  if (!a.from || !a.out) throw new Error('--from and --out are required');
  if (!(a.scale >= 1 && a.scale <= 8)) throw new Error('--scale must be in 1..8');
  if (!Number.isInteger(a.limit) || a.limit < 0) throw new Error('--limit must be a non-negative integer');
  return a;
}

/** The mean colour of a raster's outermost rows and columns. */
export function borderColour(data: Uint8Array, w: number, h: number, c: number): [number, number, number] {
  const s = [0, 0, 0];
  let n = 0;
  const add = (x: number, y: number) => { for (let k = 0; k < 3; k++) s[k]! += data[(y * w + x) * c + k]!; n++; };
  for (let x = 0; x < w; x++) { add(x, 0); add(x, h - 1); }
  for (let y = 1; y < h - 1; y++) { add(0, y); add(w - 1, y); }
  return s.map((v) => Math.round(v / n)) as [number, number, number];
}

/** Embeds every scene of `a.from` (up to `a.limit`) into `a.out`; returns how many. */
export async function embedSet(a: Args): Promise<number> {
  if (!existsSync(path.join(a.from, 'images'))) throw new Error(`${a.from} is not a generator scene set (no images/)`);
  await mkdir(path.join(a.out, 'images'), { recursive: true });
  await mkdir(path.join(a.out, 'labels'), { recursive: true });
  let files = (await readdir(path.join(a.from, 'images'))).filter((f) => f.endsWith('.jpg')).sort();
  if (a.limit) files = files.slice(0, a.limit);
  for (const [n, f] of files.entries()) {
    const id = f.slice(0, -4);
    const label = JSON.parse(await readFile(path.join(a.from, 'labels', `${id}.json`), 'utf8'));
    const src = path.join(a.from, 'images', f);
    const { data, info } = await sharp(src).raw().toBuffer({ resolveWithObject: true });
    const [r, g, b] = borderColour(data, info.width, info.height, info.channels);
    const W = Math.round(info.width * a.scale), H = Math.round(info.height * a.scale);
    const rng = rngFor(a.seed, 'embed', n);
    const ox = Math.round(rng() * (W - info.width)), oy = Math.round(rng() * (H - info.height));
    await sharp({ create: { width: W, height: H, channels: 3, background: { r, g, b } } })
      .composite([{ input: src, left: ox, top: oy }])
      .jpeg({ quality: 90 })
      .toFile(path.join(a.out, 'images', f));
    label.width = W;
    label.height = H;
    for (const t of label.tiles) {
      t.box = [t.box[0] + ox, t.box[1] + oy, t.box[2], t.box[3]];
      if (t.quad) t.quad = t.quad.map(([x, y]: [number, number]) => [x + ox, y + oy]);
    }
    await writeFile(path.join(a.out, 'labels', `${id}.json`), JSON.stringify(label));
  }
  const manifest = existsSync(path.join(a.from, 'manifest.json')) ? JSON.parse(await readFile(path.join(a.from, 'manifest.json'), 'utf8')) : {};
  manifest.items = files.length;
  manifest.embed = { from: a.from, scale: a.scale, seed: a.seed, script: 'scripts/synth/embed.ts' };
  await writeFile(path.join(a.out, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return files.length;
}

async function main(): Promise<void> {
  const a = parseEmbedArgs(process.argv.slice(2));
  const n = await embedSet(a);
  console.log(`[embed] ${n} scenes from ${a.from} in frames ${a.scale}x as large: ${a.out}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  main().catch((e) => {
    console.error(`embed: ${(e as Error).message}`);
    process.exit(1);
  });
}
