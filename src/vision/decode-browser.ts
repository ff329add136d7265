/**
 * Browser/Worker decoding: createImageBitmap honours EXIF orientation
 * (imageOrientation: 'from-image') and downscales early (resizeWidth/Height);
 * OffscreenCanvas gives the pixels. Alpha is flattened onto white.
 */
import { inspectImage, isHuge } from './sniff.ts';
import { clampRegion, orientedSize, readExifOrientation } from './preprocess.ts';
import { VisionError, type Box, type DecodedPhoto, type RasterImage } from './types.ts';

export const BROWSER_DECODE_MAX_SIDE = 1024;

export async function decodeBrowser(bytes: Uint8Array, maxSide = BROWSER_DECODE_MAX_SIDE): Promise<DecodedPhoto> {
  const info = inspectImage(bytes);
  const notes: string[] = [];
  if (isHuge(info)) notes.push('photo is over 100 MP: downscaled while decoding');
  if (info.hasAlpha) notes.push('transparent pixels were flattened onto white');
  const blob = new Blob([bytes as BlobPart]);
  let ow: number, oh: number;
  if (info.width && info.height) {
    const o = info.format === 'jpeg' ? readExifOrientation(bytes) : 1;
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
  const detail = (region: Box, side: number) => decodeRegion(blob, region, ow, oh, side);
  return { image: { width: w, height: h, channels: 4, data: data.data }, originalWidth: ow, originalHeight: oh, notes, detail };
}

/** A region of the EXIF-rotated photo at up to `maxSide` px on its long side, from the full-resolution
 * photo (DecodedPhoto.detail): the whole photo is decoded oriented, and the region drawn from it. */
async function decodeRegion(blob: Blob, region: Box, ow: number, oh: number, maxSide: number): Promise<RasterImage> {
  const [x, y, rw, rh] = clampRegion(region, ow, oh);
  const s = Math.min(1, maxSide / Math.max(rw, rh));
  const w = Math.max(1, Math.round(rw * s)), h = Math.max(1, Math.round(rh * s));
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
