/** Scene and single-tile rendering: styles, camera, compositing, labels. */
import sharp from 'sharp';
import { type ArtFamily, type Img, HOLDOUT_ART, TRAIN_ART, ART_FAMILIES, loadArt } from './art.ts';
import { type BodyStyle, type Frame, type RGB, type Sprite, buildSprite, drawShadows, drawTile, newFrame, photoEffects } from './render.ts';
import { EXTRA_TRAIN_FONTS, HOLDOUT_FONTS, TRAIN_FONTS, type GlyphStyle, sampleGlyphStyle, sheetSvg } from './faces.ts';
import { makeTexture, paintBackground, sampleBgKind, drawDistractor } from './background.ts';
import { CLASSES, FLOWERS, type Placed, closeUpWindow, layoutHand, layoutSetGrid, sampleHand, scatterApart } from './hand.ts';
import { type M3, type Pt, apply, convexHull, homography, mul, rotate, scale, translate } from './geom.ts';
import { type Rng, chance, clamp, int, pick, rngFor, shuffle, uni, weighted } from './rng.ts';
import { inkArt } from './inkart.ts';

export const GENERATOR_VERSION = '1.17.0';

export interface GenOptions {
  seed: number;
  size: number;
  holdout: boolean;
  allStyles: boolean;
  artRoot: string;
  tileSize: number;
  /** Add EXTRA_TRAIN_FONTS to the training fonts (never to the holdout). */
  extraFonts?: boolean;
  /**
   * Generator 1.4.0 designs (never in the holdout): more table patterns (background.ts
   * EXTRA_BG), plant and season motifs and more layouts for flowers and seasons, and more
   * bird designs for the 1 of bamboo (faces.ts ExtraStyle). Without it the output is that of 1.3.0.
   */
  extraStyles?: boolean;
  /**
   * Generator 1.5.0, with extraStyles only: flowers and seasons often show another one's plant or
   * scene (faces.ts ExtraStyle.decoy). Without it the output is that of 1.4.0.
   */
  decoyFlowers?: boolean;
  /** Generator 1.6.0 (`--decoy-always`, with decoyFlowers): every drawn flower and season shows a
   * random plant or scene, so the picture says nothing and only the character and numeral do. */
  decoyAlways?: boolean;
  /**
   * Generator 1.6.0, with extraStyles only: most drawn sets are printed in one ink, with small
   * flower characters, dense line-art plants and an upright ink bird (faces.ts ExtraStyle.ink).
   * Without it the output is that of 1.5.0.
   */
  ink?: boolean;
  /**
   * Generator 1.7.0, with extraStyles only: three drawn sets in four draw the 1 of bamboo as a
   * procedural bird (faces.ts birdProc). Without it the output is that of 1.6.0.
   */
  birds?: boolean;
  /** Generator 1.15.0 (`--ornaments`, with extraStyles): flowers and seasons often show a procedural ornament unrelated to their name. */
  ornaments?: boolean;
  /** Generator 1.16.0 (`--line-art`, never the holdout): three glyph sets in five print the bird
   * of the 1 of bamboo and the flowers and seasons (now and then every face) as one-ink line
   * drawings or ink paintings (inkart.ts), often those of a training artwork family. Its draws
   * come from their own stream: without it the output is that of 1.15.0. */
  lineArt?: boolean;
  /** Generator 1.17.0 (`--swap-art`, never the holdout): half the glyph sets are the Symbola
   * glyphs with the pictures of the eight flowers and seasons shuffled among them, each keeping
   * its own corner character (swapPictures). Its draws come from their own stream: without it the
   * output is that of 1.16.0. */
  swapArt?: boolean;
  /** Generator 1.6.0: a quarter of the training tables are tile-sized patchwork or brick cloths
   * (background.ts PATCH_BG). Without it the output is that of 1.5.0. */
  tileCloths?: boolean;
  /** Generator 1.8.0: every scene (but the hard negatives) is a set laid out in a grid rather than
   * a hand (hand.ts layoutSetGrid). Without it the output is that of 1.7.0. */
  setGrids?: boolean;
  /** Generator 1.14.0, with setGrids: how many tiles a grid holds, LO..HI (default 18..48, the
   * output of 1.13.0); up to 144, a whole set laid out for a photo. */
  gridTiles?: [number, number];
  /** Generator 1.9.0: every scene (but the hard negatives) is a close-up of a few tiles of the
   * layout (hand.ts closeUpWindow), each tile 14-40 % of the photo's width where they fit. Its
   * draws come from their own stream: without it the output is that of 1.8.0. */
  closeUps?: boolean;
  /** Generator 1.10.0: every scene is photographed from far off, the whole table in view, each tile
   * 1.2-3 % of the photo's width (the plain scenes: 3-12 %). Its draw comes from its own stream:
   * without it the output is that of 1.9.0. Use with a large --size, as a phone's photo would be. */
  far?: boolean;
  /** Generator 1.11.0: in about two scenes in three, the flowers and spare face-down tiles are laid
   * aside one by one round the hand (hand.ts scatterApart). Its draws come from their own stream:
   * without it the output is that of 1.10.0. */
  apart?: boolean;
  /** Single tiles only: the classes to render, round robin (default all 43). */
  codes?: readonly string[];
  /** Generator 1.12.0, single tiles only: the margin round the tile, as a fraction of its size on
   * each side, drawn from [lo, hi] in a stream of its own (a photo of one tile with the table and
   * nothing else on it). Without it the margin is 0-0.22 and the output is that of 1.11.0. */
  tileMargin?: readonly [number, number];
}

