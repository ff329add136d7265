/**
 * Node decoding with sharp: EXIF auto-rotation, early downscale (JPEG
 * shrink-on-load; libvips streams, so memory stays bounded even for huge
 * photos), alpha flattened onto white.
 *
 * Colour: an RGB photo without a profile or with an sRGB profile (most Android phones) is read as
 * it is, with no colour transform. Another embedded profile (an iPhone's Display P3) is applied
 * after the shrink, on the 1024-px raster: libvips would apply it to the photo as loaded (2000 px
 * for a 12-MP photo), which costs about 50 ms more.
 */
import sharp from 'sharp';
import { parse as parseIcc } from 'icc';
import { inspectImage, isHuge } from './sniff.ts';
import { clampRegion } from './preprocess.ts';
import { orientedSize } from './orient.ts';
import { VisionError, MAX_PIXELS, type Box, type DecodedPhoto, type RasterImage } from './types.ts';

/** Long side of the decoded raster used for detection and crops: the training scenes are
 * 1024 px, so tiles in the crops have the resolution the classifier was trained on. */
export const DECODE_MAX_SIDE = 1024;

export async function decodeNode(bytes: Uint8Array, maxSide = DECODE_MAX_SIDE): Promise<DecodedPhoto> {
  const info = inspectImage(bytes);
  const notes: string[] = [];
  const opts = { limitInputPixels: MAX_PIXELS, failOn: 'error' as const, sequentialRead: true };
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
  try {
    meta = await sharp(bytes, opts).metadata();
  } catch (e) {
    throw mapSharpError(e);
  }
  if (!meta.width || !meta.height) throw new VisionError('decode-failed', 'the image has no dimensions');
  const { width: ow, height: oh } = orientedSize(meta.width, meta.height, meta.orientation ?? 1);
  if (isHuge({ ...info, width: meta.width, height: meta.height })) {
    notes.push(`photo is ${((ow * oh) / 1e6).toFixed(0)} MP (> 100 MP): downscaled while decoding`);
  }
  if (meta.hasAlpha) notes.push('transparent pixels were flattened onto white');
  const colour = colourOf(meta);
  try {
    let p = sharp(bytes, { ...opts, ignoreIcc: colour !== 'convert' }).rotate();
    if (meta.hasAlpha) p = p.flatten({ background: '#ffffff' });
    p = p.resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true, fastShrinkOnLoad: true }).removeAlpha();
    if (colour === 'after') {
      // the shrunk raster, uncompressed, with the photo's profile; then its colours made sRGB
      p = sharp(await p.keepIccProfile().png({ compressionLevel: 0 }).toBuffer(), { failOn: 'error' });
    }
    const { data, info: out } = await p.toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    return {
      image: { width: out.width, height: out.height, channels: 3, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) },
      originalWidth: ow,
      originalHeight: oh,
      notes,
      detail: (region, side) => decodeRegion(bytes, meta.hasAlpha ?? false, colour === 'as-is', region, ow, oh, side),
    };
  } catch (e) {
    throw mapSharpError(e);
  }
}

/** A region of the EXIF-rotated photo at up to `maxSide` px on its long side, from the full-resolution
 * photo (DecodedPhoto.detail). */
async function decodeRegion(bytes: Uint8Array, hasAlpha: boolean, ignoreIcc: boolean, region: Box, ow: number, oh: number, maxSide: number): Promise<RasterImage> {
  const [left, top, width, height] = clampRegion(region, ow, oh);
  const side = Math.max(1, Math.round(maxSide));
  try {
    let p = sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error', sequentialRead: true, ignoreIcc }).rotate();
    if (hasAlpha) p = p.flatten({ background: '#ffffff' });
    const { data, info } = await p
      .extract({ left, top, width, height })
      .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, channels: 3, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  } catch (e) {
    throw mapSharpError(e);
  }
}

/**
 * How a photo's colours become sRGB: `as-is` (RGB with no profile or an sRGB one: no transform),
 * `after` (RGB with another profile: applied to the shrunk raster) or `convert` (grey, CMYK and
 * the rest: libvips converts while loading).
 */
export function colourOf(meta: { space?: string; icc?: Uint8Array }): 'as-is' | 'after' | 'convert' {
  if (meta.space !== 'srgb' && meta.space !== 'rgb') return 'convert';
  if (!meta.icc || isSrgbProfile(meta.icc)) return 'as-is';
  return 'after';
}

/** The description of an ICC profile (the `icc` library reads its `desc` tag), or undefined when
 * the profile cannot be read. */
export function iccDescription(profile: Uint8Array): string | undefined {
  try {
    return parseIcc(Buffer.from(profile.buffer, profile.byteOffset, profile.byteLength)).description;
  } catch {
    return undefined;
  }
}

/** Whether an ICC profile is (by its description) an sRGB profile, so that its pixels need no
 * conversion to sRGB. */
export function isSrgbProfile(profile: Uint8Array): boolean {
  return /\bsRGB\b/i.test(iccDescription(profile) ?? '');
}

function mapSharpError(e: unknown): VisionError {
  if (e instanceof VisionError) return e;
  const msg = (e as Error)?.message ?? String(e);
  if (/unsupported image format/i.test(msg)) return new VisionError('not-an-image', 'the file is not a supported image');
  if (/premature end|truncated|unexpected end|short read|not enough data|incomplete/i.test(msg)) {
    return new VisionError('truncated', `the image file is truncated (${msg.split('\n')[0]})`);
  }
  if (/pixel limit/i.test(msg)) return new VisionError('too-large', `the photo is too large (${msg.split('\n')[0]})`);
  return new VisionError('decode-failed', `could not decode the image: ${msg.split('\n')[0]}`);
}
