/**
 * EXIF orientation: read from a JPEG's bytes, and applied to a size or to raw pixels (for decoders
 * that ignore it, and to turn a photo by quarter turns).
 */
import type { RasterImage } from './types.ts';

/** EXIF orientation (1..8) of a JPEG, 1 when absent or unreadable. */
export function readExifOrientation(b: Uint8Array): number {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return 1;
  let i = 2;
  while (i + 4 < b.length) {
    if (b[i] !== 0xff) return 1;
    const m = b[i + 1];
    const len = (b[i + 2] << 8) | b[i + 3];
    if (m === 0xda || m === 0xd9) return 1;
    if (m === 0xe1 && b[i + 4] === 0x45 && b[i + 5] === 0x78 && b[i + 6] === 0x69 && b[i + 7] === 0x66) {
      const t = i + 10; // TIFF header
      if (t + 8 > b.length) return 1;
      const le = b[t] === 0x49;
      const u16 = (o: number) => (le ? b[o] | (b[o + 1] << 8) : (b[o] << 8) | b[o + 1]);
      const u32 = (o: number) => (le ? (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16)) + b[o + 3] * 2 ** 24 : b[o] * 2 ** 24 + ((b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]));
      const ifd = t + u32(t + 4);
      if (ifd + 2 > b.length) return 1;
      const n = u16(ifd);
      for (let k = 0; k < n; k++) {
        const e = ifd + 2 + k * 12;
        if (e + 12 > b.length) return 1;
        if (u16(e) === 0x0112) {
          const v = u16(e + 8);
          return v >= 1 && v <= 8 ? v : 1;
        }
      }
      return 1;
    }
    i += 2 + len;
  }
  return 1;
}

/** Size after applying an EXIF orientation to a width x height image. */
export function orientedSize(width: number, height: number, orientation: number): { width: number; height: number } {
  return orientation >= 5 ? { width: height, height: width } : { width, height };
}

/** Apply an EXIF orientation to raw pixels (for decoders that ignore EXIF, and for a raster shrunk
 * before it is turned, which is cheaper than turning the photo as loaded). */
export function orientRaster(img: RasterImage, orientation: number): RasterImage {
  if (orientation <= 1 || orientation > 8) return img;
  const { width: W, height: H, channels: C, data } = img;
  const { width: ow, height: oh } = orientedSize(W, H, orientation);
  // the source pixel of output (x, y) is base + x * dx + y * dy (in pixels)
  const [base, dx, dy] = ({
    2: [W - 1, -1, W],
    3: [(H - 1) * W + W - 1, -1, -W],
    4: [(H - 1) * W, 1, -W],
    5: [0, W, 1],
    6: [(H - 1) * W, -W, 1],
    7: [(H - 1) * W + W - 1, -W, -1],
    8: [W - 1, W, -1],
  } as Record<number, [number, number, number]>)[orientation]!;
  const out = new Uint8Array(ow * oh * C);
  const sx = dx * C;
  let d = 0;
  for (let y = 0; y < oh; y++) {
    let s = (base + y * dy) * C;
    if (C === 3) {
      for (let x = 0; x < ow; x++, s += sx, d += 3) {
        out[d] = data[s]!;
        out[d + 1] = data[s + 1]!;
        out[d + 2] = data[s + 2]!;
      }
    } else {
      for (let x = 0; x < ow; x++, s += sx) for (let c = 0; c < C; c++) out[d++] = data[s + c]!;
    }
  }
  return { width: ow, height: oh, channels: C, data: out };
}
