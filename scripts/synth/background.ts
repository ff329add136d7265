/** Procedural table textures, sampled through the plane->image homography. */
import type { Frame, RGB } from './render.ts';
import { type M3, type Pt, inv } from './geom.ts';
import { type Rng, chance, clamp, int, pick, uni, weighted } from './rng.ts';

export interface Tex {
  w: number;
  h: number;
  rgb: Float32Array;
}

export const TRAIN_BG = ['felt', 'wood', 'woven', 'plaid', 'plain', 'stripes', 'fbm', 'floral'] as const;
/** Generator 1.4.0, `--extra-styles` only: more printed cloths and table tops (the detector fired on unseen patterns). */
export const EXTRA_BG = ['hex', 'argyle', 'grid', 'waves', 'confetti', 'rings', 'camo'] as const;
export const HOLDOUT_BG = ['marble', 'checker', 'polka', 'terrazzo'] as const;
/**
 * Generator 1.6.0, `--tile-cloths` only: cloths of flat, tile-sized light patches (a patchwork of
 * tall rectangles, offset bricks), hard negatives for the detector, which fired on the squares of
 * an unseen checked cloth and called them blank white dragons and backs.
 */
export const PATCH_BG = ['patchwork', 'bricks'] as const;

/** Periodic value noise lattice (period p) with smooth interpolation. */
function noiseField(r: Rng, n: number, p: number): (x: number, y: number) => number {
  const g = new Float32Array(p * p);
  for (let i = 0; i < g.length; i++) g[i] = r();
  return (x: number, y: number) => {
    const fx = (x / n) * p, fy = (y / n) * p;
    const x0 = Math.floor(fx), y0 = Math.floor(fy);
    const tx = fx - x0, ty = fy - y0;
    const sx = tx * tx * (3 - 2 * tx), sy = ty * ty * (3 - 2 * ty);
    const X0 = ((x0 % p) + p) % p, Y0 = ((y0 % p) + p) % p, X1 = (X0 + 1) % p, Y1 = (Y0 + 1) % p;
    const a = g[Y0 * p + X0], b = g[Y0 * p + X1], c = g[Y1 * p + X0], d = g[Y1 * p + X1];
    return (a + (b - a) * sx) * (1 - sy) + (c + (d - c) * sx) * sy;
  };
}

function fbm(r: Rng, n: number, base: number, oct: number) {
  const fs = Array.from({ length: oct }, (_, i) => noiseField(r, n, base << i));
  return (x: number, y: number) => {
    let v = 0, a = 0.5, t = 0;
    for (const f of fs) { v += f(x, y) * a; t += a; a *= 0.5; }
    return v / t;
  };
}

const hsl = (h: number, s: number, l: number): RGB => {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [f(0) * 255, f(8) * 255, f(4) * 255];
};