export interface TileLabel {
  code: string;
  box: [number, number, number, number];
  quad: [number, number][];
  rotation: number;
  sideways: boolean;
  upside_down: boolean;
  group: number;
  row: number;
  /** image-space vector from the top-face quad to the tile's footprint (visible thickness) */
  extrude: [number, number];
  truncated?: boolean;
}

export interface SceneLabel {
  width: number;
  height: number;
  negative?: boolean;
  /** tiles standing on edge (thickness visible above the faces) */
  standing?: boolean;
  tiles: TileLabel[];
}

// ---------------------------------------------------------------- glyph sets
interface GlyphSet {
  key: string;
  cells: Map<string, Img>;
  fullFace: Set<string>;
}

/** Consecutive scenes that share one physical set (glyphs and body). */
export const SCENES_PER_GLYPHSET = 6;
const gsCache = new Map<string, Promise<GlyphSet>>();

const cellSize = (size: number): [number, number] => {
  const cw = clamp(Math.round(size / 8), 96, 384);
  return [cw, Math.round((cw * 4) / 3)];
};

/** The drawn faces of a design's sheet (sheetSvg), cut into cells. */
async function drawnCells(design: GlyphSetDesign, cw: number, ch: number): Promise<Map<string, Img>> {
  const { data, info } = await sharp(Buffer.from(design.svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const cells = new Map<string, Img>();
  CLASSES.forEach((code, i) => {
    const x0 = (i % design.cols) * cw, y0 = Math.floor(i / design.cols) * ch;
    const d = new Uint8ClampedArray(cw * ch * 4);
    for (let y = 0; y < ch; y++) {
      const src = ((y0 + y) * info.width + x0) * 4;
      d.set(data.subarray(src, src + cw * 4), y * cw * 4);
    }
    cells.set(code, { data: d, w: cw, h: ch });
  });
  return cells;
}

/** Also seeds the sprites: keep it as in 1.3.0 unless --extra-styles applies (never to the holdout). */
const ctxKey = (o: GenOptions) => `${o.seed}|${o.holdout}|${o.allStyles}|${o.size}${o.extraStyles && !o.holdout ? '|x' : ''}${o.decoyFlowers ? (o.decoyAlways ? '|D' : '|d') : ''}${o.ink ? '|i' : ''}${o.birds ? '|b' : ''}${o.ornaments ? '|o' : ''}${o.lineArt && !o.holdout ? '|l' : ''}${o.swapArt && !o.holdout ? '|s' : ''}`;

/** A table texture kind for these options (--extra-styles patterns and --tile-cloths never reach the holdout). */
const bgKind = (r: Rng, opts: GenOptions) => sampleBgKind(r, opts.holdout, opts.allStyles, !!opts.extraStyles && !opts.holdout, !!opts.tileCloths);

/** Drop all in-process caches (tests). */
export function clearCaches(): void {
  gsCache.clear();
  spriteCache = { key: '', m: new Map() };
}

/**
 * What one physical set's faces are drawn from, decided by the seeded draws alone (no rendering):
 * the drawn style and its sheet; then either the Symbola glyphs with their pictures swapped
 * (`--swap-art`), an artwork family in place of the drawn faces (with blue and green swapped or
 * not), or the drawn faces. glyphSetFor renders it; `scripts/synth/designs.ts` lists it per scene,
 * so that errors can be counted by design.
 */
export interface GlyphSetDesign {
  style: GlyphStyle;
  svg: string;
  cols: number;
  source: 'drawn' | 'symbola-swapped' | ArtFamily;
  /** An artwork family's blue and green swapped. */
  swapGB: boolean;
  /** The draws that shuffle the swapped Symbola pictures (source 'symbola-swapped'). */
  swapDraws?: Rng;
}

export function glyphSetDesign(opts: GenOptions, groupKey: string): GlyphSetDesign {
  const r = rngFor(opts.seed, 'glyphset', groupKey, opts.holdout ? 'H' : 'T');
  const [cw, ch] = cellSize(opts.size);
  const train = opts.extraFonts ? [...TRAIN_FONTS, ...EXTRA_TRAIN_FONTS] : TRAIN_FONTS;
  const fonts = opts.allStyles ? [...train, ...HOLDOUT_FONTS] : opts.holdout ? HOLDOUT_FONTS : train;
  const arts: readonly ArtFamily[] = opts.allStyles ? ART_FAMILIES : opts.holdout ? HOLDOUT_ART : TRAIN_ART;
  const style = sampleGlyphStyle(r, fonts, {
    extra: !!opts.extraStyles && !opts.holdout,
    decoy: opts.decoyFlowers ? (opts.decoyAlways ? 'always' : true) : false,
    ink: !!opts.ink,
    birds: !!opts.birds,
    ornaments: !!opts.ornaments,
  });
  const glyphScale = uni(r, 0.9, 1.02);
  const { svg, cols } = sheetSvg(r, style, CLASSES, cw, ch, glyphScale);
  const sw = opts.swapArt && !opts.holdout ? rngFor(opts.seed, 'swapart', groupKey, 'T') : null;
  if (sw && chance(sw, 0.5)) return { style, svg, cols, source: 'symbola-swapped', swapGB: false, swapDraws: sw };
  if (chance(r, opts.holdout ? 0.45 : 0.3)) {
    const source = pick(r, arts);
    // sets differ in which of blue/green they use: sometimes swap those channels (red stays red)
    return { style, svg, cols, source, swapGB: chance(r, 0.3) };
  }
  return { style, svg, cols, source: 'drawn', swapGB: false };
}

function glyphSetFor(opts: GenOptions, groupKey: string): Promise<GlyphSet> {
  const key = `${groupKey}|${ctxKey(opts)}`;
  let p = gsCache.get(key);
  if (p) return p;
  p = (async () => {
    const [cw, ch] = cellSize(opts.size);
    const design = glyphSetDesign(opts, groupKey);
    const drawn = await drawnCells(design, cw, ch);
    const fullFace = new Set<string>();
    if (design.source === 'symbola-swapped') {
      const art = await loadArt(opts.artRoot, 'symbola', cw, ch);
      for (const [code, img] of art.cells) drawn.set(code, img);
      swapPictures(design.swapDraws!, drawn);
      return lineArtSet(opts, groupKey, { key: `${groupKey}:symbola-swapped`, cells: drawn, fullFace }, cw, ch, false);
    }
    if (design.source !== 'drawn') {
      const fam = design.source;
      const art = await loadArt(opts.artRoot, fam, cw, ch);
      for (const [code, img0] of art.cells) {
        let img = img0;
        if (design.swapGB) {
          const d = new Uint8ClampedArray(img0.data);
          for (let i = 0; i < d.length; i += 4) { const g = d[i + 1]; d[i + 1] = d[i + 2]; d[i + 2] = g; }
          img = { data: d, w: img0.w, h: img0.h };
        }
        drawn.set(code, img);
        if (art.fullFace) fullFace.add(code);
      }
      return lineArtSet(opts, groupKey, { key: `${groupKey}:${fam}`, cells: drawn, fullFace }, cw, ch, false);
    }
    return lineArtSet(opts, groupKey, { key: `${groupKey}:drawn`, cells: drawn, fullFace }, cw, ch, true);
  })();
  gsCache.set(key, p);
  if (gsCache.size > 6) gsCache.delete(gsCache.keys().next().value as string);
  return p;
}

/** The share of a Symbola glyph's width and height that holds its flower character (top left). */
export const SYMBOLA_CHAR_BOX: readonly [number, number] = [0.55, 0.33];

/**
 * `--swap-art` (generator 1.17.0): each flower or season cell becomes another one's (a random
 * permutation of the eight), with its own top-left character box (SYMBOLA_CHAR_BOX) pasted back,
 * so that in the line-art style of the Unicode glyphs only the character names the flower: the
 * held-out Unicode set draws other plants under its characters (a tuft of ink leaves for the
 * orchid), which the readers took for the plant they had learnt to go with the style.
 */
export function swapPictures(r: Rng, cells: Map<string, Img>): void {
  const codes = FLOWERS.filter((c) => cells.has(c));
  const src = codes.map((c) => cells.get(c)!);
  const perm = shuffle(r, codes.map((_, i) => i));
  codes.forEach((code, k) => {
    const own = src[k]!, base = src[perm[k]!]!;
    if (own.w !== base.w || own.h !== base.h) return;
    const d = new Uint8ClampedArray(base.data);
    const bw = Math.round(base.w * SYMBOLA_CHAR_BOX[0]), bh = Math.round(base.h * SYMBOLA_CHAR_BOX[1]);
    for (let y = 0; y < bh; y++) d.set(own.data.subarray(y * own.w * 4, (y * own.w + bw) * 4), y * base.w * 4);
    cells.set(code, { data: d, w: base.w, h: base.h });
  });
}

/** The faces that differ most between sets: the bird and the flowers and seasons. */
const PICTURES: ReadonlySet<string> = new Set(['1s', ...FLOWERS]);
const LINE_INKS: RGB[] = [[22, 22, 24], [28, 40, 110], [20, 85, 50], [140, 30, 32]];

/** `--line-art` (generator 1.16.0): three sets in five redrawn in one ink (inkart.ts), their
 * pictures (and in three of those sets in ten, every face but the back), in a drawn set often with
 * the pictures of a training artwork family (`drawnOnly`: the set has no artwork of its own).
 * Unchanged without the option and in the holdout. */
async function lineArtSet(opts: GenOptions, groupKey: string, gs: GlyphSet, cw: number, ch: number, drawnOnly: boolean): Promise<GlyphSet> {
  if (!opts.lineArt || opts.holdout) return gs;
  const r = rngFor(opts.seed, 'lineart', groupKey, 'T');
  if (!chance(r, 0.6)) return gs;
  const cells = new Map(gs.cells);
  const fullFace = new Set(gs.fullFace);
  let key = gs.key;
  if (drawnOnly && chance(r, 0.4)) {
    const fam = pick(r, TRAIN_ART);
    const art = await loadArt(opts.artRoot, fam, cw, ch);
    for (const c of PICTURES) {
      const img = art.cells.get(c);
      if (img) cells.set(c, img);
    }
    key += `+${fam}`;
  }
  const every = chance(r, 0.3);
  const mode = chance(r, 0.55) ? 'outline' : 'mono';
  const ink = pick(r, LINE_INKS);
  const stroke = Math.max(1, Math.round(cw / uni(r, 40, 80)));
  for (const [c, img] of cells) {
    if (c === 'back' || (!every && !PICTURES.has(c))) continue;
    cells.set(c, inkArt(img, mode, ink, stroke));
    fullFace.delete(c);
  }
  return { key: `${key}|${mode}${every ? '-all' : ''}`, cells, fullFace };
}

// ---------------------------------------------------------------- body styles
const FACES: RGB[] = [[246, 246, 242], [242, 236, 218], [238, 228, 200], [232, 222, 190], [228, 240, 228], [228, 234, 246], [250, 250, 250], [236, 236, 230]];
const BACKS: RGB[] = [[30, 120, 70], [20, 90, 60], [40, 80, 160], [30, 60, 130], [220, 180, 40], [225, 130, 30], [180, 30, 40], [40, 40, 48], [20, 120, 130], [110, 50, 130], [60, 150, 90], [90, 160, 210]];

function sampleBody(r: Rng): BodyStyle {
  const j = (c: RGB, a: number): RGB => [c[0] + uni(r, -a, a), c[1] + uni(r, -a, a), c[2] + uni(r, -a, a)];
  return {
    face: j(pick(r, FACES), 6),
    back: j(pick(r, BACKS), 18),
    aspect: uni(r, 1.25, 1.45),
    radius: uni(r, 0.05, 0.2),
    bevel: uni(r, 0.04, 0.35),
    bevelW: uni(r, 0.04, 0.16),
    engrave: chance(r, 0.6) ? uni(r, 0.3, 1) : 0,
    ink: uni(r, 0.82, 1),
    thickness: uni(r, 0.55, 0.85),
    backFrac: uni(r, 0.3, 0.65),
    sideShade: uni(r, 0.62, 0.92),
    gloss: chance(r, 0.5) ? uni(r, 0, 0.18) : 0,
    margin: uni(r, 0.0, 0.06),
    noise: uni(r, 0, 3),
    wear: chance(r, 0.3) ? uni(r, 0.05, 0.35) : 0,
    fade: chance(r, 0.3) ? uni(r, 0.1, 0.35) : 0,
  };
}

// ---------------------------------------------------------------- camera
interface Camera {
  G: M3;
  nadir: Pt;
  camH: number;
  /** -k: tiles standing up facing the camera (thickness visible above the face), else 1 */
  dSign: number;
}

function makeCamera(r: Rng, W: number, H: number, planeC: Pt, unitPx: number, rotDeg: number, center: Pt): Camera {
  const S = mul(translate(center[0], center[1]), mul(rotate(rotDeg), mul(scale(unitPx, unitPx), translate(-planeC[0], -planeC[1]))));
  const a = Math.max(W, H) / 2;
  const cx = W / 2, cy = H / 2;
  const t = weighted(r, [[uni(r, 0, 0.08), 2], [uni(r, 0.08, 0.3), 4], [uni(r, 0.3, 0.5), 2]] as const);
  const psi = chance(r, 0.7) ? uni(r, -12, 12) : uni(r, -35, 35);
  const jt = () => uni(r, -0.04, 0.04) * a;
  const src: Pt[] = [[-a, -a], [a, -a], [a, a], [-a, a]];
  const drop = t * a * uni(r, 0.35, 0.6);
  const dst: Pt[] = [
    [-a * (1 - t) + jt(), -a + drop + jt()], [a * (1 - t) + jt(), -a + drop + jt()],
    [a * (1 + 0.15 * t) + jt(), a + jt()], [-a * (1 + 0.15 * t) + jt(), a + jt()],
  ];
  const P0 = homography(src, dst);
  const P = mul(translate(cx, cy), mul(rotate(psi), mul(P0, mul(rotate(-psi), translate(-cx, -cy)))));
  const G = mul(P, S);
  const nd = apply(rotate(psi), uni(r, -0.3, 0.3) * a, a * (0.1 + t * 7));
  return { G, nadir: [cx + nd[0], cy + nd[1]], camH: a * uni(r, 1.6, 2.6), dSign: 1 };
}

// ---------------------------------------------------------------- tile placement
interface Drawn {
  idx: number;
  label: TileLabel;
  hull: Pt[];
}

function tileMatrix(p: Placed, sp: Sprite, G: M3): M3 {
  const A = mul(translate(p.x, p.y), mul(rotate(p.rot), mul(scale(1 / sp.w, 1 / sp.w), translate(-sp.w / 2, -sp.h / 2))));
  return mul(G, A);
}

function thicknessVec(cam: Camera, quad: Pt[], thick: number): Pt {
  const c: Pt = [(quad[0][0] + quad[2][0]) / 2, (quad[0][1] + quad[2][1]) / 2];
  const dx = cam.nadir[0] - c[0], dy = cam.nadir[1] - c[1];
  const dist = Math.hypot(dx, dy) || 1;
  const sinA = dist / Math.hypot(dist, cam.camH);
  const wpx = Math.hypot(quad[1][0] - quad[0][0], quad[1][1] - quad[0][1]);
  const mag = thick * wpx * sinA;
  return [(dx / dist) * mag * cam.dSign, (dy / dist) * mag * cam.dSign];
}

async function spritesFor(r: Rng, gs: GlyphSet, body: BodyStyle, codes: Set<string>, tw: number): Promise<Map<string, Sprite>> {
  const m = new Map<string, Sprite>();
  for (const code of codes) {
    const down = code === 'back';
    const glyph = gs.cells.get(code) ?? null;
    m.set(code, buildSprite(r, glyph, gs.fullFace.has(code), body, down, tw));
  }
  return m;
}

let spriteCache: { key: string; m: Map<string, Sprite> } = { key: '', m: new Map() };
function spritesCached(key: string, gs: GlyphSet, body: BodyStyle, codes: Set<string>, tw: number): Map<string, Sprite> {
  if (spriteCache.key !== key) spriteCache = { key, m: new Map() };
  for (const code of codes) {
    if (spriteCache.m.has(code)) continue;
    const down = code === 'back';
    spriteCache.m.set(code, buildSprite(rngFor(key, code), gs.cells.get(code) ?? null, gs.fullFace.has(code), body, down, tw));
  }
  return spriteCache.m;
}

/**
 * The order to draw tiles in, far tiles first: by their faces' centres along `towardCamera` (the
 * direction a tile's body shows in, from its face toward the camera), so that a nearer tile's body
 * hides the edge of a farther tile's face and never the other way round. Up to 1.12.0 the key was
 * a face's first corner, which for a tile turned upside down or sideways is its near or side
 * corner: such a tile was drawn after its nearer neighbour, and its body covered the top of that
 * neighbour's face (a six of characters lost the dot that tells it from an eight, a three its top
 * stroke), which no photo shows.
 */
export function drawOrder(quads: readonly Pt[][], towardCamera: Pt): number[] {
  const dn = norm(towardCamera);
  const depth = (q: Pt[]) => ((q[0][0] + q[2][0]) / 2) * dn[0] + ((q[0][1] + q[2][1]) / 2) * dn[1];
  return quads.map((_, i) => i).sort((a, b) => depth(quads[a]!) - depth(quads[b]!));
}

function renderTiles(r: Rng, f: Frame, placed: Placed[], sprites: Map<string, Sprite>, body: BodyStyle, cam: Camera): Drawn[] {
  const items = placed.map((p, idx) => {
    const sp = sprites.get(p.code)!;
    const H = tileMatrix(p, sp, cam.G);
    const quad: Pt[] = [apply(H, 0, 0), apply(H, sp.w, 0), apply(H, sp.w, sp.h), apply(H, 0, sp.h)];
    const d = thicknessVec(cam, quad, body.thickness);
    return { idx, p, sp, H, quad, d };
  });
  // shadows first
  const lAng = uni(r, 0, Math.PI * 2);
  const polys: Pt[][] = [];
  for (const it of items) {
    const w = Math.hypot(it.quad[1][0] - it.quad[0][0], it.quad[1][1] - it.quad[0][1]);
    const off: Pt = [Math.cos(lAng) * w * uni(r, 0.05, 0.3), Math.sin(lAng) * w * uni(r, 0.05, 0.3)];
    const pts: Pt[] = [];
    for (const q of it.quad) pts.push([q[0] + it.d[0], q[1] + it.d[1]], [q[0] + it.d[0] + off[0], q[1] + it.d[1] + off[1]], q);
    polys.push(pts);
  }
  const meanW = items.length ? items.reduce((s, it) => s + Math.hypot(it.quad[1][0] - it.quad[0][0], it.quad[1][1] - it.quad[0][1]), 0) / items.length : 10;
  if (polys.length) drawShadows(f, polys.map(hullOf), uni(r, 0.15, 0.55), meanW * uni(r, 0.08, 0.3));
  const out: Drawn[] = [];
  for (const it of drawOrder(items.map((x) => x.quad), items.length ? items[0].d : [0, 1]).map((i) => items[i]!)) {
    const res = drawTile(f, it.sp, it.H, it.d, body.sideShade);
    const q = res.quad;
    const rot = (Math.atan2(q[1][1] - q[0][1], q[1][0] - q[0][0]) * 180) / Math.PI;
    out.push({
      idx: it.idx,
      hull: res.hull,
      label: {
        code: it.p.code, box: [0, 0, 0, 0], quad: q.map(([x, y]) => [round2(x), round2(y)]),
        rotation: round2(rot), sideways: it.p.sideways, upside_down: it.p.upsideDown, group: it.p.group, row: it.p.row,
        extrude: [round2(it.d[0]), round2(it.d[1])],
      },
    });
  }
  return out;
}

const hullOf = (pts: Pt[]): Pt[] => convexHull(pts);
const norm = (v: Pt): Pt => { const l = Math.hypot(v[0], v[1]) || 1; return [v[0] / l, v[1] / l]; };
const round2 = (x: number) => Math.round(x * 100) / 100;

/** Clip a tile's box to the image. Returns null if less than MIN_VISIBLE of it is inside. */
export const MIN_VISIBLE = 0.5;
export function clipBox(hull: Pt[], W: number, H: number): { box: [number, number, number, number]; truncated: boolean } | null {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of hull) { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); }
  const full = (x1 - x0) * (y1 - y0);
  const cx0 = clamp(x0, 0, W), cy0 = clamp(y0, 0, H), cx1 = clamp(x1, 0, W), cy1 = clamp(y1, 0, H);
  const vis = Math.max(0, cx1 - cx0) * Math.max(0, cy1 - cy0);
  if (full <= 0 || vis / full < MIN_VISIBLE) return null;
  return { box: [round2(cx0), round2(cy0), round2(cx1 - cx0), round2(cy1 - cy0)], truncated: vis / full < 0.999 };
}

