/** Raw-buffer rasterisation: tile sprites, perspective tile drawing, shadows, effects. */
import type { Img } from './art.ts';
import { type M3, type Pt, apply, convexHull, inv } from './geom.ts';
import { type Rng, clamp, uni } from './rng.ts';

export type RGB = [number, number, number];

export interface Frame {
  w: number;
  h: number;
  rgb: Float32Array; // 0..255, 3 channels
  faceMask: Uint8Array; // 1 where a tile face was drawn (for glare)
}

export const newFrame = (w: number, h: number): Frame => ({ w, h, rgb: new Float32Array(w * h * 3), faceMask: new Uint8Array(w * h) });

export interface BodyStyle {
  face: RGB; // face colour
  back: RGB; // back colour (coloured layer of the body)
  aspect: number; // tile height / width
  radius: number; // corner radius, fraction of width
  bevel: number; // edge darkening 0..0.5
  bevelW: number; // bevel width as fraction of width
  engrave: number; // inner shadow strength 0..1
  ink: number; // ink opacity
  thickness: number; // thickness in tile widths
  backFrac: number; // fraction of thickness with back colour (face-up tile, from the table)
  sideShade: number; // side darkening multiplier
  gloss: number; // diagonal gloss strength
  margin: number; // face margin (fraction of width) around the glyph
  noise: number; // face texture noise amplitude
  wear: number; // paint wear 0..0.5
  fade: number; // ink desaturation towards grey 0..0.5
}

export interface Sprite {
  mips: Img[]; // level 0 = full res
  w: number;
  h: number;
  radiusPx: number;
  top: RGB; // side colour near the top face
  bottom: RGB; // side colour near the table
  backFrac: number;
}

function sampleBilinear(img: Img, x: number, y: number, out: number[]): void {
  // x,y in pixel-centre coordinates; transparent outside
  const x0 = Math.floor(x), y0 = Math.floor(y);
  const fx = x - x0, fy = y - y0;
  out[0] = out[1] = out[2] = out[3] = 0;
  const { w, h, data } = img;
  for (let j = 0; j < 2; j++) {
    const yy = y0 + j;
    if (yy < 0 || yy >= h) continue;
    const wy = j ? fy : 1 - fy;
    for (let i = 0; i < 2; i++) {
      const xx = x0 + i;
      if (xx < 0 || xx >= w) continue;
      const wt = wy * (i ? fx : 1 - fx);
      const o = (yy * w + xx) * 4;
      const a = data[o + 3] * wt;
      out[0] += data[o] * a;
      out[1] += data[o + 1] * a;
      out[2] += data[o + 2] * a;
      out[3] += a;
    }
  }
  if (out[3] > 0) {
    out[0] /= out[3];
    out[1] /= out[3];
    out[2] /= out[3];
  }
  out[3] /= 255;
}

/** signed distance to a rounded rect [0,w]x[0,h] with radius r (negative inside) */
function sdRoundRect(x: number, y: number, w: number, h: number, r: number): number {
  const qx = Math.abs(x - w / 2) - (w / 2 - r);
  const qy = Math.abs(y - h / 2) - (h / 2 - r);
  const ox = Math.max(qx, 0), oy = Math.max(qy, 0);
  return Math.sqrt(ox * ox + oy * oy) + Math.min(Math.max(qx, qy), 0) - r;
}

function mipChain(base: Img): Img[] {
  const mips = [base];
  let cur = base;
  while (cur.w >= 24 && cur.h >= 24) {
    const w = cur.w >> 1, h = cur.h >> 1;
    const d = new Uint8ClampedArray(w * h * 4);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const o = (y * w + x) * 4;
        const a = ((2 * y) * cur.w + 2 * x) * 4, b = a + 4, c = a + cur.w * 4, e = c + 4;
        const aa = cur.data[a + 3] + cur.data[b + 3] + cur.data[c + 3] + cur.data[e + 3];
        for (let k = 0; k < 3; k++) {
          d[o + k] = aa > 0
            ? (cur.data[a + k] * cur.data[a + 3] + cur.data[b + k] * cur.data[b + 3] + cur.data[c + k] * cur.data[c + 3] + cur.data[e + k] * cur.data[e + 3]) / aa
            : 0;
        }
        d[o + 3] = aa / 4;
      }
    }
    cur = { data: d, w, h };
    mips.push(cur);
  }
  return mips;
}

const mixc = (a: RGB, b: RGB, t: number): RGB => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];

/**
 * Build the top-face sprite of one tile: body with rounded corners, bevel, gloss,
 * and the glyph (engraved). faceDown => back colour with optional pattern glyph.
 */