export function makeTexture(r: Rng, kind: string): Tex {
  const n = 256;
  const rgb = new Float32Array(n * n * 3);
  const set = (x: number, y: number, c: RGB) => { const o = (y * n + x) * 3; rgb[o] = c[0]; rgb[o + 1] = c[1]; rgb[o + 2] = c[2]; };
  const mix = (a: RGB, b: RGB, t: number): RGB => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
  const fine = noiseField(r, n, 64);
  switch (kind) {
    case 'felt': {
      const hue = weighted(r, [[uni(r, 100, 160), 4], [uni(r, 200, 235), 3], [uni(r, 350, 370) % 360, 1.5], [uni(r, 0, 360), 1]] as const);
      const sat = weighted(r, [[uni(r, 0.3, 0.75), 5], [uni(r, 0, 0.1), 1.5]] as const);
      const c = hsl(hue, sat, uni(r, 0.18, 0.45));
      const lf = fbm(r, n, 4, 4);
      for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
        const k = 0.85 + 0.25 * lf(x, y) + 0.12 * (fine(x, y) - 0.5);
        set(x, y, [c[0] * k, c[1] * k, c[2] * k]);
      }
      break;
    }
    case 'wood': {
      const a = hsl(uni(r, 18, 40), uni(r, 0.35, 0.7), uni(r, 0.25, 0.6));
      const b = mix(a, [30, 15, 5], uni(r, 0.25, 0.5));
      const warp = fbm(r, n, 2, 3);
      const freq = Math.round(uni(r, 4, 14));
      const uni3 = uni(r, 0.4, 1.5);
      const planks = r() < 0.5 ? Math.round(uni(r, 2, 5)) : 0;
      for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
        const t = Math.sin(((x / n) * freq + warp(x, y) * uni3 + 0.15 * fine(x, (y * 0.25) % n)) * Math.PI * 2);
        let c = mix(a, b, 0.5 + 0.5 * t * t * Math.sign(t) * 0.8 + 0.15 * (fine(x * 4 % n, y) - 0.5));
        if (planks && x % Math.floor(n / planks) < 2) c = mix(c, [20, 10, 5], 0.6);
        set(x, y, c);
      }
      break;
    }
    case 'woven': {
      const c1 = hsl(uni(r, 0, 360), uni(r, 0, 0.5), uni(r, 0.3, 0.8));
      const c2 = mix(c1, r() < 0.5 ? [255, 255, 255] : [0, 0, 0], uni(r, 0.1, 0.3));
      const p = Math.round(uni(r, 3, 8));
      for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
        const wx = Math.sin((x / p) * Math.PI), wy = Math.sin((y / p) * Math.PI);
        const over = (Math.floor(x / p) + Math.floor(y / p)) % 2 === 0;
        const t = over ? Math.abs(wy) : Math.abs(wx);
        set(x, y, mix(c2, c1, 0.4 + 0.6 * t + 0.1 * (fine(x, y) - 0.5)));
      }
      break;
    }
    case 'plaid': case 'stripes': case 'checker': {
      const base = hsl(uni(r, 0, 360), uni(r, 0.2, 0.8), uni(r, 0.3, 0.85));
      const c2 = hsl(uni(r, 0, 360), uni(r, 0.3, 0.9), uni(r, 0.2, 0.6));
      const p = Math.round(uni(r, 16, 64));
      const wd = uni(r, 0.2, 0.5);
      for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
        const sx = (x % p) / p < wd ? 1 : 0, sy = (y % p) / p < wd ? 1 : 0;
        let t: number;
        if (kind === 'stripes') t = sx;
        else if (kind === 'checker') t = (Math.floor(x / p) + Math.floor(y / p)) % 2;
        else t = (sx + sy) / 2;
        set(x, y, mix(base, c2, t * 0.85 + 0.08 * (fine(x, y) - 0.5)));
      }
      break;
    }
    case 'plain': {
      const c = weighted(r, [[hsl(uni(r, 20, 50), uni(r, 0, 0.3), uni(r, 0.6, 0.92)), 3], [hsl(uni(r, 0, 360), uni(r, 0, 0.5), uni(r, 0.1, 0.9)), 2]] as const);
      const lf = fbm(r, n, 2, 2);
      for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
        const k = 0.95 + 0.1 * lf(x, y) + 0.02 * (fine(x, y) - 0.5);
        set(x, y, [c[0] * k, c[1] * k, c[2] * k]);
      }
      break;
    }
    case 'fbm': case 'marble': case 'terrazzo': {
      const c1 = hsl(uni(r, 0, 360), uni(r, 0, 0.7), uni(r, 0.2, 0.8));
      const c2 = hsl(uni(r, 0, 360), uni(r, 0, 0.7), uni(r, 0.2, 0.8));
      const f = fbm(r, n, kind === 'terrazzo' ? 32 : 3, 5);
      for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
        let t = f(x, y);
        if (kind === 'marble') t = 0.5 + 0.5 * Math.sin(x / n * Math.PI * 4 + t * 12);
        if (kind === 'terrazzo') t = t > 0.62 ? 1 : t < 0.35 ? 0.6 : 0.1;
        set(x, y, mix(c1, c2, t));
      }
      break;
    }
    case 'polka': case 'floral': {
      const base = hsl(uni(r, 0, 360), uni(r, 0.2, 0.7), uni(r, 0.35, 0.9));
      const c2 = hsl(uni(r, 0, 360), uni(r, 0.4, 0.9), uni(r, 0.3, 0.7));
      const p = Math.round(uni(r, 24, 64));
      const rad = p * uni(r, 0.15, 0.35);
      for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
        const dx = (x % p) - p / 2, dy = (y % p) - p / 2;
        let t: number;
        if (kind === 'polka') t = Math.hypot(dx, dy) < rad ? 1 : 0;
        else {
          const a = Math.atan2(dy, dx);
          t = Math.hypot(dx, dy) < rad * (1.2 + 0.6 * Math.cos(a * 5)) ? 1 : 0;
        }
        set(x, y, mix(base, c2, t * 0.9 + 0.06 * (fine(x, y) - 0.5)));
      }
      break;
    }
    case 'hex': case 'argyle': case 'grid': case 'waves': case 'rings': {
      // regular printed patterns, two or three inks, period 16-64 texture px
      const base = hsl(uni(r, 0, 360), uni(r, 0.1, 0.8), uni(r, 0.25, 0.9));
      const c2 = hsl(uni(r, 0, 360), uni(r, 0.2, 0.9), uni(r, 0.15, 0.75));
      const c3 = hsl(uni(r, 0, 360), uni(r, 0.2, 0.9), uni(r, 0.3, 0.95));
      const p = Math.round(uni(r, 16, 64));
      const lw = uni(r, 0.06, 0.25);
      for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
        let c: RGB = base;
        if (kind === 'hex') {
          // axial hex cells: colour by cell parity, grout at the edges
          const q = (x * 0.577 - y / 3) / (p / 2), rr = (y * 2 / 3) / (p / 2);
          let rx = Math.round(q), ry = Math.round(rr);
          const rz = Math.round(-q - rr);
          const dx = Math.abs(rx - q), dy = Math.abs(ry - rr), dz = Math.abs(rz + q + rr);
          if (dx > dy && dx > dz) rx = -ry - rz; else if (dy > dz) ry = -rx - rz;
          const d = Math.max(Math.abs(q - rx), Math.abs(rr - ry), Math.abs(q + rr - rx - ry));
          c = d > 0.5 - lw * 0.5 ? c2 : (((rx - ry) % 3) + 3) % 3 === 0 ? c3 : base;
        } else if (kind === 'argyle') {
          const u = ((x + y) % p) / p, v = ((x - y + 4 * n) % p) / p;
          const cell = (Math.floor((x + y) / p) + Math.floor((x - y + 4 * n) / p)) % 2;
          c = cell ? c3 : base;
          if (u < lw * 0.3 || v < lw * 0.3) c = c2;
        } else if (kind === 'grid') {
          c = (x % p) / p < lw * 0.4 || (y % p) / p < lw * 0.4 ? c2 : base;
        } else if (kind === 'waves') {
          const t = Math.sin((y / p) * Math.PI * 2 + Math.sin((x / n) * Math.PI * 8) * 1.5);
          c = t > 1 - lw * 4 ? c2 : t < -0.8 ? c3 : base;
        } else {
          const dx = (x % p) - p / 2, dy = (y % p) - p / 2;
          const d = Math.hypot(dx, dy) / (p / 2);
          c = d < 1 && Math.floor(d * 3.5) % 2 === 0 ? c2 : base;
        }
        set(x, y, mix(c, [128, 128, 128], 0.05 * (fine(x, y) - 0.5)));
      }
      break;
    }
    case 'patchwork': case 'bricks': {
      // tall rectangles about a tile's shape, several light and mid colours, thin dark seams
      const pal: RGB[] = [hsl(uni(r, 30, 60), uni(r, 0, 0.3), uni(r, 0.82, 0.95)), hsl(uni(r, 0, 360), uni(r, 0.2, 0.8), uni(r, 0.3, 0.85)),
        hsl(uni(r, 0, 360), uni(r, 0.2, 0.8), uni(r, 0.3, 0.85)), hsl(uni(r, 30, 60), uni(r, 0, 0.2), uni(r, 0.7, 0.95))];
      const seam: RGB = hsl(uni(r, 0, 360), uni(r, 0, 0.4), uni(r, 0.1, 0.5));
      const pw = Math.round(uni(r, 20, 64)), ph = Math.round(pw * uni(r, 1.1, 1.5)), sw = uni(r, 0.6, 2.5);
      const cellCol = new Map<string, RGB>();
      for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
        const row = Math.floor(y / ph);
        const xs = kind === 'bricks' && row % 2 ? x + pw / 2 : x;
        const col = Math.floor(xs / pw);
        const key = `${row},${col}`;
        let c = cellCol.get(key);
        if (!c) { c = mix(pick(r, pal), [255, 255, 255], uni(r, -0.05, 0.1)); cellCol.set(key, c); }
        const ex = Math.min(xs % pw, pw - (xs % pw)), ey = Math.min(y % ph, ph - (y % ph));
        set(x, y, mix(ex < sw || ey < sw ? seam : c, [128, 128, 128], 0.06 * (fine(x, y) - 0.5)));
      }
      break;
    }
    case 'confetti': case 'camo': {
      // scattered shapes of random size and colour (confetti) or large soft-edged blobs (camo)
      const base = hsl(uni(r, 0, 360), uni(r, 0.1, 0.7), uni(r, 0.3, 0.9));
      const inks = Array.from({ length: int(r, 2, 4) }, () => hsl(uni(r, 0, 360), uni(r, 0.3, 0.9), uni(r, 0.2, 0.9)));
      for (let i = 0; i < n * n; i++) { rgb[i * 3] = base[0]; rgb[i * 3 + 1] = base[1]; rgb[i * 3 + 2] = base[2]; }
      if (kind === 'camo') {
        const fields = inks.map(() => fbm(r, n, 4, 3));
        for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
          fields.forEach((fld, k) => { if (fld(x, y) > 0.58) set(x, y, inks[k]); });
        }
      } else {
        const count = int(r, 40, 160);
        for (let i = 0; i < count; i++) {
          const cx = uni(r, 0, n), cy = uni(r, 0, n), sz = uni(r, 3, 20), ink = pick(r, inks);
          const shape = pick(r, ['disc', 'square', 'bar', 'tri'] as const);
          const a = uni(r, 0, Math.PI), ca = Math.cos(a), sa = Math.sin(a);
          const R = Math.ceil(sz * 1.6);
          for (let dy = -R; dy <= R; dy++) for (let dx = -R; dx <= R; dx++) {
            const u = (dx * ca + dy * sa) / sz, v = (-dx * sa + dy * ca) / sz;
            const inside = shape === 'disc' ? u * u + v * v < 1 : shape === 'square' ? Math.abs(u) < 0.8 && Math.abs(v) < 0.8
              : shape === 'bar' ? Math.abs(u) < 1.5 && Math.abs(v) < 0.3 : v > -0.6 && Math.abs(u) < (0.6 - v) * 0.6 && v < 0.9;
            if (inside) set(((Math.round(cx + dx) % n) + n) % n, ((Math.round(cy + dy) % n) + n) % n, ink);
          }
        }
      }
      break;
    }
    default: throw new Error(`unknown bg ${kind}`);
  }
  return { w: n, h: n, rgb };
}

