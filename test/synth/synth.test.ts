import { describe, expect, it, onTestFinished } from 'vitest';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import { CLASSES, FLOWERS, closeUpWindow, layoutHand, layoutSetGrid, sampleCodes, sampleHand, scatterApart } from '../../scripts/synth/hand.ts';
import { ART_FAMILIES, HOLDOUT_ART, TRAIN_ART, checkArtRoot, defaultArtRoot, FULL_FACE, invertGreys, loadArt } from '../../scripts/synth/art.ts';
import { clearCaches, drawOrder, glyphSetDesign, renderScene, renderTileCrop, SYMBOLA_CHAR_BOX, swapPictures, type GenOptions } from '../../scripts/synth/scene.ts';
import { designName, flowersByDesign, setDesigns } from '../../scripts/synth/designs.ts';
import { rngFor } from '../../scripts/synth/rng.ts';
import { inkArt } from '../../scripts/synth/inkart.ts';
import { faceSvg, HOLDOUT_FONTS, sampleGlyphStyle, TRAIN_FONTS } from '../../scripts/synth/faces.ts';
import { EXTRA_BG, HOLDOUT_BG, PATCH_BG, makeTexture, sampleBgKind } from '../../scripts/synth/background.ts';

const REPO = path.resolve(__dirname, '..', '..');
const ART = defaultArtRoot(REPO);
const haveArt = fs.existsSync(ART);
const opts = (seed: number, extra: Partial<GenOptions> = {}): GenOptions => ({
  seed, size: 512, holdout: false, allStyles: false, artRoot: ART, tileSize: 96, ...extra,
});

describe('synth classes and sampling', () => {
  it('has the 43 classes in the agreed order', () => {
    expect(CLASSES.length).toBe(43);
    expect(CLASSES.slice(0, 3)).toEqual(['1m', '2m', '3m']);
    expect(CLASSES.slice(27, 34)).toEqual(['1z', '2z', '3z', '4z', '5z', '6z', '7z']);
    expect(CLASSES.at(-1)).toBe('back');
  });

  it('covers all 43 classes over a few hundred hand draws', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 300; i++) for (const c of sampleCodes(rngFor(7, i))) seen.add(c);
    expect([...seen].sort()).toEqual([...CLASSES].sort());
  });

  it('never uses more than 4 copies of a face-up tile', () => {
    for (let i = 0; i < 200; i++) {
      const counts = new Map<string, number>();
      for (const c of sampleCodes(rngFor(9, i))) if (c !== 'back') counts.set(c, (counts.get(c) ?? 0) + 1);
      for (const v of counts.values()) expect(v).toBeLessThanOrEqual(4);
    }
  });
});

describe('synth layout', () => {
  it('does not overlap tiles on the table plane', () => {
    for (let i = 0; i < 300; i++) {
      const r = rngFor(3, i);
      const placed = layoutHand(r, sampleHand(r), { aspect: 1.4 });
      const ext = placed.map((p) => (p.sideways ? [1.4, 1] : [1, 1.4]));
      for (let a = 0; a < placed.length; a++) {
        for (let b = a + 1; b < placed.length; b++) {
          const ox = (ext[a][0] + ext[b][0]) / 2 - Math.abs(placed[a].x - placed[b].x);
          const oy = (ext[a][1] + ext[b][1]) / 2 - Math.abs(placed[a].y - placed[b].y);
          expect(Math.min(ox, oy), `scene ${i} tiles ${a},${b}`).toBeLessThan(0.12);
        }
      }
    }
  });
});

describe('synth set grids (--set-grids)', () => {
  it('lays out a whole set when asked for up to 144 tiles (--grid-tiles), still at most four of a kind', () => {
    let whole = 0;
    for (let i = 0; i < 60; i++) {
      const placed = layoutSetGrid(rngFor(71, i), 1.35, [120, 144]);
      expect(placed.length).toBeGreaterThanOrEqual(120);
      expect(placed.length).toBeLessThanOrEqual(144);
      const counts = new Map<string, number>();
      for (const p of placed) counts.set(p.code, (counts.get(p.code) ?? 0) + 1);
      for (const [c, n] of counts) expect(n, `${c} in grid ${i}`).toBeLessThanOrEqual(c.startsWith('f') ? 1 : 4);
      if (placed.length === 144) whole++;
    }
    expect(whole).toBeGreaterThan(0);
  });

  it('lays out 18-48 tiles of a real set in grid rows, without overlaps', () => {
    let ordered = 0, upside = 0, flush = 0;
    for (let i = 0; i < 300; i++) {
      const placed = layoutSetGrid(rngFor(31, i), 1.35);
      expect(placed.length).toBeGreaterThanOrEqual(18);
      expect(placed.length).toBeLessThanOrEqual(48);
      const counts = new Map<string, number>();
      for (const p of placed) {
        expect(CLASSES).toContain(p.code);
        counts.set(p.code, (counts.get(p.code) ?? 0) + 1);
        expect(p.sideways).toBe(false);
        expect(p.group).toBe(p.row);
        if (p.upsideDown) upside++;
      }
      for (const [c, n] of counts) expect(n, `${c} in grid ${i}`).toBeLessThanOrEqual(c.startsWith('f') ? 1 : 4);
      // rows run down the table, and within a row the tiles run left to right
      for (let a = 1; a < placed.length; a++) {
        const [p, q] = [placed[a - 1]!, placed[a]!];
        if (q.row === p.row) expect(q.x).toBeGreaterThan(p.x + 0.9);
        else { expect(q.row).toBe(p.row + 1); expect(q.y).toBeGreaterThan(p.y + 1.2); }
      }
      for (let a = 0; a < placed.length; a++) {
        for (let b = a + 1; b < placed.length; b++) {
          const ox = 1 - Math.abs(placed[a]!.x - placed[b]!.x), oy = 1.35 - Math.abs(placed[a]!.y - placed[b]!.y);
          expect(Math.min(ox, oy), `grid ${i} tiles ${a},${b}`).toBeLessThan(0.12);
        }
      }
      const codes = placed.map((p) => p.code).filter((c) => !c.startsWith('f') && c !== 'back');
      if (codes.every((c, k) => k === 0 || CLASSES.indexOf(c) >= CLASSES.indexOf(codes[k - 1]!) || c === '1m')) ordered++;
      if (placed.length > 9 && placed[1]!.x - placed[0]!.x < 1.05) flush++;
    }
    // both kinds of sheet, flush and spaced grids, and some turned tiles all occur
    expect(ordered).toBeGreaterThan(60);
    expect(ordered).toBeLessThan(240);
    expect(flush).toBeGreaterThan(60);
    expect(upside).toBeGreaterThan(100);
  });
});

