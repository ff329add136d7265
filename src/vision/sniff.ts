/** Pure header sniffing: format, dimensions, completeness. No decoding. */
import { HUGE_PIXELS, MAX_PIXELS, VisionError } from './types.ts';

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'bmp' | 'heif' | 'avif' | 'tiff';

export interface ImageInfo {
  format: ImageFormat;
  /** Header dimensions before EXIF rotation, when the header was parsed. */
  width?: number;
  height?: number;
  hasAlpha?: boolean;
}

function ascii(b: Uint8Array, at: number, len: number): string {
  let s = '';
  for (let i = at; i < at + len && i < b.length; i++) s += String.fromCharCode(b[i]);
  return s;
}

export function sniffFormat(b: Uint8Array): ImageFormat | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 8 && b[0] === 0x89 && ascii(b, 1, 3) === 'PNG') return 'png';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return 'webp';
  if (b.length >= 6 && ascii(b, 0, 4) === 'GIF8') return 'gif';
  if (b.length >= 2 && ascii(b, 0, 2) === 'BM') return 'bmp';
  if (b.length >= 4 && ((b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a) || (b[0] === 0x4d && b[1] === 0x4d && b[3] === 0x2a))) return 'tiff';
  if (b.length >= 12 && ascii(b, 4, 4) === 'ftyp') {
    const brand = ascii(b, 8, 4);
    if (brand.startsWith('avi')) return 'avif';
    if (['heic', 'heix', 'mif1', 'msf1', 'heim', 'heis', 'hevc'].includes(brand)) return 'heif';
  }
  return null;
}

function jpegSize(b: Uint8Array): { width: number; height: number } | undefined {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) { i++; continue; }
    const m = b[i + 1];
    if (m === 0xff) { i++; continue; }
    if (m === 0xd8 || (m >= 0xd0 && m <= 0xd7) || m === 0x01) { i += 2; continue; }
    const len = (b[i + 2] << 8) | b[i + 3];
    if ((m >= 0xc0 && m <= 0xcf) && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) {
      return { height: (b[i + 5] << 8) | b[i + 6], width: (b[i + 7] << 8) | b[i + 8] };
    }
    i += 2 + len;
  }
  return undefined;
}

/**
 * Identify an image from its bytes and check it is plausibly complete.
 * Throws VisionError for 0-byte files, non-images, truncated JPEG/PNG files and
 * photos above MAX_PIXELS.
 */
export function inspectImage(b: Uint8Array): ImageInfo {
  if (b.length === 0) throw new VisionError('empty-file', 'the file is empty (0 bytes)');
  const format = sniffFormat(b);
  if (!format) throw new VisionError('not-an-image', 'the file is not an image (unknown signature)');
  const info: ImageInfo = { format };
  if (format === 'jpeg') {
    const s = jpegSize(b);
    if (s) Object.assign(info, s);
    // A complete JPEG ends with EOI (FF D9), possibly followed by a little padding.
    let end = b.length - 1;
    while (end > 0 && b.length - end < 64 && b[end] !== 0xd9) end--;
    if (!(b[end] === 0xd9 && b[end - 1] === 0xff) || !s) {
      throw new VisionError('truncated', 'the JPEG file is truncated (no end-of-image marker)');
    }
  } else if (format === 'png') {
    if (b.length < 33 || ascii(b, 12, 4) !== 'IHDR') throw new VisionError('truncated', 'the PNG file is truncated');
    const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    info.width = dv.getUint32(16);
    info.height = dv.getUint32(20);
    const colorType = b[25];
    info.hasAlpha = colorType === 4 || colorType === 6;
    if (ascii(b, b.length - 8, 4) !== 'IEND') throw new VisionError('truncated', 'the PNG file is truncated (no IEND chunk)');
  }
  if (info.width !== undefined && info.height !== undefined) {
    const px = info.width * info.height;
    if (info.width === 0 || info.height === 0) throw new VisionError('decode-failed', 'the image has zero width or height');
    if (px > MAX_PIXELS) {
      throw new VisionError('too-large', `the photo is ${(px / 1e6).toFixed(0)} MP; photos above ${MAX_PIXELS / 1e6} MP are refused`);
    }
  }
  return info;
}

export function isHuge(info: ImageInfo): boolean {
  return info.width !== undefined && info.height !== undefined && info.width * info.height > HUGE_PIXELS;
}

