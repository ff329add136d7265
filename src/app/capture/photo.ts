/** Checks on a chosen photo before anything decodes it, with player-facing messages. */
import { inspectImage } from '../../vision/sniff.ts';

/** Above this the app refuses a photo: a phone cannot safely show or decode it (100 MP = 400 MB of pixels). */
export const MAX_MEGAPIXELS = 50;

export type PhotoCheck =
  | { ok: true; width?: number; height?: number }
  | { ok: false; key: string; values?: Record<string, string | number> };

export async function checkPhoto(file: Blob, name: string): Promise<PhotoCheck> {
  if (file.size === 0) return { ok: false, key: 'err.emptyFile', values: { name } };
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch {
    return { ok: false, key: 'err.unreadable' };
  }
  try {
    const info = inspectImage(bytes);
    if (info.width && info.height) {
      const mp = (info.width * info.height) / 1e6;
      if (mp > MAX_MEGAPIXELS) return { ok: false, key: 'err.tooLarge', values: { mp: Math.round(mp), max: MAX_MEGAPIXELS } };
    }
    return { ok: true, width: info.width, height: info.height };
  } catch (e) {
    const code = (e as { code?: string }).code;
    switch (code) {
      case 'empty-file': return { ok: false, key: 'err.emptyFile', values: { name } };
      case 'not-an-image':
      case 'unsupported-format': return { ok: false, key: 'err.notImage', values: { name } };
      case 'too-large': return { ok: false, key: 'err.tooLarge', values: { mp: '> 400', max: MAX_MEGAPIXELS } };
      default: return { ok: false, key: 'err.unreadable' };
    }
  }
}

/** Size of the photo as displayed (after EXIF rotation), from the browser's own decoder. */
export function displaySize(url: string): Promise<{ width: number; height: number }> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve({ width: img.naturalWidth, height: img.naturalHeight });
    img.onerror = () => reject(new Error('decode failed'));
    img.src = url;
  });
}
