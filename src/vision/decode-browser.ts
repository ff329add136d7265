/**
 * Browser/Worker decoding: createImageBitmap honours EXIF orientation
 * (imageOrientation: 'from-image') and downscales early (resizeWidth/Height);
 * OffscreenCanvas gives the pixels. Alpha is flattened onto white.
 *
 * A JPEG is first offered to WebCodecs' ImageDecoder with a desired size (decodeJpegScaled), where the
 * browser has one: Chromium then decodes at a fraction of the resolution (libjpeg's scaled
 * transform). createImageBitmap decodes the whole photo before it resizes: in headless Chromium a
 * 12 MP photo to 1024 px took about 160 ms that way and 70-90 ms this one.
 */
import { inspectImage, isHuge } from './sniff.ts';
import { clampRegion } from './preprocess.ts';
import { orientedSize, readExifOrientation } from './orient.ts';
import { VisionError, type Box, type DecodedPhoto, type RasterImage } from './types.ts';

export const BROWSER_DECODE_MAX_SIDE = 1024;

export async function decodeBrowser(bytes: Uint8Array, maxSide = BROWSER_DECODE_MAX_SIDE): Promise<DecodedPhoto> {
  const info = inspectImage(bytes);
  const notes: string[] = [];
  if (isHuge(info)) notes.push('photo is over 100 MP: downscaled while decoding');
  if (info.hasAlpha) notes.push('transparent pixels were flattened onto white');
  const blob = new Blob([bytes as BlobPart]);
  let ow: number, oh: number;
  const o = info.format === 'jpeg' ? readExifOrientation(bytes) : 1;
  if (info.width && info.height) {
    ({ width: ow, height: oh } = orientedSize(info.width, info.height, o));
  } else {
    let probe: ImageBitmap;
    try {
      probe = await createImageBitmap(blob, { imageOrientation: 'from-image' });
    } catch {
      throw new VisionError('decode-failed', 'the browser could not decode this image');
    }
    ow = probe.width; oh = probe.height;
    probe.close();
  }
  const s = Math.min(1, maxSide / Math.max(ow, oh));
  const w = Math.max(1, Math.round(ow * s)), h = Math.max(1, Math.round(oh * s));
  const stored = info.format === 'jpeg' && info.width && info.height ? { width: info.width, height: info.height, orientation: o } : null;
  const detail = (region: Box, side: number) => decodeRegion(blob, bytes, stored, region, ow, oh, side);
  const fast = stored ? await decodeJpegScaled(bytes, stored.width, stored.height, o, [0, 0, ow, oh], w, h) : null;
  if (fast) return { image: { width: w, height: h, channels: 4, data: fast }, originalWidth: ow, originalHeight: oh, notes, detail };
  let bmp: ImageBitmap;
  try {
    bmp = await createImageBitmap(blob, { imageOrientation: 'from-image', resizeWidth: w, resizeHeight: h, resizeQuality: 'medium' });
  } catch {
    throw new VisionError('decode-failed', 'the browser could not decode this image');
  }
  const canvas = new OffscreenCanvas(w, h);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new VisionError('decode-failed', 'no 2D canvas context');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, w, h);
  ctx.drawImage(bmp, 0, 0);
  bmp.close();
  const data = ctx.getImageData(0, 0, w, h);
  return { image: { width: w, height: h, channels: 4, data: data.data }, originalWidth: ow, originalHeight: oh, notes, detail };
}

/** What decodeJpegScaled needs of WebCodecs' ImageDecoder (not in every browser, nor in TypeScript's worker lib). */
interface ScaledDecoder {
  decode(): Promise<{ image: VideoFrame & { rotation?: number; flip?: boolean } }>;
  close(): void;
}
type ScaledDecoderClass = {
  new (init: { type: string; data: Uint8Array; desiredWidth: number; desiredHeight: number }): ScaledDecoder;
  isTypeSupported(type: string): Promise<boolean>;
};

/**
 * A part of a JPEG, as RGBA pixels at w x h: `region` [x, y, width, height] in the pixels of the
 * EXIF-rotated photo (the whole photo for the raster scans start from; the zoom pass's region for
 * DecodedPhoto.detail), decoded at reduced resolution by ImageDecoder and drawn to size by the
 * canvas. The JPEG's transform scales by n/8; Chromium takes the largest scale no larger than the
 * desired size, so the desired size is the stored size (cw x ch) at the smallest n/8 that gives the
 * region at least w x h (jpegScale). Null when no scale below 1 would do, and where the result
 * cannot be trusted, for the caller's createImageBitmap path (which also reports a broken file): no
 * ImageDecoder, a decode error, or a rotated photo whose frame does not say it is rotated (engines
 * before VideoFrame.rotation ignore EXIF orientation here) or comes out at the wrong shape.
 */