/** Table texture kind. `extra` (--extra-styles) adds EXTRA_BG; without it the draws are those of generator 1.3.0. */
export function sampleBgKind(r: Rng, holdout: boolean, allStyles: boolean, extra = false, patch = false): string {
  // --tile-cloths: the one extra draw comes first, and only with the flag
  if (patch && !holdout && chance(r, 0.25)) return pick(r, PATCH_BG);
  if (allStyles) return pick(r, [...TRAIN_BG, ...HOLDOUT_BG, ...(extra ? EXTRA_BG : [])]);
  if (holdout) return r() < 0.6 ? pick(r, HOLDOUT_BG) : pick(r, ['felt', 'wood', 'plain'] as const);
  if (extra) {
    return weighted(r, [['felt', 3], ['wood', 3], ['woven', 1.5], ['plaid', 1], ['plain', 2], ['stripes', 0.7], ['fbm', 1], ['floral', 1],
      ['hex', 0.7], ['argyle', 0.7], ['grid', 0.7], ['waves', 0.7], ['confetti', 1], ['rings', 0.7], ['camo', 0.7]] as const);
  }
  return weighted(r, [['felt', 3], ['wood', 3], ['woven', 1.5], ['plaid', 1], ['plain', 2], ['stripes', 0.7], ['fbm', 1], ['floral', 1]] as const);
}