describe('synth tiles laid aside (--apart)', () => {
  it('moves the flowers and spare face-down tiles out round the hand, one by one, touching nothing', () => {
    let moved = 0, turned = 0;
    for (let i = 0; i < 300; i++) {
      const r = rngFor(61, i);
      const hand = sampleHand(r);
      const placed = layoutHand(r, hand, { aspect: 1.35 });
      const out = scatterApart(rngFor(62, i), placed, 1.35);
      // the same tiles: the hand's own stay where they lay
      expect(out.map((p) => p.code).sort(), `scene ${i}`).toEqual(placed.map((p) => p.code).sort());
      const aside = out.filter((p) => !placed.includes(p));
      for (const p of aside) {
        expect(FLOWERS.includes(p.code) || p.code === 'back', `${p.code} in scene ${i}`).toBe(true);
        // a group of its own, apart from every other tile (1.3 tile widths between centres)
        expect(out.filter((q) => q.group === p.group)).toEqual([p]);
        for (const q of out) if (q !== p) expect(Math.hypot(q.x - p.x, q.y - p.y), `scene ${i}`).toBeGreaterThanOrEqual(1.3 * 1.35);
        if (p.sideways || p.upsideDown) turned++;
      }
      // concealed kongs keep their face-down tiles
      const kongBacks = placed.filter((p) => p.code === 'back' && placed.some((q) => q.group === p.group && q.code !== 'back'));
      for (const p of kongBacks) expect(out).toContain(p);
      if (hand.flowers.length) expect(aside.length, `scene ${i}`).toBeGreaterThan(0);
      moved += aside.length;
    }
    expect(moved).toBeGreaterThan(100);
    expect(turned).toBeGreaterThan(10);
  });
});

describe('synth close-ups (--close-ups)', () => {
  it('keeps a run of 2-8 neighbours from one row, now and then with the tiles across from it', () => {
    let across = 0;
    for (let i = 0; i < 300; i++) {
      const r = rngFor(51, i);
      const placed = layoutHand(r, sampleHand(r), { aspect: 1.35 });
      const win = closeUpWindow(rngFor(52, i), placed);
      // the same tiles, where they lay
      for (const p of win) expect(placed).toContain(p);
      expect(new Set(win).size).toBe(win.length);
      const rows = new Map<number, typeof win>();
      for (const p of win) rows.set(p.row, [...(rows.get(p.row) ?? []), p]);
      // one row holds a run of neighbours: no tile of that row lies between its first and last
      const runs = [...rows.entries()].filter(([row, ps]) => {
        const xs = ps.map((p) => p.x);
        const between = placed.filter((p) => p.row === row && p.x > Math.min(...xs) && p.x < Math.max(...xs) && !ps.includes(p));
        return between.length === 0 && ps.length >= Math.min(2, placed.filter((p) => p.row === row).length) && ps.length <= 8;
      });
      expect(runs.length, `window ${i}`).toBeGreaterThan(0);
      if (rows.size > 1) across++;
    }
    expect(across).toBeGreaterThan(10);
    const two = layoutHand(rngFor(1, 1), sampleHand(rngFor(1, 2)), { aspect: 1.35 }).slice(0, 2);
    expect(closeUpWindow(rngFor(3), two)).toEqual(two);
  });
});

describe('synth artwork folder', () => {
  it('fails with a clear message when the art folder is missing', () => {
    expect(() => checkArtRoot('/nonexistent/shared/data/art')).toThrow(/artwork folder not found/);
  });

  it('CLI exits non-zero with the message', () => {
    let msg = '';
    try {
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/synth/generate.ts', '--out', '/tmp/synth-test-noart', '--count', '1', '--art', '/nonexistent/art'],
        { cwd: REPO, stdio: 'pipe' });
    } catch (e) {
      msg = String((e as { stderr?: Buffer }).stderr ?? e);
    }
    expect(msg).toMatch(/artwork folder not found/);
  });
});

describe('synth art recolouring', () => {
  it('inverts white and grey glyph pixels, keeps coloured and transparent ones', () => {
    const px = new Uint8Array([255, 255, 255, 255, 20, 20, 20, 200, 240, 150, 30, 255, 255, 255, 255, 0]);
    invertGreys(px);
    expect([...px]).toEqual([0, 0, 0, 255, 235, 235, 235, 200, 240, 150, 30, 255, 255, 255, 255, 0]);
  });
});