// ---------------------------------------------------------------- finishing
async function finish(r: Rng, f: Frame, opts: { glare: number; holdout: boolean }, crop?: { left: number; top: number; width: number; height: number }, outSize?: number): Promise<Buffer> {
  let u8 = photoEffects(r, f, opts);
  const raw = { width: f.w, height: f.h, channels: 3 as const };
  if (!crop && chance(r, 0.2)) {
    // shallow depth of field: sharp band around a focal line, blurrier away from it
    const sigma = uni(r, 1.2, 3.5) * (f.w / 1024);
    const blurred = await sharp(u8, { raw }).blur(sigma).raw().toBuffer();
    const fy = uni(r, 0.35, 0.75) * f.h, band = uni(r, 0.08, 0.3) * f.h, ramp = uni(r, 0.2, 0.5) * f.h;
    for (let y = 0; y < f.h; y++) {
      const wgt = clamp((Math.abs(y - fy) - band) / ramp, 0, 1);
      if (wgt <= 0) continue;
      const o0 = y * f.w * 3, o1 = o0 + f.w * 3;
      for (let o = o0; o < o1; o++) u8[o] = u8[o] + (blurred[o] - u8[o]) * wgt;
    }
  }
  if (chance(r, 0.12)) {
    // low-resolution capture / digital zoom
    const k = uni(r, 0.35, 0.7);
    const sw = Math.max(8, Math.round(f.w * k)), sh = Math.max(8, Math.round(f.h * k));
    const small = await sharp(u8, { raw }).resize(sw, sh, { fit: 'fill' }).raw().toBuffer();
    u8 = await sharp(small, { raw: { width: sw, height: sh, channels: 3 } }).resize(f.w, f.h, { fit: 'fill', kernel: 'cubic' }).raw().toBuffer();
  }
  let img = sharp(u8, { raw });
  if (crop) {
    img = sharp(await img.extract(crop).raw().toBuffer(), { raw: { width: crop.width, height: crop.height, channels: 3 } });
    if (outSize) {
      const s = outSize / Math.max(crop.width, crop.height);
      img = sharp(await img.resize(Math.max(1, Math.round(crop.width * s)), Math.max(1, Math.round(crop.height * s)), { fit: 'fill' }).raw().toBuffer(),
        { raw: { width: Math.max(1, Math.round(crop.width * s)), height: Math.max(1, Math.round(crop.height * s)), channels: 3 } });
    }
  }
  if (chance(r, 0.25)) img = img.sharpen({ sigma: uni(r, 0.5, 1.5) * (crop ? 1 : f.w / 1024) });
  const blurKind = weighted(r, [['none', 4], ['gauss', 3], ['motion', 1.5]] as const);
  const scaleRef = crop && outSize ? outSize / 128 : f.w / 1024;
  if (blurKind === 'gauss') img = img.blur(Math.max(0.3, uni(r, 0.3, crop ? 1.1 : 1.8) * scaleRef));
  else if (blurKind === 'motion') {
    const n = 2 * int(r, 1, Math.max(1, Math.round((crop ? 1.5 : 4) * scaleRef))) + 1;
    const ang = uni(r, 0, Math.PI);
    const k = new Array(n * n).fill(0);
    for (let i = 0; i < n * 2; i++) {
      const t = i / (n * 2 - 1) - 0.5;
      const x = Math.round((n - 1) / 2 + Math.cos(ang) * t * (n - 1)), y = Math.round((n - 1) / 2 + Math.sin(ang) * t * (n - 1));
      k[y * n + x] += 1;
    }
    const sum = k.reduce((a, b) => a + b, 0);
    img = img.convolve({ width: n, height: n, kernel: k.map((v) => v / sum) });
  }
  return img.jpeg({ quality: int(r, 40, 95) }).toBuffer();
}