export async function decodeJpegScaled(bytes: Uint8Array, cw: number, ch: number, orientation: number, region: readonly [number, number, number, number], w: number, h: number): Promise<Uint8ClampedArray | null> {
  const Decoder = (globalThis as { ImageDecoder?: ScaledDecoderClass }).ImageDecoder;
  // orientations 5-8 store the photo on its side
  const side = orientation >= 5 && orientation <= 8;
  const ow = side ? ch : cw, oh = side ? cw : ch;
  const [x, y, rw, rh] = region;
  // the whole photo at the scale that gives the region w x h
  const f = Math.max(w / rw, h / rh);
  const n = jpegScale(cw, ch, Math.ceil((side ? oh : ow) * f), Math.ceil((side ? ow : oh) * f));
  if (!Decoder || typeof OffscreenCanvas === 'undefined' || n >= 8) return null;
  let dec: ScaledDecoder | null = null;
  let frame: (VideoFrame & { rotation?: number; flip?: boolean }) | null = null;
  try {
    if (!(await Decoder.isTypeSupported('image/jpeg'))) return null;
    dec = new Decoder({ type: 'image/jpeg', data: bytes, desiredWidth: Math.ceil((cw * n) / 8), desiredHeight: Math.ceil((ch * n) / 8) });
    frame = (await dec.decode()).image;
    if (orientation !== 1 && typeof frame.rotation !== 'number') return null;
    const dw = frame.displayWidth, dh = frame.displayHeight;
    if (Math.abs(dw / dh - ow / oh) > 0.02 * (ow / oh) || dw < Math.floor(ow * f) || dh < Math.floor(oh * f)) return null;
    const canvas = new OffscreenCanvas(w, h);
    const ctx = canvas.getContext('2d');
    if (!ctx) return null;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, w, h);
    ctx.imageSmoothingQuality = 'medium';
    // the region in the decoded frame's pixels
    const kx = dw / ow, ky = dh / oh;
    ctx.drawImage(frame, x * kx, y * ky, rw * kx, rh * ky, 0, 0, w, h);
    return ctx.getImageData(0, 0, w, h).data;
  } catch {
    return null;
  } finally {
    frame?.close();
    dec?.close();
  }
}

/** The smallest n (1-8) for which the JPEG's n/8 scale of cw x ch is at least tw x th (all stored, not rotated). */
export function jpegScale(cw: number, ch: number, tw: number, th: number): number {
  return Math.min(8, Math.max(1, Math.ceil((8 * tw) / cw), Math.ceil((8 * th) / ch)));
}

/** A region of the EXIF-rotated photo at up to `maxSide` px on its long side, from the full-resolution
 * photo (DecodedPhoto.detail): a JPEG decoded at the n/8 scale the region needs (decodeJpegScaled),
 * else the whole photo decoded oriented, and the region drawn from it. */
async function decodeRegion(blob: Blob, bytes: Uint8Array, stored: { width: number; height: number; orientation: number } | null, region: Box, ow: number, oh: number, maxSide: number): Promise<RasterImage> {
  const [x, y, rw, rh] = clampRegion(region, ow, oh);
  const s = Math.min(1, maxSide / Math.max(rw, rh));
  const w = Math.max(1, Math.round(rw * s)), h = Math.max(1, Math.round(rh * s));
  const fast = stored ? await decodeJpegScaled(bytes, stored.width, stored.height, stored.orientation, [x, y, rw, rh], w, h) : null;
  if (fast) return { width: w, height: h, channels: 4, data: fast };
  let bmp: ImageBitmap;
  try {
    bmp = await createImageBitmap(blob, { imageOrientation: 'from-image' });
  } catch {
    throw new VisionError('decode-failed', 'the browser could not decode this image again at full resolution');
  }
  try {
    const canvas = new OffscreenCanvas(w, h);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new VisionError('decode-failed', 'no 2D canvas context');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, w, h);
    ctx.imageSmoothingQuality = 'high';
    // the bitmap may come out at other dimensions than the sniffed ones: scale the region to it
    const kx = bmp.width / ow, ky = bmp.height / oh;
    ctx.drawImage(bmp, x * kx, y * ky, rw * kx, rh * ky, 0, 0, w, h);
    return { width: w, height: h, channels: 4, data: ctx.getImageData(0, 0, w, h).data };
  } finally {
    bmp.close();
  }
}