describe('synth line art (--line-art, inkart.ts)', () => {
  // a 12x12 cell: a red square (3..8) on transparent, one dark grey pixel at (10, 1)
  const cell = () => {
    const d = new Uint8ClampedArray(12 * 12 * 4);
    for (let y = 3; y <= 8; y++) for (let x = 3; x <= 8; x++) d.set([220, 30, 30, 255], (y * 12 + x) * 4);
    d.set([60, 60, 60, 255], (1 * 12 + 10) * 4);
    return { data: d, w: 12, h: 12 };
  };
  const alpha = (img: { data: Uint8ClampedArray }, x: number, y: number) => img.data[(y * 12 + x) * 4 + 3]!;
  it('outline: a filled shape turns hollow, in one ink; blank stays blank', () => {
    const out = inkArt(cell(), 'outline', [20, 40, 110], 1);
    expect(alpha(out, 3, 5)).toBeGreaterThan(200); // the square's edge
    expect(alpha(out, 5, 5)).toBe(0); // its inside
    expect(alpha(out, 0, 11)).toBe(0); // far from anything
    for (let i = 0; i < out.data.length; i += 4) expect([...out.data.slice(i, i + 3)]).toEqual([20, 40, 110]);
  });
  it('outline: a wider stroke reaches further from the edge', () => {
    const thin = inkArt(cell(), 'outline', [0, 0, 0], 1), wide = inkArt(cell(), 'outline', [0, 0, 0], 5);
    expect(alpha(thin, 0, 5)).toBe(0);
    expect(alpha(wide, 0, 5)).toBeGreaterThan(200);
  });
  it('mono: the same shapes in one ink, as dark as they were', () => {
    const out = inkArt(cell(), 'mono', [22, 22, 24]);
    expect(alpha(out, 5, 5)).toBeGreaterThan(200); // the red fill, now ink
    expect(alpha(out, 10, 1)).toBeGreaterThan(150); // the dark grey pixel
    expect(alpha(out, 0, 0)).toBe(0);
    expect([...out.data.slice((5 * 12 + 5) * 4, (5 * 12 + 5) * 4 + 3)]).toEqual([22, 22, 24]);
  });
});