// ---------------------------------------------------------------- scenes
export async function renderScene(opts: GenOptions, index: number): Promise<{ jpg: Buffer; label: SceneLabel }> {
  const r = rngFor(opts.seed, 'scene', index, opts.holdout ? 'H' : 'T');
  const [aw, ah] = weighted(r, [[[4, 3], 5], [[3, 4], 1.5], [[16, 9], 2], [[9, 16], 0.5], [[1, 1], 1], [[3, 2], 1.5]] as const);
  const W = aw >= ah ? opts.size : Math.round((opts.size * aw) / ah);
  const H = ah >= aw ? opts.size : Math.round((opts.size * ah) / aw);
  const f = newFrame(W, H);
  const negative = chance(r, 0.06);
  const group = Math.floor(index / SCENES_PER_GLYPHSET);
  // one physical set (glyphs + body) is shared by SCENES_PER_GLYPHSET consecutive scenes
  const body = sampleBody(rngFor(opts.seed, 'body', group, opts.holdout ? 'H' : 'T'));
  const gs = negative ? null : await glyphSetFor(opts, `s${group}`);

  const hand = sampleHand(r);
  let placed = negative ? [] : opts.setGrids ? layoutSetGrid(r, body.aspect, opts.gridTiles) : layoutHand(r, hand, { aspect: body.aspect });
  // close-ups draw from their own stream, so the scene's other draws stay those of 1.8.0
  const close = opts.closeUps && placed.length ? rngFor(opts.seed, 'close', index, opts.holdout ? 'H' : 'T') : null;
  if (close) placed = closeUpWindow(close, placed);
  const apart = opts.apart && !close && !opts.setGrids && placed.length ? rngFor(opts.seed, 'apart', index, opts.holdout ? 'H' : 'T') : null;
  if (apart && chance(apart, 0.65)) placed = scatterApart(apart, placed, body.aspect);
  // plane extents
  let px0 = Infinity, py0 = Infinity, px1 = -Infinity, py1 = -Infinity;
  // a tile's margin round the layout (half a tile plus a little for a close-up)
  const mx = close ? 0.6 : 1, my = close ? 0.6 * body.aspect : body.aspect;
  for (const p of placed) {
    px0 = Math.min(px0, p.x - mx); px1 = Math.max(px1, p.x + mx);
    py0 = Math.min(py0, p.y - my); py1 = Math.max(py1, p.y + my);
  }
  if (!placed.length) { px0 = -5; px1 = 5; py0 = -3; py1 = 3; }
  const planeC: Pt = [(px0 + px1) / 2, (py0 + py1) / 2];
  const allowCrop = chance(r, 0.3);
  // ~10 %: tiles standing on edge, photographed from the front (thickness shows above the faces)
  const standing = chance(r, 0.1) ? uni(r, 0.3, 0.8) : 0;
  const rotDeg = chance(r, 0.6) ? uni(r, -8, 8) : uni(r, -30, 30);
  let unitPx = uni(r, 0.03, 0.12) * W;
  if (close) unitPx = uni(close, 0.14, 0.4) * W;
  if (opts.far) unitPx = uni(rngFor(opts.seed, 'far', index, opts.holdout ? 'H' : 'T'), 0.012, 0.03) * W;
  let cam: Camera;
  const camSeed = Math.floor(r() * 1e9);
  const center: Pt = [W / 2 + uni(r, -0.1, 0.1) * W, H / 2 + uni(r, -0.1, 0.1) * H];
  for (let tries = 0; ; tries++) {
    cam = makeCamera(rngFor(camSeed), W, H, planeC, unitPx, rotDeg, center);
    if (standing) cam.dSign = -standing;
    if (allowCrop || tries > 12 || unitPx < 0.03 * W) break;
    const corners: Pt[] = [[px0, py0], [px1, py0], [px1, py1], [px0, py1]].map(([x, y]) => apply(cam.G, x, y));
    const m = 0.02 * W;
    if (corners.every(([x, y]) => x > m && y > m && x < W - m && y < H - m)) break;
    unitPx *= 0.88;
  }

  // background (plus optional table edge)
  const tex = makeTexture(r, bgKind(r, opts));
  const texScale = uni(r, 10, 70);
  let edge;
  if (chance(r, 0.2)) {
    const ang = uni(r, -0.5, 0.5) + (chance(r, 0.7) ? -Math.PI / 2 : Math.PI / 2);
    const normal: [number, number] = [Math.cos(ang), Math.sin(ang)];
    const ext = Math.max(...[[px0, py0], [px1, py0], [px1, py1], [px0, py1]].map(([x, y]) => x * normal[0] + y * normal[1]));
    edge = { y: ext + uni(r, 0.5, 4), tex: makeTexture(r, bgKind(r, opts)), scale: uni(r, 5, 40), normal };
  }
  paintBackground(f, cam.G, tex, texScale, edge);

  const nd = negative ? int(r, 0, 7) : chance(r, 0.3) ? int(r, 1, 2) : 0;
  for (let i = 0; i < nd; i++) {
    const cx = r() * W, cy = r() * H;
    const inside = placed.some((p) => { const q = apply(cam.G, p.x, p.y); return Math.hypot(q[0] - cx, q[1] - cy) < unitPx * 3; });
    if (!inside) drawDistractor(r, f, cx, cy, uni(r, 0.04, 0.2) * W);
  }

  const tiles: TileLabel[] = [];
  if (gs && placed.length) {
    const [cw] = cellSize(opts.size);
    const sprites = spritesCached(`s${group}|${ctxKey(opts)}`, gs, body, new Set(placed.map((p) => p.code)), cw);
    const drawn = renderTiles(r, f, placed, sprites, body, cam);
    for (const d of drawn) {
      const cb = clipBox(d.hull, W, H);
      if (!cb) continue;
      d.label.box = cb.box;
      if (cb.truncated) d.label.truncated = true;
      tiles.push(d.label);
    }
    tiles.sort((a, b) => a.row - b.row || a.box[0] - b.box[0]);
  }
  const jpg = await finish(r, f, { glare: 0.5, holdout: opts.holdout });
  const label: SceneLabel = { width: W, height: H, tiles };
  if (negative) label.negative = true;
  if (standing && !negative) label.standing = true;
  return { jpg, label };
}

