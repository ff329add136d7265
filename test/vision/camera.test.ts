import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { applyCamera, CAMERA_KINDS, CAMERA_NOTES, type CameraKind } from '../../scripts/eval/camera.ts';

/** A 96x64 test card: a grey table with a light tile face and dark strokes on it. */
async function card(): Promise<Uint8Array> {
  const svg = `<svg width="96" height="64"><rect width="96" height="64" fill="#3a6a4a"/>
    <rect x="30" y="10" width="36" height="46" rx="4" fill="#f2efe6"/>
    <rect x="40" y="18" width="4" height="30" fill="#202020"/><rect x="52" y="18" width="4" height="30" fill="#b02020"/></svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).jpeg({ quality: 95 }).toBuffer());
}

async function pixels(bytes: Uint8Array): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

const mean = (b: Buffer, ch: number): number => {
  let s = 0;
  for (let i = ch; i < b.length; i += 3) s += b[i]!;
  return s / (b.length / 3);
};

describe('eval:vision camera conditions', () => {
  it('keep the photo size, are deterministic and change the pixels', async () => {
    const src = await card();
    const before = await pixels(src);
    for (const kind of CAMERA_KINDS) {
      expect(CAMERA_NOTES[kind].length).toBeGreaterThan(5);
      const a = await applyCamera(src, kind, 7);
      const b = await applyCamera(src, kind, 7);
      expect(Buffer.from(a).equals(Buffer.from(b)), kind).toBe(true);
      const after = await pixels(a);
      expect([after.width, after.height], kind).toEqual([before.width, before.height]);
      let diff = 0;
      for (let i = 0; i < after.data.length; i++) diff += Math.abs(after.data[i]! - before.data[i]!);
      expect(diff / after.data.length, kind).toBeGreaterThan(0.5);
    }
  });

  it('do what their names say', async () => {
    const src = await card();
    const base = (await pixels(src)).data;
    const of = async (k: CameraKind) => (await pixels(await applyCamera(src, k, 1))).data;
    const warm = await of('warm');
    expect(mean(warm, 2) / mean(base, 2)).toBeLessThan(0.8);
    expect(mean(warm, 0) / mean(base, 0)).toBeGreaterThan(1.03);
    const dark = await of('dark');
    expect(mean(dark, 1) / mean(base, 1)).toBeCloseTo(0.5, 1);
    // sharpening: the face beside a dark stroke gets lighter than it was (a halo)
    const sharp2 = await of('sharpen');
    const at = (b: Buffer, x: number, y: number) => b[(y * 96 + x) * 3 + 1]!;
    expect(at(sharp2, 38, 32)).toBeGreaterThan(at(base, 38, 32));
    // different photos get different noise
    const n1 = await applyCamera(src, 'noise', 1), n2 = await applyCamera(src, 'noise', 2);
    expect(Buffer.from(n1).equals(Buffer.from(n2))).toBe(false);
  });
});