export function buildSprite(r: Rng, glyph: Img | null, fullFace: boolean, body: BodyStyle, faceDown: boolean, tw: number): Sprite {
  const w = tw, h = Math.round(tw * body.aspect);
  const data = new Uint8ClampedArray(w * h * 4);
  const rad = body.radius * w;
  const bw = Math.max(1, body.bevelW * w);
  const base: RGB = faceDown ? body.back : body.face;
  const m = body.margin * w;
  const gx = glyph ? glyph.w / (fullFace ? w : w - 2 * m) : 0;
  const gy = glyph ? glyph.h / (fullFace ? h : h - 2 * m * body.aspect) : 0;
  const ox = fullFace ? 0 : m, oy = fullFace ? 0 : m * body.aspect;
  const eOff = Math.max(0.6, w / 90) * (faceDown ? 0 : 1);
  const s = [0, 0, 0, 0], s2 = [0, 0, 0, 0];
  const glossA = uni(r, 0, Math.PI * 2);
  const gdx = Math.cos(glossA), gdy = Math.sin(glossA);
  const seedN = Math.floor(r() * 10000);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const px = x + 0.5, py = y + 0.5;
      const d = sdRoundRect(px, py, w, h, rad);
      const alpha = clamp(0.5 - d, 0, 1);
      const o = (y * w + x) * 4;
      if (alpha <= 0) {
        data[o + 3] = 0;
        continue;
      }
      const e = -d; // distance inside
      const t = clamp(e / bw, 0, 1);
      const edge = 1 - t * t * (3 - 2 * t);
      // light from top-left: edges facing it are brighter
      const dirx = (px - w / 2) / w, diry = (py - h / 2) / h;
      const dl = dirx * 0.7 + diry * 0.7;
      let shade = 1 - body.bevel * edge * (0.5 + dl * 1.2);
      shade += body.gloss * Math.max(0, Math.cos(((px * gdx + py * gdy) / w) * 2.2) - 0.6);
      const nz = body.noise * (((Math.sin((x + seedN) * 12.9898 + y * 78.233) * 43758.5453) % 1) - 0.25);
      let cr = base[0], cg = base[1], cb = base[2];
      if (glyph) {
        const u = (px - ox) * gx - 0.5, v = (py - oy) * gy - 0.5;
        sampleBilinear(glyph, u, v, s);
        if (fullFace) {
          if (s[3] > 0) {
            cr = cr + (s[0] - cr) * s[3];
            cg = cg + (s[1] - cg) * s[3];
            cb = cb + (s[2] - cb) * s[3];
          }
        } else {
          // engraving: shadow below-right of the ink, highlight above-left
          if (body.engrave > 0 && eOff > 0) {
            sampleBilinear(glyph, u - eOff * gx, v - eOff * gy, s2);
            const sh = s2[3] * (1 - s[3]) * body.engrave * 0.45;
            cr *= 1 - sh; cg *= 1 - sh; cb *= 1 - sh;
          }
          let a = s[3] * body.ink;
          if (body.wear > 0 && a > 0) {
            // worn / unevenly filled paint
            const h1 = Math.sin(x * 0.61 + y * 0.37 + seedN) + Math.sin(x * 0.23 - y * 0.51 + seedN * 0.7);
            a *= 1 - body.wear * clamp(0.5 + 0.35 * h1, 0, 1);
          }
          if (faceDown) {
            // pattern on back: light/dark overlay
            const lum = (s[0] + s[1] + s[2]) / 3 / 255;
            const k = (lum - 0.5) * 2 * a * 0.5;
            cr *= 1 + k; cg *= 1 + k; cb *= 1 + k;
          } else {
            if (body.fade > 0) {
              const lum = 0.3 * s[0] + 0.59 * s[1] + 0.11 * s[2];
              s[0] += (lum - s[0]) * body.fade; s[1] += (lum - s[1]) * body.fade; s[2] += (lum - s[2]) * body.fade;
            }
            cr += (s[0] - cr) * a;
            cg += (s[1] - cg) * a;
            cb += (s[2] - cb) * a;
          }
        }
      }
      data[o] = cr * shade + nz;
      data[o + 1] = cg * shade + nz;
      data[o + 2] = cb * shade + nz;
      data[o + 3] = alpha * 255;
    }
  }
  const top = faceDown ? body.back : mixc(body.face, [200, 200, 200], 0.1);
  const bottom = faceDown ? body.face : body.back;
  return { mips: mipChain({ data, w, h }), w, h, radiusPx: rad, top, bottom, backFrac: faceDown ? 1 - body.backFrac : body.backFrac };
}

