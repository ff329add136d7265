/**
 * Camera conditions for `eval:vision -- --camera KIND`: each evaluation photo is changed as a
 * phone or a room would change it before the pipeline reads it, so that the held-out sets also
 * measure how the models stand up to what the generator does not draw (stop 42). The labels stay
 * valid: every change keeps the photo's size and geometry.
 *
 * Deterministic: the noise of photo `index` comes from a generator seeded with it.
 */
import sharp, { type Sharp } from 'sharp';
import { mulberry32 } from '../synth/rng.ts';

export const CAMERA_KINDS = ['warm', 'cool', 'vivid', 'sharpen', 'sharpen-mild', 'phone', 'jpeg', 'vignette', 'dark', 'noise', 'dim'] as const;
export type CameraKind = (typeof CAMERA_KINDS)[number];

/** What each kind does, for the listing and the model card. */
export const CAMERA_NOTES: Record<CameraKind, string> = {
  warm: 'tungsten light left by the white balance: red x1.10, green x0.98, blue x0.72',
  cool: 'a blue cast: red x0.82, green x0.97, blue x1.12',
  vivid: 'a phone\'s vivid look: saturation x1.45, contrast x1.3 (highlights clip)',
  sharpen: 'strong sharpening at the working scale: unsharp mask sigma 1.4, gain 4 (flat areas 1.5)',
  'sharpen-mild': 'mild sharpening at the working scale: unsharp mask sigma 1.0, gain 2',
  phone: 'sharpening at a 12 MP sensor\'s scale: enlarged 3x, unsharp mask sigma 1.2, gain 3, shrunk back',
  jpeg: 'JPEG quality 35',
  vignette: 'corners darkened to a third',
  dark: 'half the exposure',
  noise: 'Gaussian sensor noise, sigma 7 levels',
  dim: 'half the exposure, noise sigma 7 and a 3x3 median (a phone\'s noise reduction)',
};

export function isCameraKind(s: string): s is CameraKind {
  return (CAMERA_KINDS as readonly string[]).includes(s);
}

/** Gaussian samples (Box-Muller) from the generator's seeded PRNG. */
function gaussian(seed: number): () => number {
  const uniform = mulberry32(seed);
  return () => Math.sqrt(-2 * Math.log(uniform() || 1e-12)) * Math.cos(2 * Math.PI * uniform());
}

async function addNoise(img: Sharp, sigma: number, seed: number): Promise<Sharp> {
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  const g = gaussian(seed);
  for (let i = 0; i < data.length; i++) data[i] = Math.max(0, Math.min(255, Math.round(data[i]! + g() * sigma)));
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
}

/** The photo's bytes as the camera condition leaves them (a JPEG at quality 90, or 35 for `jpeg`). */
export async function applyCamera(bytes: Uint8Array, kind: CameraKind, index: number): Promise<Uint8Array> {
  const { data, info } = await sharp(bytes).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const W = info.width, H = info.height;
  let p = sharp(data, { raw: { width: W, height: H, channels: info.channels } });
  switch (kind) {
    case 'warm': p = p.linear([1.1, 0.98, 0.72], [0, 0, 0]); break;
    case 'cool': p = p.linear([0.82, 0.97, 1.12], [0, 0, 0]); break;
    case 'vivid': p = p.modulate({ saturation: 1.45 }).linear(1.3, -0.15 * 255); break;
    case 'sharpen': p = p.sharpen({ sigma: 1.4, m1: 1.5, m2: 4 }); break;
    case 'sharpen-mild': p = p.sharpen({ sigma: 1.0, m1: 1, m2: 2 }); break;
    case 'phone': {
      const big = await p.resize(W * 3, H * 3, { kernel: 'lanczos3' }).sharpen({ sigma: 1.2, m1: 1, m2: 3 }).raw().toBuffer();
      p = sharp(big, { raw: { width: W * 3, height: H * 3, channels: 3 } }).resize(W, H, { kernel: 'mitchell' });
      break;
    }
    case 'jpeg': return new Uint8Array(await p.jpeg({ quality: 35 }).toBuffer());
    case 'vignette': {
      const svg = `<svg width="${W}" height="${H}"><defs><radialGradient id="g" cx="50%" cy="50%" r="70%"><stop offset="40%" stop-color="#fff"/><stop offset="100%" stop-color="#555"/></radialGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`;
      p = p.composite([{ input: Buffer.from(svg), blend: 'multiply' }]);
      break;
    }
    case 'dark': p = p.linear(0.5, 0); break;
    case 'noise': p = await addNoise(p, 7, index + 1); break;
    case 'dim': p = (await addNoise(p.linear(0.5, 0), 7, index + 1)).median(3); break;
  }
  return new Uint8Array(await p.jpeg({ quality: 90 }).toBuffer());
}