/**
 * Fill the frame with texture(s) seen through G (plane->image). texScale: texture px per
 * plane unit. Optional table edge: beyond plane y > edgeY, tex2 is used.
 */
export function paintBackground(f: Frame, G: M3, tex: Tex, texScale: number, edge?: { y: number; tex: Tex; scale: number; normal: [number, number] }): void {
  // Rendered at half resolution (textures are smooth) and upsampled bilinearly.
  const Gi = inv(G);
  const { w, h, rgb } = f;
  const hw = Math.ceil(w / 2) + 1, hh = Math.ceil(h / 2) + 1;
  const half = new Float32Array(hw * hh * 3);
  for (let y = 0; y < hh; y++) {
    const yc = y * 2 + 0.5;
    for (let x = 0; x < hw; x++) {
      const xc = x * 2 + 0.5;
      let W = Gi[6] * xc + Gi[7] * yc + Gi[8];
      if (W <= 1e-9) W = 1e-9;
      const px = (Gi[0] * xc + Gi[1] * yc + Gi[2]) / W;
      const py = (Gi[3] * xc + Gi[4] * yc + Gi[5]) / W;
      let t = tex, sc = texScale;
      if (edge && px * edge.normal[0] + py * edge.normal[1] > edge.y) { t = edge.tex; sc = edge.scale; }
      let u = px * sc, v = py * sc;
      u -= Math.floor(u / 256) * 256; v -= Math.floor(v / 256) * 256;
      const x0 = u | 0, y0 = v | 0;
      const fx = u - x0, fy = v - y0;
      const x1 = (x0 + 1) & 255, y1 = (y0 + 1) & 255;
      const a = ((y0 & 255) * 256 + (x0 & 255)) * 3, b = ((y0 & 255) * 256 + x1) * 3, c = (y1 * 256 + (x0 & 255)) * 3, d = (y1 * 256 + x1) * 3;
      const o = (y * hw + x) * 3;
      const T = t.rgb;
      const w00 = (1 - fx) * (1 - fy), w10 = fx * (1 - fy), w01 = (1 - fx) * fy, w11 = fx * fy;
      half[o] = T[a] * w00 + T[b] * w10 + T[c] * w01 + T[d] * w11;
      half[o + 1] = T[a + 1] * w00 + T[b + 1] * w10 + T[c + 1] * w01 + T[d + 1] * w11;
      half[o + 2] = T[a + 2] * w00 + T[b + 2] * w10 + T[c + 2] * w01 + T[d + 2] * w11;
    }
  }
  // 2x bilinear upsample; weights are 1, 0.5 or 0.25 depending on pixel parity
  for (let y = 0; y < h; y++) {
    const y0 = y >> 1;
    const oddY = (y & 1) === 1;
    let o = y * w * 3;
    for (let x = 0; x < w; x++, o += 3) {
      const a = (y0 * hw + (x >> 1)) * 3;
      if ((x & 1) === 0) {
        if (!oddY) {
          rgb[o] = half[a]; rgb[o + 1] = half[a + 1]; rgb[o + 2] = half[a + 2];
        } else {
          const c = a + hw * 3;
          rgb[o] = half[a] * 0.5 + half[c] * 0.5; rgb[o + 1] = half[a + 1] * 0.5 + half[c + 1] * 0.5; rgb[o + 2] = half[a + 2] * 0.5 + half[c + 2] * 0.5;
        }
      } else {
        const b = a + 3;
        if (!oddY) {
          rgb[o] = half[a] * 0.5 + half[b] * 0.5; rgb[o + 1] = half[a + 1] * 0.5 + half[b + 1] * 0.5; rgb[o + 2] = half[a + 2] * 0.5 + half[b + 2] * 0.5;
        } else {
          const c = a + hw * 3, d = c + 3;
          rgb[o] = half[a] * 0.25 + half[b] * 0.25 + half[c] * 0.25 + half[d] * 0.25;
          rgb[o + 1] = half[a + 1] * 0.25 + half[b + 1] * 0.25 + half[c + 1] * 0.25 + half[d + 1] * 0.25;
          rgb[o + 2] = half[a + 2] * 0.25 + half[b + 2] * 0.25 + half[c + 2] * 0.25 + half[d + 2] * 0.25;
        }
      }
    }
  }
}