export interface DrawResult {
  quad: Pt[]; // face corners clockwise from the tile's own top-left
  hull: Pt[]; // face + body outline
}

/**
 * Draw a tile: H maps sprite level-0 pixel coords to image coords; d is the image-space
 * vector from the top face to the tile's footprint on the table (visible thickness).
 */
export function drawTile(f: Frame, sp: Sprite, H: M3, d: Pt, sideShade: number): DrawResult {
  const quad: Pt[] = [apply(H, 0, 0), apply(H, sp.w, 0), apply(H, sp.w, sp.h), apply(H, 0, sp.h)];
  const all = [...quad, ...quad.map(([x, y]) => [x + d[0], y + d[1]] as Pt)];
  const hull = convexHull(all);
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of all) {
    x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
  }
  const bx0 = Math.max(0, Math.floor(x0)), by0 = Math.max(0, Math.floor(y0));
  const bx1 = Math.min(f.w - 1, Math.ceil(x1)), by1 = Math.min(f.h - 1, Math.ceil(y1));
  if (bx0 > bx1 || by0 > by1) return { quad, hull };
  // local scale: image px per sprite px
  const area = Math.abs((quad[2][0] - quad[0][0]) * (quad[3][1] - quad[1][1]) - (quad[3][0] - quad[1][0]) * (quad[2][1] - quad[0][1])) / 2;
  const sc = Math.sqrt(area / (sp.w * sp.h));
  let L = 0;
  while (L < sp.mips.length - 1 && sc * (1 << L) < 0.6) L++;
  const mip = sp.mips[L];
  const ms = 1 / (1 << L);
  const Hi = inv(H);
  const dX = Hi[0] * d[0] + Hi[1] * d[1], dY = Hi[3] * d[0] + Hi[4] * d[1], dW = Hi[6] * d[0] + Hi[7] * d[1];
  const dlen = Math.hypot(d[0], d[1]);
  const K = Math.max(1, Math.min(40, Math.ceil(dlen / 1.2)));
  const s = [0, 0, 0, 0];
  const { w: sw, h: sh, radiusPx } = sp;
  const rgb = f.rgb;
  const topC = sp.top, botC = sp.bottom, bf = sp.backFrac;
  for (let py = by0; py <= by1; py++) {
    const yc = py + 0.5;
    for (let px = bx0; px <= bx1; px++) {
      const xc = px + 0.5;
      const X = Hi[0] * xc + Hi[1] * yc + Hi[2];
      const Y = Hi[3] * xc + Hi[4] * yc + Hi[5];
      const W = Hi[6] * xc + Hi[7] * yc + Hi[8];
      const u = X / W, v = Y / W;
      let fa = 0;
      if (u > -1 && v > -1 && u < sw + 1 && v < sh + 1) {
        sampleBilinear(mip, u * ms - 0.5, v * ms - 0.5, s);
        fa = s[3];
      }
      if (fa >= 0.999) {
        const o = (py * f.w + px) * 3;
        rgb[o] = s[0]; rgb[o + 1] = s[1]; rgb[o + 2] = s[2];
        f.faceMask[py * f.w + px] = 1;
        continue;
      }
      // side (thickness): find the smallest offset s in (0,1] whose footprint covers this pixel
      let cov = 0, sHit = 1;
      for (let k = 1; k <= K; k++) {
        const t = k / K;
        const Wk = W - t * dW;
        const uk = (X - t * dX) / Wk, vk = (Y - t * dY) / Wk;
        const dd = sdRoundRect(uk, vk, sw, sh, radiusPx) * sc;
        const c = clamp(0.5 - dd, 0, 1);
        if (c > cov) {
          if (cov < 0.5 && c >= 0.5) sHit = t;
          cov = c;
          if (c >= 1) break;
        }
      }
      if (cov <= 0 && fa <= 0) continue;
      const o = (py * f.w + px) * 3;
      let r0 = rgb[o], g0 = rgb[o + 1], b0 = rgb[o + 2];
      if (cov > 0) {
        const lt = clamp((sHit - bf) * 8 + 0.5, 0, 1); // soft boundary between layers
        const sd = sideShade * (1 - 0.18 * sHit);
        const cr = (topC[0] + (botC[0] - topC[0]) * lt) * sd;
        const cg = (topC[1] + (botC[1] - topC[1]) * lt) * sd;
        const cb = (topC[2] + (botC[2] - topC[2]) * lt) * sd;
        r0 += (cr - r0) * cov; g0 += (cg - g0) * cov; b0 += (cb - b0) * cov;
      }
      if (fa > 0) {
        r0 += (s[0] - r0) * fa; g0 += (s[1] - g0) * fa; b0 += (s[2] - b0) * fa;
        if (fa > 0.5) f.faceMask[py * f.w + px] = 1;
      }
      rgb[o] = r0; rgb[o + 1] = g0; rgb[o + 2] = b0;
    }
  }
  return { quad, hull };
}