// ---------------------------------------------------------------- single tiles
export async function renderTileCrop(opts: GenOptions, k: number): Promise<{ jpg: Buffer; code: string }> {
  const codes = opts.codes ?? CLASSES;
  const code = codes[k % codes.length];
  const r = rngFor(opts.seed, 'tile', k, opts.holdout ? 'H' : 'T');
  const gs = await glyphSetFor(opts, `t${Math.floor(k / (codes.length * 2))}`);
  const body = sampleBody(r);
  // a photo of one tile (tileMargin) is rendered 3x as large, as a phone photo of it is sharp
  const zoom = opts.tileMargin ? 3 : 1;
  const W = 320 * zoom, H = 320 * zoom;
  const f = newFrame(W, H);
  const up = chance(r, 0.08);
  const side = !up && chance(r, 0.05);
  const rot0 = up ? 180 : side ? (chance(r, 0.5) ? 90 : -90) : 0;
  const placed: Placed[] = [{ code, x: 0, y: 0, rot: rot0 + uni(r, -3, 3), sideways: side, upsideDown: up, group: 0, row: 0 }];
  const gap = uni(r, 0, 0.1);
  const rnd = () => pick(r, CLASSES.slice(0, 42));
  if (chance(r, 0.7)) placed.push({ code: rnd(), x: -(1 + gap), y: uni(r, -0.05, 0.05), rot: uni(r, -3, 3), sideways: false, upsideDown: false, group: 0, row: 0 });
  if (chance(r, 0.7)) placed.push({ code: rnd(), x: 1 + gap, y: uni(r, -0.05, 0.05), rot: uni(r, -3, 3), sideways: false, upsideDown: false, group: 0, row: 0 });
  if (chance(r, 0.2)) placed.push({ code: rnd(), x: uni(r, -0.5, 0.5), y: body.aspect + uni(r, 0.2, 0.8), rot: 0, sideways: false, upsideDown: false, group: 0, row: 1 });
  // a photo of one tile (tileMargin) shows that tile alone; the draws above stay, so the rest is as in 1.11.0
  if (opts.tileMargin) placed.splice(1);
  const unitPx = uni(r, 24, 120) * zoom;
  const cam = makeCamera(r, W, H, [0, 0], unitPx, uni(r, -30, 30), [W / 2, H / 2]);
  paintBackground(f, cam.G, makeTexture(r, bgKind(r, opts)), uni(r, 10, 70));
  const [cw] = cellSize(Math.max(opts.size, 1024) * zoom);
  const sprites = await spritesFor(r, gs, body, new Set(placed.map((p) => p.code)), cw);
  const drawn = renderTiles(r, f, placed, sprites, body, cam);
  const target = drawn.find((d) => d.idx === 0)!;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of target.hull) { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); }
  const bw = x1 - x0, bh = y1 - y0;
  const mr = opts.tileMargin ? rngFor(opts.seed, 'margin', k, opts.holdout ? 'H' : 'T') : r;
  const [mlo, mhi] = opts.tileMargin ?? [0, 0.22];
  const cx0 = Math.floor(clamp(x0 - bw * uni(mr, mlo, mhi), 0, W - 2)), cy0 = Math.floor(clamp(y0 - bh * uni(mr, mlo, mhi), 0, H - 2));
  const cx1 = Math.ceil(clamp(x1 + bw * uni(mr, mlo, mhi), cx0 + 2, W)), cy1 = Math.ceil(clamp(y1 + bh * uni(mr, mlo, mhi), cy0 + 2, H));
  const jpg = await finish(r, f, { glare: 0.4, holdout: opts.holdout }, { left: cx0, top: cy0, width: cx1 - cx0, height: cy1 - cy0 }, opts.tileSize);
  return { jpg, code };
}