/** Simple distractor objects drawn in image space (coins, cards, hand-like blobs, pens). */
export function drawDistractor(r: Rng, f: Frame, cx: number, cy: number, size: number): void {
  const kind = pick(r, ['coin', 'card', 'hand', 'pen', 'chip', 'domino', 'domino', 'block'] as const);
  const ang = uni(r, 0, Math.PI);
  const ca = Math.cos(ang), sa = Math.sin(ang);
  const { w, h, rgb } = f;
  type Shape = (lx: number, ly: number) => RGB | null;
  let hw = size, hh = size;
  let shape: Shape;
  switch (kind) {
    case 'coin': case 'chip': {
      const rad = size * (kind === 'coin' ? 0.35 : 0.45);
      const base: RGB = kind === 'coin' ? (r() < 0.5 ? [200, 170, 90] : [185, 185, 190]) : hsl(uni(r, 0, 360), 0.7, 0.5);
      hw = hh = rad;
      shape = (lx, ly) => {
        const d = Math.hypot(lx, ly) / rad;
        if (d > 1) return null;
        const k = (0.75 + 0.35 * (-lx - ly) / rad / 1.4) * (d > 0.85 ? 0.8 : 1);
        const stripe = kind === 'chip' && d > 0.7 && Math.floor((Math.atan2(ly, lx) + 4) * 3) % 2 === 0;
        return stripe ? [240, 240, 240] : [base[0] * k, base[1] * k, base[2] * k];
      };
      break;
    }
    case 'card': {
      hw = size * 0.45; hh = size * 0.65;
      const red = r() < 0.5;
      const back = r() < 0.4 ? hsl(uni(r, 0, 360), 0.6, 0.4) : null;
      shape = (lx, ly) => {
        if (Math.abs(lx) > hw || Math.abs(ly) > hh) return null;
        if (back) return ((Math.floor(lx / 6) + Math.floor(ly / 6)) & 1) ? back : [240, 240, 240];
        const pip = Math.hypot(lx, ly) < size * 0.12 || Math.hypot(lx + hw * 0.7, ly + hh * 0.75) < size * 0.06;
        return pip ? (red ? [200, 20, 30] : [20, 20, 20]) : [245, 245, 240];
      };
      break;
    }
    case 'hand': {
      const skin = hsl(uni(r, 15, 35), uni(r, 0.3, 0.6), uni(r, 0.35, 0.75));
      hw = size * 0.9; hh = size * 1.1;
      const fingers = [-0.45, -0.15, 0.15, 0.45].map((fx) => [fx * size, -size * 0.55, size * uni(r, 0.35, 0.55)]);
      shape = (lx, ly) => {
        let inside = (lx / (size * 0.6)) ** 2 + ((ly - size * 0.2) / (size * 0.55)) ** 2 < 1;
        for (const [fx, fy, len] of fingers) {
          if (Math.abs(lx - fx) < size * 0.12 && ly < fy + size * 0.2 && ly > fy - len) inside = true;
        }
        if (!inside) return null;
        const k = 0.85 + 0.2 * (-ly / size);
        return [skin[0] * k, skin[1] * k, skin[2] * k];
      };
      break;
    }
    case 'domino': case 'block': {
      // tile-like hard negatives: dominoes and blank white blocks / erasers
      hw = size * 0.28; hh = size * 0.5;
      const face: RGB = kind === 'domino' && r() < 0.3 ? [25, 25, 25] : hsl(uni(r, 30, 60), uni(r, 0, 0.3), uni(r, 0.82, 0.95));
      const pip: RGB = face[0] < 100 ? [235, 235, 235] : [20, 20, 20];
      const pips: Pt[] = [];
      if (kind === 'domino') {
        const lay = [[], [[0, 0]], [[-1, -1], [1, 1]], [[-1, -1], [0, 0], [1, 1]], [[-1, -1], [1, -1], [-1, 1], [1, 1]],
          [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]]];
        for (const half of [-1, 1]) for (const [px, py] of lay[Math.floor(r() * 7)]) pips.push([px * hw * 0.5, half * hh * 0.5 + py * hh * 0.25]);
      }
      const rad = hw * 0.2, pr = hw * 0.14;
      shape = (lx, ly) => {
        const qx = Math.abs(lx) - (hw - rad), qy = Math.abs(ly) - (hh - rad);
        if (Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) > rad) return null;
        if (kind === 'domino') {
          if (Math.abs(ly) < hh * 0.02) return [face[0] * 0.5, face[1] * 0.5, face[2] * 0.5];
          for (const [px, py] of pips) if (Math.hypot(lx - px, ly - py) < pr) return pip;
        }
        const k = 1 - 0.15 * Math.max(0, Math.max(qx, qy) / rad + 1) ;
        return [face[0] * k, face[1] * k, face[2] * k];
      };
      break;
    }
    default: {
      hw = size * 1.2; hh = size * 0.06;
      const c = hsl(uni(r, 0, 360), uni(r, 0, 0.8), uni(r, 0.1, 0.6));
      shape = (lx, ly) => (Math.abs(lx) < hw && Math.abs(ly) < hh ? [c[0] * (1 - 0.3 * Math.abs(ly) / hh), c[1] * (1 - 0.3 * Math.abs(ly) / hh), c[2] * (1 - 0.3 * Math.abs(ly) / hh)] : null);
    }
  }
  const ext = Math.hypot(hw, hh) + 2;
  for (let y = Math.max(0, Math.floor(cy - ext)); y < Math.min(h, cy + ext); y++) {
    for (let x = Math.max(0, Math.floor(cx - ext)); x < Math.min(w, cx + ext); x++) {
      const dx = x - cx, dy = y - cy;
      const c = shape(dx * ca + dy * sa, -dx * sa + dy * ca);
      if (!c) continue;
      const o = (y * w + x) * 3;
      rgb[o] = clamp(c[0], 0, 255); rgb[o + 1] = clamp(c[1], 0, 255); rgb[o + 2] = clamp(c[2], 0, 255);
    }
  }
}