/** Soft drop shadows of convex polygons (image coords), applied multiplicatively. */
export function drawShadows(f: Frame, polys: Pt[][], strength: number, blurPx: number): void {
  const S = 4;
  const mw = Math.ceil(f.w / S), mh = Math.ceil(f.h / S);
  let m: Float32Array = new Float32Array(mw * mh);
  for (const poly of polys) {
    const p = poly.map(([x, y]) => [x / S, y / S] as Pt);
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const [x, y] of p) { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); }
    for (let y = Math.max(0, Math.floor(y0)); y <= Math.min(mh - 1, Math.ceil(y1)); y++) {
      for (let x = Math.max(0, Math.floor(x0)); x <= Math.min(mw - 1, Math.ceil(x1)); x++) {
        let inside = true;
        for (let i = 0; i < p.length && inside; i++) {
          const a = p[i], b = p[(i + 1) % p.length];
          if ((b[0] - a[0]) * (y + 0.5 - a[1]) - (b[1] - a[1]) * (x + 0.5 - a[0]) < 0) inside = false;
        }
        if (inside) m[y * mw + x] = 1;
      }
    }
  }
  const rad = Math.max(1, Math.round(blurPx / S));
  for (let pass = 0; pass < 2; pass++) m = boxBlur(m, mw, mh, rad);
  applyMask(f, m, mw, mh, S, (v) => 1 - strength * v);
}

function boxBlur(src: Float32Array, w: number, h: number, r: number): Float32Array {
  const tmp = new Float32Array(w * h), out = new Float32Array(w * h);
  const n = 2 * r + 1;
  for (let y = 0; y < h; y++) {
    let acc = 0;
    for (let x = -r; x <= r; x++) acc += src[y * w + clamp(x, 0, w - 1)];
    for (let x = 0; x < w; x++) {
      tmp[y * w + x] = acc / n;
      acc += src[y * w + Math.min(w - 1, x + r + 1)] - src[y * w + Math.max(0, x - r)];
    }
  }
  for (let x = 0; x < w; x++) {
    let acc = 0;
    for (let y = -r; y <= r; y++) acc += tmp[clamp(y, 0, h - 1) * w + x];
    for (let y = 0; y < h; y++) {
      out[y * w + x] = acc / n;
      acc += tmp[Math.min(h - 1, y + r + 1) * w + x] - tmp[Math.max(0, y - r) * w + x];
    }
  }
  return out;
}

function applyMask(f: Frame, m: Float32Array, mw: number, mh: number, S: number, fn: (v: number) => number): void {
  const rgb = f.rgb;
  const X0 = new Int32Array(f.w), FX = new Float64Array(f.w);
  for (let x = 0; x < f.w; x++) {
    const mx = Math.min(mw - 1.001, Math.max(0, (x + 0.5) / S - 0.5));
    X0[x] = Math.floor(mx);
    FX[x] = mx - X0[x];
  }
  // rows of the mask that contain any shadow
  const rowAny = new Uint8Array(mh);
  for (let y = 0; y < mh; y++) {
    for (let x = 0; x < mw; x++) if (m[y * mw + x] >= 0.002) { rowAny[y] = 1; break; }
  }
  for (let y = 0; y < f.h; y++) {
    const my = Math.min(mh - 1.001, Math.max(0, (y + 0.5) / S - 0.5));
    const y0 = Math.floor(my), fy = my - y0;
    if (!rowAny[y0] && !rowAny[Math.min(mh - 1, y0 + 1)]) continue;
    for (let x = 0; x < f.w; x++) {
      const x0 = X0[x], fx = FX[x];
      const i = y0 * mw + x0;
      const v = (m[i] * (1 - fx) + m[i + 1] * fx) * (1 - fy) + (m[i + mw] * (1 - fx) + m[i + mw + 1] * fx) * fy;
      if (v < 0.002) continue;
      const k = fn(v);
      const o = (y * f.w + x) * 3;
      rgb[o] *= k; rgb[o + 1] *= k; rgb[o + 2] *= k;
    }
  }
}