describe('synth shuffled pictures (--swap-art)', () => {
  it('each flower keeps its own character box and takes the rest of another flower\'s cell; the eight pictures are all used', () => {
    const w = 20, h = 30, bw = Math.round(w * SYMBOLA_CHAR_BOX[0]), bh = Math.round(h * SYMBOLA_CHAR_BOX[1]);
    // cell k: every pixel's red channel is k (1..8), so where a pixel came from is plain
    const cells = new Map([1, 2, 3, 4, 5, 6, 7, 8].map((k) => [`f${k}`, { data: new Uint8ClampedArray(w * h * 4).fill(k), w, h }]));
    cells.set('1s', { data: new Uint8ClampedArray(w * h * 4).fill(99), w, h });
    swapPictures(rngFor(5, 'swap'), cells);
    const pictures = new Set<number>();
    for (let k = 1; k <= 8; k++) {
      const c = cells.get(`f${k}`)!;
      const at = (x: number, y: number) => c.data[(y * w + x) * 4]!;
      expect(at(0, 0)).toBe(k);
      expect(at(bw - 1, bh - 1)).toBe(k);
      const rest = at(w - 1, h - 1);
      expect(at(bw, 0)).toBe(rest);
      expect(at(0, bh)).toBe(rest);
      pictures.add(rest);
    }
    expect([...pictures].sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(cells.get('1s')!.data[0]).toBe(99);
  });
});

describe.skipIf(!haveArt)('synth artwork legibility', () => {
  // Every family's glyphs must show on a white tile body: a wind or a 萬 numeral drawn
  // white-on-transparent would vanish and leave a tile nobody could read (a label bug).
  it.each(ART_FAMILIES.filter((f) => !FULL_FACE.has(f)))('%s glyphs show dark ink on a white body', async (fam) => {
    const art = await loadArt(ART, fam, 60, 80);
    for (const code of ['2m', '8m', '1z', '3z', '6z', '3p']) {
      const img = art.cells.get(code);
      expect(img, `${fam} ${code}`).toBeDefined();
      let ink = 0;
      for (let i = 0; i < img!.data.length; i += 4) {
        const a = img!.data[i + 3] / 255;
        const lum = (0.299 * img!.data[i] + 0.587 * img!.data[i + 1] + 0.114 * img!.data[i + 2]) * a + 255 * (1 - a);
        if (lum < 150) ink++;
      }
      expect(ink / (img!.w * img!.h), `${fam} ${code}`).toBeGreaterThan(0.02);
    }
  });
});

describe.skipIf(!haveArt)('synth rendering', () => {
  it('is deterministic: same seed -> same bytes', async () => {
    const a = [await renderScene(opts(11), 0), await renderScene(opts(11), 1)];
    clearCaches();
    const b = [await renderScene(opts(11), 0), await renderScene(opts(11), 1)];
    for (let i = 0; i < 2; i++) {
      expect(Buffer.compare(a[i].jpg, b[i].jpg)).toBe(0);
      expect(JSON.stringify(a[i].label)).toBe(JSON.stringify(b[i].label));
    }
    const c = await renderScene(opts(12), 0);
    expect(Buffer.compare(a[0].jpg, c.jpg)).not.toBe(0);
  });

  it('labels lie inside the image', async () => {
    let n = 0;
    for (let i = 0; i < 6; i++) {
      const { label } = await renderScene(opts(21, { holdout: i % 2 === 1 }), i);
      expect(Math.max(label.width, label.height)).toBe(512);
      for (const t of label.tiles) {
        n++;
        expect(CLASSES).toContain(t.code);
        const [x, y, w, h] = t.box;
        expect(x).toBeGreaterThanOrEqual(0);
        expect(y).toBeGreaterThanOrEqual(0);
        expect(w).toBeGreaterThan(0);
        expect(h).toBeGreaterThan(0);
        expect(x + w).toBeLessThanOrEqual(label.width + 1e-6);
        expect(y + h).toBeLessThanOrEqual(label.height + 1e-6);
        expect(t.quad).toHaveLength(4);
        if (!t.truncated) {
          // box = bbox(quad ∪ quad + extrude)
          const pts = [...t.quad, ...t.quad.map(([qx, qy]) => [qx + t.extrude[0], qy + t.extrude[1]])];
          const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
          expect(Math.abs(Math.min(...xs) - x)).toBeLessThan(0.05);
          expect(Math.abs(Math.min(...ys) - y)).toBeLessThan(0.05);
          expect(Math.abs(Math.max(...xs) - (x + w))).toBeLessThan(0.05);
          expect(Math.abs(Math.max(...ys) - (y + h))).toBeLessThan(0.05);
        }
      }
    }
    expect(n).toBeGreaterThan(10);
  });

  it('--set-grids renders grids of many tiles in several rows', async () => {
    let grids = 0;
    for (let i = 0; i < 3; i++) {
      const { label } = await renderScene(opts(33, { setGrids: true }), i);
      if (label.negative) continue;
      grids++;
      const full = label.tiles.filter((t) => !t.truncated);
      expect(full.length).toBeGreaterThanOrEqual(12);
      expect(new Set(label.tiles.map((t) => t.row)).size).toBeGreaterThanOrEqual(2);
    }
    expect(grids).toBeGreaterThan(0);
    const plain = await renderScene(opts(33), 0);
    expect(plain.label.tiles.length).toBeLessThanOrEqual(27);
  });

  /** Every tile of `some` has its own tile of the same code in `all` (a sub-multiset of codes). */
  const expectTilesAmong = (some: readonly { code: string }[], all: readonly { code: string }[], scene: number) => {
    const left = all.map((t) => t.code);
    for (const t of some) {
      const k = left.indexOf(t.code);
      expect(k, `${t.code} in scene ${scene}`).toBeGreaterThanOrEqual(0);
      left.splice(k, 1);
    }
  };

  /** Scenes 0-3 of `seed` rendered with `flags` and without: both are hard negatives or neither;
   * `check` sees each pair of hands. Returns how many pairs were hands. */
  const handPairs = async (seed: number, flags: Partial<GenOptions>, check: (flagged: Awaited<ReturnType<typeof renderScene>>, plain: Awaited<ReturnType<typeof renderScene>>, scene: number) => void) => {
    let shots = 0;
    for (let i = 0; i < 4; i++) {
      const flagged = await renderScene(opts(seed, flags), i);
      const plain = await renderScene(opts(seed), i);
      expect(flagged.label.negative).toBe(plain.label.negative);
      if (plain.label.negative) continue;
      shots++;
      check(flagged, plain, i);
    }
    return shots;
  };

  it('--close-ups renders a few of the same tiles, much larger; nothing else changes', async () => {
    const shots = await handPairs(34, { closeUps: true }, (close, plain, i) => {
      // the same hand: the close-up's tiles are some of the plain scene's
      expectTilesAmong(close.label.tiles, plain.label.tiles, i);
      expect(close.label.tiles.length).toBeLessThan(plain.label.tiles.length);
      const med = (ts: { box: number[] }[]) => ts.map((t) => Math.max(t.box[2]!, t.box[3]!)).sort((a, b) => a - b)[ts.length >> 1]!;
      expect(med(close.label.tiles) / close.label.width).toBeGreaterThan(0.12);
      expect(med(close.label.tiles)).toBeGreaterThan(1.5 * med(plain.label.tiles));
    });
    expect(shots).toBeGreaterThan(0);
  });

  it('--far renders the same hand, its tiles 1.2-3 % of the width; nothing else changes', async () => {
    const shots = await handPairs(35, { far: true }, (far, plain, i) => {
      // the same hand: the plain scene's tiles (which the photo's edge may cut) are among the far one's
      expectTilesAmong(plain.label.tiles, far.label.tiles, i);
      expect(far.label.tiles.every((t) => !t.truncated)).toBe(true);
      // the tile's width across the table is its shorter side (upright) or its height (sideways)
      const across = (t: { box: number[] }) => Math.min(t.box[2]!, t.box[3]!);
      const med = (ts: { box: number[] }[]) => ts.map(across).sort((a, b) => a - b)[ts.length >> 1]!;
      expect(med(far.label.tiles) / far.label.width).toBeLessThan(0.035);
      expect(med(far.label.tiles) / far.label.width).toBeGreaterThan(0.008);
      expect(med(far.label.tiles)).toBeLessThan(med(plain.label.tiles));
    });
    expect(shots).toBeGreaterThan(0);
  });

  it('--apart lays out the same tiles (the photo frames the moved ones too)', async () => {
    let apart = 0;
    const shots = await handPairs(36, { apart: true }, (moved, plain, i) => {
      expectTilesAmong(plain.label.tiles.filter((t) => !t.truncated), moved.label.tiles, i);
      if (JSON.stringify(moved.label) !== JSON.stringify(plain.label)) apart++;
    });
    expect(shots).toBeGreaterThan(0);
    expect(apart).toBeGreaterThan(0);
  });

  it('renders single-tile crops', async () => {
    const { jpg, code } = await renderTileCrop(opts(5), 42);
    expect(code).toBe('back');
    expect(jpg.subarray(0, 2).toString('hex')).toBe('ffd8');
  });

  it('renders photos of one tile with the table round it (tileMargin), deterministically', async () => {
    const sharp = (await import('sharp')).default;
    const o = opts(5, { tileMargin: [1, 1.5], tileSize: 256, codes: ['7z'] });
    const a = await renderTileCrop(o, 0);
    clearCaches();
    const b = await renderTileCrop(o, 0);
    expect(a.code).toBe('7z');
    expect(Buffer.compare(a.jpg, b.jpg)).toBe(0);
    // the tile alone in the middle, with at least its own size of table on each side: the picture's
    // border rows and columns show the table, whose colour differs from the tile's face
    const { data, info } = await sharp(a.jpg).raw().toBuffer({ resolveWithObject: true });
    const px = (x: number, y: number) => [0, 1, 2].map((c) => data[(y * info.width + x) * info.channels + c]!);
    const spread = (pts: number[][]) => Math.max(...[0, 1, 2].map((c) => Math.max(...pts.map((p) => p[c]!)) - Math.min(...pts.map((p) => p[c]!))));
    const centre = px(Math.floor(info.width / 2), Math.floor(info.height / 2));
    const border = [px(2, 2), px(info.width - 3, 2), px(2, info.height - 3), px(info.width - 3, info.height - 3)];
    expect(Math.max(info.width, info.height)).toBe(256);
    expect(spread([centre, ...border])).toBeGreaterThan(spread(border));
    const plain = await renderTileCrop(opts(5, { tileSize: 256, codes: ['7z'] }), 0);
    expect(Buffer.compare(a.jpg, plain.jpg)).not.toBe(0);
  });

  it('--extra-styles is deterministic, changes training output, and never reaches the holdout', async () => {
    const a = await renderScene(opts(31, { extraStyles: true }), 0);
    clearCaches();
    const b = await renderScene(opts(31, { extraStyles: true }), 0);
    expect(Buffer.compare(a.jpg, b.jpg)).toBe(0);
    const plain = await renderScene(opts(31), 0);
    expect(Buffer.compare(a.jpg, plain.jpg)).not.toBe(0);
    const h1 = await renderScene(opts(32, { holdout: true, extraStyles: true }), 1);
    const h2 = await renderScene(opts(32, { holdout: true }), 1);
    expect(Buffer.compare(h1.jpg, h2.jpg)).toBe(0);
    const t1 = await renderTileCrop(opts(33, { holdout: true, extraStyles: true, codes: ['f3'] }), 0);
    const t2 = await renderTileCrop(opts(33, { holdout: true, codes: ['f3'] }), 0);
    expect(Buffer.compare(t1.jpg, t2.jpg)).toBe(0);
  });

  /** A training-only design flag: the same bytes twice, some of `tries` tiles of `codes` changed
   * against the same draws without it, and a holdout scene unchanged. Seeds seed..seed+2. */
  const trainingOnly = async (flag: Partial<GenOptions>, codes: string[], seed: number, tries: number) => {
    const render = async (o: GenOptions, k: number) => {
      clearCaches();
      return (await renderTileCrop(o, k)).jpg;
    };
    expect(Buffer.compare(await render(opts(seed, { ...flag, codes }), 0), await render(opts(seed, { ...flag, codes }), 0))).toBe(0);
    let changed = 0;
    for (let k = 0; k < tries; k++) {
      if (Buffer.compare(await render(opts(seed + 1, { ...flag, codes }), k * 7), await render(opts(seed + 1, { codes }), k * 7)) !== 0) changed++;
    }
    expect(changed).toBeGreaterThan(0);
    clearCaches();
    const h1 = await renderScene(opts(seed + 2, { holdout: true, ...flag }), 1);
    clearCaches();
    const h2 = await renderScene(opts(seed + 2, { holdout: true }), 1);
    expect(Buffer.compare(h1.jpg, h2.jpg)).toBe(0);
  };

  it('--line-art is deterministic, changes the training pictures, and never reaches the holdout', async () => {
    // over a few glyph sets, some birds and flowers are redrawn
    await trainingOnly({ lineArt: true }, ['1s', 'f2'], 34, 24);
  });

  it('--swap-art is deterministic, changes training flowers, and never reaches the holdout', async () => {
    await trainingOnly({ swapArt: true }, ['f2'], 37, 12);
  });

  it('--decoy-flowers: flowers show other plants but keep their character; nothing else changes', () => {
    const FLOWERS = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8'];
    let differs = 0;
    for (let seed = 0; seed < 40; seed++) {
      const plain = sampleGlyphStyle(rngFor(seed, 'st'), TRAIN_FONTS, { extra: true });
      const decoy = sampleGlyphStyle(rngFor(seed, 'st'), TRAIN_FONTS, { extra: true, decoy: true });
      // the same draws as 1.4.0, plus the decoy chance
      expect({ ...decoy, extra: { ...decoy.extra, decoy: undefined } }).toEqual({ ...plain, extra: { ...plain.extra, decoy: undefined } });
      expect([0.3, 0.5, 0.7]).toContain(decoy.extra!.decoy);
      // --decoy-always: the same draws, and every flower shows a random picture
      const always1 = sampleGlyphStyle(rngFor(seed, 'st'), TRAIN_FONTS, { extra: true, decoy: 'always' });
      expect({ ...always1, extra: { ...always1.extra, decoy: undefined } }).toEqual({ ...plain, extra: { ...plain.extra, decoy: undefined } });
      expect(always1.extra!.decoy).toBe(1);
      // only with --extra-styles
      expect(sampleGlyphStyle(rngFor(seed, 'st'), TRAIN_FONTS, { decoy: true }).extra).toBeUndefined();
      const code = FLOWERS[seed % 8]!;
      const always = { ...decoy, extra: { ...decoy.extra!, decoy: 1, motif: 1 } };
      const own = { ...decoy, extra: { ...decoy.extra!, decoy: undefined, motif: 1 } };
      const a = faceSvg(rngFor(seed, 'face'), always, code), b = faceSvg(rngFor(seed, 'face'), own, code);
      expect(a).toContain('梅蘭菊竹春夏秋冬'[seed % 8]);
      if (a !== b) differs++;
    }
    expect(differs).toBeGreaterThan(20);
  });

  it('--ink: one-ink sets with a small corner character and the ink bird; nothing else changes', () => {
    let inked = 0;
    for (let seed = 0; seed < 40; seed++) {
      const plain = sampleGlyphStyle(rngFor(seed, 'st'), TRAIN_FONTS, { extra: true, decoy: true });
      const ink = sampleGlyphStyle(rngFor(seed, 'st'), TRAIN_FONTS, { extra: true, decoy: true, ink: true });
      // the same draws as 1.5.0, plus the ink style of some sets
      expect({ ...ink, extra: { ...ink.extra, ink: undefined } }).toEqual({ ...plain, extra: { ...plain.extra, ink: undefined } });
      expect(sampleGlyphStyle(rngFor(seed, 'st'), TRAIN_FONTS, { ink: true }).extra).toBeUndefined();
      const s = ink.extra!.ink;
      if (!s) continue;
      inked++;
      expect(s.charSize).toBeGreaterThanOrEqual(42);
      expect(s.charSize).toBeLessThanOrEqual(84);
      const k = seed % 8;
      const svg = faceSvg(rngFor(seed, 'face'), ink, `f${k + 1}`);
      // the character is drawn (with its white halo) at the ink style's size, and every colour on
      // the face is the ink, the numeral's colour or white
      expect(svg).toContain(`>${'梅蘭菊竹春夏秋冬'[k]}</text>`);
      expect(svg).toContain(`font-size="${s.charSize.toFixed(1)}"`);
      const colours = new Set([...svg.matchAll(/(?:fill|stroke)="(#[0-9a-fA-F]{3,6})"/g)].map((m) => m[1]));
      for (const c of colours) expect([s.color, s.numColor, '#fff']).toContain(c);
      const bird = faceSvg(rngFor(seed, 'face'), ink, '1s');
      if (s.bird) expect(bird).toContain(`stroke="${s.color}"`);
      else expect(bird).toBe(faceSvg(rngFor(seed, 'face'), { ...ink, extra: { ...ink.extra!, ink: undefined } }, '1s'));
    }
    expect(inked).toBeGreaterThan(15);
    expect(inked).toBeLessThan(40);
  });
  it('--birds: most sets draw the 1 of bamboo as a procedural bird, each different; nothing else changes', () => {
    let proc = 0;
    const birds = new Set<string>();
    for (let seed = 0; seed < 60; seed++) {
      const plain = sampleGlyphStyle(rngFor(seed, 'st'), TRAIN_FONTS, { extra: true, ink: true });
      const b = sampleGlyphStyle(rngFor(seed, 'st'), TRAIN_FONTS, { extra: true, ink: true, birds: true });
      // the same draws as 1.6.0, plus the procedural-bird choice
      expect({ ...b, extra: { ...b.extra, procBird: undefined } }).toEqual({ ...plain, extra: { ...plain.extra, procBird: undefined } });
      expect(sampleGlyphStyle(rngFor(seed, 'st'), TRAIN_FONTS, { birds: true }).extra).toBeUndefined();
      for (const code of ['2s', '1z', 'f3']) expect(faceSvg(rngFor(seed, 'face'), b, code)).toBe(faceSvg(rngFor(seed, 'face'), plain, code));
      if (!b.extra!.procBird) continue;
      proc++;
      const svg = faceSvg(rngFor(seed, 'face'), { ...b, index: null }, '1s'); // without the set's corner index
      expect(svg).not.toBe(faceSvg(rngFor(seed, 'face'), { ...plain, index: null }, '1s'));
      expect(svg).not.toMatch(/NaN|undefined|Infinity/);
      // a head with an eye (two circles at least) and a body path
      expect((svg.match(/<circle/g) ?? []).length).toBeGreaterThanOrEqual(2);
      birds.add(svg);
      // an ink set keeps its one ink: every colour on the bird is the ink or white
      const ink = b.extra!.ink?.color;
      if (ink) for (const c of svg.match(/(?:fill|stroke)="(#[0-9a-f]+)"/g) ?? []) expect([ink, '#fff'], c).toContain(c.split('"')[1]);
    }
    expect(proc).toBeGreaterThan(35);
    expect(proc).toBeLessThan(57);
    expect(birds.size).toBe(proc);
  });

  it('--ornaments: flowers and seasons draw procedural ornaments that say nothing of their name; nothing else changes', () => {
    const pics = new Set<string>();
    // a face without its character, numeral and the numeral's frame: the picture alone
    const picture = (svg: string) => svg
      .replace(/<g transform="[^"]*"><text[^>]*>[^<]*<\/text><\/g>/g, '')
      .replace(/<(circle|rect)[^>]*fill="none" stroke="[^"]*" stroke-width="5"\/>/g, '');
    for (let seed = 0; seed < 60; seed++) {
      const flags = { extra: true, decoy: true, ink: true, birds: true } as const;
      const plain = sampleGlyphStyle(rngFor(seed, 'st'), TRAIN_FONTS, flags);
      const o = sampleGlyphStyle(rngFor(seed, 'st'), TRAIN_FONTS, { ...flags, ornaments: true });
      // the same draws as 1.7.0, plus the ornament share
      expect({ ...o, extra: { ...o.extra, ornament: undefined } }).toEqual({ ...plain, extra: { ...plain.extra, ornament: undefined } });
      expect([0.4, 0.7, 1]).toContain(o.extra!.ornament);
      expect(sampleGlyphStyle(rngFor(seed, 'st'), TRAIN_FONTS, { ornaments: true }).extra).toBeUndefined();
      for (const code of ['2s', '1z', '5z', '1s', '9m']) expect(faceSvg(rngFor(seed, 'face'), o, code)).toBe(faceSvg(rngFor(seed, 'face'), plain, code));
      // every picture an ornament and no decoys: the eight faces differ in their character and numeral only
      const all = { ...o, extra: { ...o.extra!, ornament: 1, decoy: undefined } };
      const faces = FLOWERS.map((c) => faceSvg(rngFor(seed, 'face'), all, c));
      for (const f of faces) expect(f).not.toMatch(/NaN|undefined|Infinity/);
      expect(new Set(faces.map(picture)).size).toBe(1);
      FLOWERS.forEach((c, k) => expect(faces[k], c).toContain(`>${'梅蘭菊竹春夏秋冬'[k]}</text>`));
      expect(picture(faces[0]!).length).toBeGreaterThan(100);
      pics.add(picture(faces[0]!));
      // and the ornament is not the set's own picture
      const own = { ...plain, extra: { ...plain.extra!, decoy: undefined } };
      expect(picture(faces[0]!)).not.toBe(picture(faceSvg(rngFor(seed, 'face'), own, 'f1')));
    }
    expect(pics.size).toBe(60);
  });

  it('renders only the requested classes, round robin, with --codes', async () => {
    const got = [];
    for (let k = 0; k < 4; k++) got.push((await renderTileCrop(opts(5, { codes: ['f2', 'f3'] }), k)).code);
    expect(got).toEqual(['f2', 'f3', 'f2', 'f3']);
  });
});

describe('synth table textures', () => {
  it('every --extra-styles pattern shows more than one colour', () => {
    for (const kind of EXTRA_BG) {
      const t = makeTexture(rngFor(7, kind), kind);
      const seen = new Set<string>();
      for (let i = 0; i < t.w * t.h; i += 97) seen.add(`${Math.round(t.rgb[i * 3] / 8)},${Math.round(t.rgb[i * 3 + 1] / 8)},${Math.round(t.rgb[i * 3 + 2] / 8)}`);
      expect(seen.size, kind).toBeGreaterThan(1);
    }
  });
  it('--tile-cloths: a quarter of training tables are tile-sized patches with seams; never the holdout', () => {
    const r = rngFor(4, 'bg');
    let patch = 0;
    for (let i = 0; i < 800; i++) {
      const k = sampleBgKind(r, false, false, true, true);
      if ((PATCH_BG as readonly string[]).includes(k)) patch++;
      expect(PATCH_BG as readonly string[]).not.toContain(sampleBgKind(r, true, false, true, true));
    }
    expect(patch).toBeGreaterThan(150);
    expect(patch).toBeLessThan(250);
    for (const kind of PATCH_BG) {
      const t = makeTexture(rngFor(9, kind), kind);
      // rectangles of several colours, split by dark seams
      const lum = (i: number) => t.rgb[i * 3]! * 0.3 + t.rgb[i * 3 + 1]! * 0.59 + t.rgb[i * 3 + 2]! * 0.11;
      const seen = new Set<number>();
      let dark = 0;
      for (let i = 0; i < t.w * t.h; i += 13) { seen.add(Math.round(lum(i) / 10)); if (lum(i) < 140) dark++; }
      expect(seen.size, kind).toBeGreaterThan(2);
      expect(dark / (t.w * t.h / 13), kind).toBeGreaterThan(0.01);
    }
  });
  it('training draws without --extra-styles never pick an extra pattern, and never a holdout one', () => {
    const r = rngFor(3, 'bg');
    for (let i = 0; i < 400; i++) {
      const k = sampleBgKind(r, false, false);
      expect(EXTRA_BG as readonly string[]).not.toContain(k);
      expect(HOLDOUT_BG as readonly string[]).not.toContain(k);
      expect(HOLDOUT_BG as readonly string[]).not.toContain(sampleBgKind(r, false, false, true));
    }
  });
});

describe('synth draw order', () => {
  // faces 40 x 54 px in a column, the camera below (bodies show downward, toward +y)
  const face = (x: number, y: number, turn: 0 | 90 | 180 | 270): [number, number][] => {
    const c: [number, number][] = [[x, y], [x + 40, y], [x + 40, y + 54], [x, y + 54]];
    return [...c.slice(turn / 90), ...c.slice(0, turn / 90)];
  };
  it('draws far tiles first, a tile turned upside down or sideways too, so no body covers a nearer face', () => {
    for (const turn of [0, 90, 180, 270] as const) {
      // a flush column, each face's near edge a few px over the next one's far edge in the image (a
      // nearer tile's face starts where the farther one's body ends); the far tile turned, so that
      // its first corner is its near or side corner
      const far = face(100, 100, turn), near = face(100, 150, 0), nearer = face(100, 200, turn);
      expect(drawOrder([nearer, near, far], [0, 1]), `turn ${turn}`).toEqual([2, 1, 0]);
      expect(drawOrder([far, nearer, near], [0, 1]), `turn ${turn}`).toEqual([0, 2, 1]);
    }
    // the camera to the right: the tiles to the right are nearer
    expect(drawOrder([face(200, 0, 180), face(100, 0, 0)], [3, 0])).toEqual([1, 0]);
  });
});

describe('synth CLI --codes', () => {
  const run = (args: string[]) => {
    try {
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/synth/generate.ts', '--out', '/tmp/synth-test-codes', '--count', '0', ...args], { cwd: REPO, stdio: 'pipe' });
      return '';
    } catch (e) {
      return String((e as { stderr?: Buffer }).stderr ?? e);
    }
  };
  it('names an unknown class', () => {
    expect(run(['--tiles', '--codes', 'f2,9z'])).toMatch(/--codes: unknown class 9z/);
  });
  it('refuses --codes for scenes', () => {
    expect(run(['--codes', 'f2'])).toMatch(/--codes works only with --tiles/);
  });
  it('refuses --set-grids with --tiles (it would do nothing)', () => {
    expect(run(['--tiles', '--set-grids'])).toMatch(/--set-grids lays out scenes/);
  });

  it('refuses --close-ups with --tiles (it would do nothing)', () => {
    expect(run(['--tiles', '--close-ups'])).toMatch(/--close-ups frames scenes/);
  });
  it('refuses --apart with --tiles, --set-grids and --close-ups (it would do nothing)', () => {
    for (const f of ['--tiles', '--set-grids', '--close-ups']) expect(run([f, '--apart'])).toMatch(/--apart lays flowers aside round a hand/);
  });
  it('refuses --far with --tiles, and with --close-ups', () => {
    expect(run(['--tiles', '--far'])).toMatch(/--far frames scenes/);
    expect(run(['--far', '--close-ups'])).toMatch(/--far and --close-ups frame scenes in opposite ways/);
  });

  it('takes --tile-margin only as LO,HI for single tiles', () => {
    expect(run(['--tile-margin', '0.5,2'])).toMatch(/--tile-margin works only with --tiles/);
    for (const m of ['2,0.5', '1', '-1,2', '0.5,9', 'a,b']) expect(run(['--tiles', '--tile-margin', m])).toMatch(/--tile-margin must be LO,HI with 0 <= LO <= HI <= 5/);
  });
  it('refuses --line-art for the holdout (a training design)', () => {
    expect(run(['--holdout', '--line-art'])).toMatch(/--line-art is a training design; it never reaches the holdout/);
  });
  it('refuses --swap-art for the holdout (a training design)', () => {
    expect(run(['--holdout', '--swap-art'])).toMatch(/--swap-art is a training design; it never reaches the holdout/);
  });
  it('refuses --decoy-always without --decoy-flowers', () => {
    expect(run(['--extra-styles', '--decoy-always'])).toMatch(/--decoy-always works only with --decoy-flowers/);
  });
  it('refuses --decoy-flowers, --ink, --birds and --ornaments without --extra-styles (they would do nothing)', () => {
    expect(run(['--decoy-flowers'])).toMatch(/--decoy-flowers works only with --extra-styles/);
    expect(run(['--ink'])).toMatch(/--ink works only with --extra-styles/);
    expect(run(['--birds'])).toMatch(/--birds works only with --extra-styles/);
    expect(run(['--ornaments'])).toMatch(/--ornaments works only with --extra-styles/);
  });
});

describe('synth designs (scene.ts glyphSetDesign, scripts/synth/designs.ts)', () => {
  it('decides a set\'s design from the seed alone: the same every time, shared by a group\'s scenes, held-out sources only in the holdout', () => {
    const seen = new Set<string>();
    for (let g = 0; g < 40; g++) {
      const a = glyphSetDesign(opts(5, { holdout: true }), `s${g}`), b = glyphSetDesign(opts(5, { holdout: true }), `s${g}`);
      expect(a.svg).toBe(b.svg);
      expect(a.source).toBe(b.source);
      expect(['drawn', ...HOLDOUT_ART]).toContain(a.source);
      expect(HOLDOUT_FONTS.map((f) => f.split(':')[0])).toContain(a.style.numFont);
      seen.add(a.source);
      const t = glyphSetDesign(opts(5), `s${g}`);
      expect(['drawn', ...TRAIN_ART]).toContain(t.source);
    }
    // over 40 held-out sets, drawn faces and every held-out artwork family turn up
    expect([...seen].sort()).toEqual(['drawn', ...HOLDOUT_ART].sort());
  });

  it('lists a generated set\'s scenes by design and counts the flowers read per design', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'designs-'));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ mode: 'scenes', seed: 5, items: 8, options: { size: 1024, holdout: true, allStyles: false } }));
    const designs = setDesigns(dir);
    expect(designs).toHaveLength(8);
    expect(designs[0]!.scene).toBe('000000.jpg');
    // six scenes share one set
    expect(new Set(designs.slice(0, 6).map((d) => JSON.stringify({ ...d, scene: '' }))).size).toBe(1);
    expect(designs[0]!.source).toBe(glyphSetDesign(opts(5, { holdout: true }), 's0').source);
    const reads = [
      { scene: '000000.jpg', tiles: [{ truth: 'f1', read: 'f1' }, { truth: 'f2', read: 'f5' }, { truth: '1m', read: '2m' }] },
      { scene: '000001.jpg', tiles: [{ truth: 'f3', read: '3z' }] },
    ].map((r) => JSON.stringify(r));
    // scenes 0 and 1 share a set, so their flowers count under one design
    const table = flowersByDesign(designs, [...reads, '']);
    expect(table).toEqual([{ design: designName(designs[0]!), flowers: 3, misread: 2, asFlower: 1 }]);
    expect(() => flowersByDesign(designs, [JSON.stringify({ scene: '000099.jpg', tiles: [] })])).toThrow(/000099\.jpg is not in the set/);
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ mode: 'tiles', seed: 5, items: 8, options: {} }));
    expect(() => setDesigns(dir)).toThrow(/not a scene set/);
  });
});
