/** Preview drawn face styles: OUT=/tmp/faces.png [EXTRA=1] npx tsx scripts/synth/faces-sheet.ts 1 2 3 (EXTRA=1: --extra-styles designs; DECOY=1, INK=1, BIRDS=1, ORNAMENTS=1 with it) */
import sharp from 'sharp';
import { sampleGlyphStyle, sheetSvg, TRAIN_FONTS, HOLDOUT_FONTS } from './faces.ts';
import { CLASSES } from './hand.ts';
import { rngFor } from './rng.ts';
const seeds = process.argv.slice(2).map(Number);
const outs = [];
for (const s of seeds) {
  const r = rngFor(s);
  const st = sampleGlyphStyle(r, [...TRAIN_FONTS, ...HOLDOUT_FONTS], { extra: !!process.env.EXTRA, decoy: !!process.env.DECOY, ink: !!process.env.INK, birds: !!process.env.BIRDS, ornaments: !!process.env.ORNAMENTS });
  const { svg } = sheetSvg(r, st, CLASSES, 96, 128, 0.95);
  outs.push(await sharp(Buffer.from(svg)).flatten({ background: '#f4efe0' }).png().toBuffer());
}
const h = 6 * 128;
await sharp({ create: { width: 8 * 96 * outs.length, height: h, channels: 3, background: '#888' } })
  .composite(outs.map((b, i) => ({ input: b, left: i * 8 * 96, top: 0 }))).png().toFile(process.env.OUT ?? 'faces.png');