const NOISE = (() => {
  const n = new Float32Array(1 << 16);
  let x = 0x9e3779b9 | 0;
  for (let i = 0; i < n.length; i++) {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    const a = ((x >>> 0) & 0xffff) / 65536;
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    const b = ((x >>> 0) & 0xffff) / 65536;
    n[i] = (a + b - 1) * 1.7;
  }
  return n;
})();

/**
 * Lighting gradient, vignette, colour temperature, glare spots and sensor noise;
 * returns the 8-bit RGB buffer.
 */
export function photoEffects(r: Rng, f: Frame, opts: { glare: number; holdout: boolean }): Buffer {
  const { w, h, rgb } = f;
  const ang = uni(r, 0, Math.PI * 2);
  const gAmp = uni(r, 0, 0.45);
  const gx = (Math.cos(ang) / w) * gAmp, gy = (Math.sin(ang) / h) * gAmp;
  const expo = r();
  const bright = expo < 0.1 ? uni(r, 0.45, 0.75) : expo < 0.15 ? uni(r, 1.15, 1.4) : uni(r, 0.78, 1.15);
  // large soft cast shadow (photographer's hand / phone) over part of the scene
  const shadowOn = r() < 0.2;
  const sa = uni(r, 0, Math.PI * 2);
  const snx = Math.cos(sa), sny = Math.sin(sa);
  const sc0 = uni(r, -0.3, 0.3) * Math.hypot(w, h);
  const soft = 1 / (uni(r, 0.02, 0.15) * Math.hypot(w, h));
  const sk = uni(r, 0.25, 0.5);
  const vig = uni(r, 0, 0.45);
  const temp = r() < 0.2 ? uni(r, -1.6, 1.8) : uni(r, -1, 1);
  const tint = uni(r, -0.04, 0.04);
  const g0 = bright * (1 + 0.12 * temp), g1 = bright * (1 + tint), g2 = bright * (1 - 0.14 * temp);
  const noiseAmp = uni(r, 0, 9) * (expo < 0.1 ? 1.8 : 1);
  const chromaAmp = noiseAmp * uni(r, 0, 0.4);
  // glare spots (added in their own bounding boxes)
  const ns = r() < opts.glare ? 1 + Math.floor(r() * 4) : 0;
  for (let i = 0; i < ns; i++) {
    const sx = r() * w, sy = r() * h, sr = uni(r, 0.01, 0.12) * w, sa = uni(r, 60, 230);
    const ext = sr * 2;
    for (let y = Math.max(0, Math.floor(sy - ext)); y < Math.min(h, sy + ext); y++) {
      for (let x = Math.max(0, Math.floor(sx - ext)); x < Math.min(w, sx + ext); x++) {
        const dx = x - sx, dy = y - sy;
        const q = (dx * dx + dy * dy) / (sr * sr);
        if (q >= 4) continue;
        const i2 = y * w + x;
        const add = sa * Math.exp(-q * 2) * (f.faceMask[i2] ? 1 : 0.25);
        const o = i2 * 3;
        rgb[o] += add; rgb[o + 1] += add; rgb[o + 2] += add;
      }
    }
  }
  const out = Buffer.allocUnsafe(w * h * 3);
  const cx = w / 2, cy = h / 2, id2 = 1 / (cx * cx + cy * cy);
  let ni = Math.floor(r() * 65536);
  const nstep = 1 + 2 * Math.floor(r() * 1000);
  for (let y = 0; y < h; y++) {
    const dy = y - cy;
    ni = (Math.imul(ni, 1103515245) + 12345 + y) & 0xffff;
    for (let x = 0; x < w; x++) {
      const dx = x - cx;
      let l = (1 + dx * gx + dy * gy) * (1 - vig * (dx * dx + dy * dy) * id2);
      if (shadowOn) {
        const t = (dx * snx + dy * sny - sc0) * soft + 0.5;
        l *= 1 - sk * (t < 0 ? 0 : t > 1 ? 1 : t);
      }
      ni = (ni + nstep) & 0xffff;
      const n = NOISE[ni] * noiseAmp;
      const nc = NOISE[(ni * 7 + 11) & 0xffff] * chromaAmp;
      const o = (y * w + x) * 3;
      let v = rgb[o] * l * g0 + n + nc;
      out[o] = v < 0 ? 0 : v > 255 ? 255 : v;
      v = rgb[o + 1] * l * g1 + n;
      out[o + 1] = v < 0 ? 0 : v > 255 ? 255 : v;
      v = rgb[o + 2] * l * g2 + n - nc;
      out[o + 2] = v < 0 ? 0 : v > 255 ? 255 : v;
    }
  }
  return out;
}
