/** Loading of the shared tile artwork (read-only, never copied into the repo). */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { sharedDir } from '../shared-dir.ts';

export interface Img {
  data: Uint8ClampedArray; // RGBA
  w: number;
  h: number;
}

export const ART_FAMILIES = ['ffalt-uni', 'ffalt-unib', 'gleitz', 'fluffy-regular', 'fluffy-black', 'symbola', 'noto-symbols2'] as const;
export type ArtFamily = (typeof ART_FAMILIES)[number];
/** Art variants never used by the training split (used only with --holdout). */
export const HOLDOUT_ART: ArtFamily[] = ['ffalt-unib', 'fluffy-black', 'noto-symbols2'];
export const TRAIN_ART: ArtFamily[] = ART_FAMILIES.filter((f) => !HOLDOUT_ART.includes(f));

export function defaultArtRoot(repoRoot: string): string {
  return path.join(sharedDir(repoRoot), 'data', 'art');
}

/** Throws a clear error if the art folder (or a family inside it) is missing. */
export function checkArtRoot(root: string): void {
  const need = ['ffalt-mah-unicode-tiles', 'gleitz-mahjong-tiles', 'FluffyStuff-riichi-mahjong-tiles', 'unicode-mahjong-font-glyphs'];
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) {
    throw new Error(
      `synth: tile artwork folder not found at ${root}. Expected ../shared/data/art relative to the repository root ` +
        `(see ../shared/data/README.md), or pass --art <dir>. The artwork is read at generation time and is never copied into the repo.`,
    );
  }
  const missing = need.filter((d) => !fs.existsSync(path.join(root, d)));
  if (missing.length) throw new Error(`synth: artwork folder ${root} is incomplete; missing: ${missing.join(', ')}`);
}

function readCsv(file: string): [string, string][] {
  return fs
    .readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .slice(1)
    .filter((l) => l.trim())
    .map((l) => l.split(',') as [string, string]);
}

/** file path per code for one family; flowers etc. may be missing (fallback to drawn glyphs). */
function familyFiles(root: string, fam: ArtFamily): Map<string, string> {
  const m = new Map<string, string>();
  const codes = JSON.parse(fs.readFileSync(new URL('./classes.json', import.meta.url), 'utf8')) as string[];
  const byCode = (dir: string) => {
    for (const c of codes) {
      const f = path.join(dir, `${c}.png`);
      if (fs.existsSync(f)) m.set(c, f);
    }
  };
  switch (fam) {
    case 'ffalt-uni': byCode(path.join(root, 'ffalt-mah-unicode-tiles', 'uni', 'png')); break;
    case 'ffalt-unib': byCode(path.join(root, 'ffalt-mah-unicode-tiles', 'unib', 'png')); break;
    case 'symbola': byCode(path.join(root, 'unicode-mahjong-font-glyphs', 'symbola')); break;
    case 'noto-symbols2': byCode(path.join(root, 'unicode-mahjong-font-glyphs', 'noto-sans-symbols2')); break;
    case 'gleitz': {
      const dir = path.join(root, 'gleitz-mahjong-tiles');
      for (const [f, c] of readCsv(path.join(dir, 'mapping.csv'))) if (codes.includes(c)) m.set(c, path.join(dir, f));
      break;
    }
    case 'fluffy-regular':
    case 'fluffy-black': {
      const v = fam === 'fluffy-regular' ? 'Regular' : 'Black';
      const dir = path.join(root, 'FluffyStuff-riichi-mahjong-tiles');
      for (const [f, c] of readCsv(path.join(dir, 'mapping.csv'))) {
        if (!f.startsWith(v + '/') || !codes.includes(c)) continue;
        m.set(c, path.join(dir, 'Export', v, path.basename(f).replace(/\.svg$/, '.png')));
      }
      break;
    }
  }
  return m;
}

/**
 * FluffyStuff's Black variant paints white (and grey) glyph parts for a black tile face.
 * Composited on our white and ivory bodies they would vanish: a wind would read as a
 * blank white dragon, a 萬 tile would lose its numeral. Invert the unsaturated pixels
 * (white -> near-black, black details -> white) and keep the coloured ones, which
 * gives a legible dark-ink variant of the same shapes. Alpha is untouched.
 */
export function invertGreys(rgba: Uint8Array | Uint8ClampedArray): void {
  for (let i = 0; i < rgba.length; i += 4) {
    if (rgba[i + 3] === 0) continue;
    const r = rgba[i], g = rgba[i + 1], b = rgba[i + 2];
    if (Math.max(r, g, b) - Math.min(r, g, b) > 40) continue;
    rgba[i] = 255 - r; rgba[i + 1] = 255 - g; rgba[i + 2] = 255 - b;
  }
}

export const FULL_FACE: ReadonlySet<ArtFamily> = new Set(['gleitz']);

export interface ArtSet {
  family: ArtFamily;
  cells: Map<string, Img>;
  fullFace: boolean;
}

const cache = new Map<string, Promise<ArtSet>>();

/** Load a family, each glyph fitted into a cw x ch cell (transparent background). */
export function loadArt(root: string, fam: ArtFamily, cw: number, ch: number): Promise<ArtSet> {
  const key = `${root}|${fam}|${cw}x${ch}`;
  let p = cache.get(key);
  if (!p) {
    p = (async () => {
      const files = familyFiles(root, fam);
      const cells = new Map<string, Img>();
      const full = FULL_FACE.has(fam);
      for (const [code, file] of files) {
        let img = sharp(file).ensureAlpha();
        if (full) {
          // whole tile face with its own body: crop the outer border (shading/outline) away
          const meta = await sharp(file).metadata();
          const bx = Math.round((meta.width ?? 74) * 0.06), by = Math.round((meta.height ?? 100) * 0.05);
          img = img.extract({ left: bx, top: by, width: (meta.width ?? 74) - 2 * bx, height: (meta.height ?? 100) - 2 * by })
            .resize(cw, ch, { fit: 'fill', kernel: 'lanczos3' });
        } else {
          const trimmed = await img.trim({ threshold: 1 }).png().toBuffer();
          const pad = fam === 'symbola' || fam === 'noto-symbols2' ? 0 : 0.06;
          const iw = Math.round(cw * (1 - 2 * pad)), ih = Math.round(ch * (1 - 2 * pad));
          const fit = fam === 'symbola' || fam === 'noto-symbols2' ? 'fill' : 'contain';
          img = sharp(trimmed).resize(iw, ih, { fit, background: { r: 0, g: 0, b: 0, alpha: 0 } })
            .extend({ left: Math.floor((cw - iw) / 2), right: Math.ceil((cw - iw) / 2), top: Math.floor((ch - ih) / 2), bottom: Math.ceil((ch - ih) / 2), background: { r: 0, g: 0, b: 0, alpha: 0 } });
        }
        const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
        if (fam === 'fluffy-black') invertGreys(data);
        cells.set(code, { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), w: info.width, h: info.height });
      }
      return { family: fam, cells, fullFace: full };
    })();
    cache.set(key, p);
  }
  return p;
}
