/**
 * Contact sheet for eyeballing a generated set:
 *   npx tsx scripts/synth/contact.ts <dataset-dir> <out.png> [--n 12] [--boxes] [--thumb 512]
 * Scenes: thumbnails with label boxes/codes drawn; tiles mode: a grid of crops.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';

async function main() {
  const [dir, outFile, ...rest] = process.argv.slice(2);
  const opt = (k: string, d: number) => { const i = rest.indexOf(k); return i >= 0 ? Number(rest[i + 1]) : d; };
  const n = opt('--n', 12);
  const thumb = opt('--thumb', 512);
  const boxes = rest.includes('--boxes');
  const comps: OverlayOptions[] = [];
  if (fs.existsSync(path.join(dir, 'labels.csv'))) {
    const lines = fs.readFileSync(path.join(dir, 'labels.csv'), 'utf8').trim().split('\n').slice(1).slice(0, n);
    const cols = 12, tw = 96, th = 128;
    for (let i = 0; i < lines.length; i++) {
      const [file, code] = lines[i].split(',');
      const img = await sharp(path.join(dir, file)).resize(tw, th, { fit: 'contain', background: '#000' }).png().toBuffer();
      const txt = Buffer.from(`<svg width="${tw}" height="16"><rect width="${tw}" height="16" fill="#000"/><text x="2" y="13" font-size="13" fill="#ff0" font-family="sans-serif">${code}</text></svg>`);
      comps.push({ input: img, left: (i % cols) * tw, top: Math.floor(i / cols) * (th + 16) });
      comps.push({ input: txt, left: (i % cols) * tw, top: Math.floor(i / cols) * (th + 16) + th });
    }
    const rows = Math.ceil(lines.length / cols);
    await sharp({ create: { width: cols * tw, height: rows * (th + 16), channels: 3, background: '#333' } }).composite(comps).png().toFile(outFile);
    return;
  }
  const files = fs.readdirSync(path.join(dir, 'images')).sort().slice(0, n);
  const cols = 3;
  for (let i = 0; i < files.length; i++) {
    const f = files[i];
    const lab = JSON.parse(fs.readFileSync(path.join(dir, 'labels', f.replace('.jpg', '.json')), 'utf8'));
    const s = thumb / Math.max(lab.width, lab.height);
    let img = sharp(path.join(dir, 'images', f)).resize(Math.round(lab.width * s), Math.round(lab.height * s));
    if (boxes) {
      let svg = `<svg width="${Math.round(lab.width * s)}" height="${Math.round(lab.height * s)}" xmlns="http://www.w3.org/2000/svg">`;
      for (const t of lab.tiles) {
        const [x, y, w, h] = t.box.map((v: number) => v * s);
        svg += `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="none" stroke="${t.truncated ? '#f0f' : '#0f0'}" stroke-width="1"/>`;
        svg += `<polygon points="${t.quad.map((p: number[]) => p.map((v) => v * s).join(',')).join(' ')}" fill="none" stroke="#f80" stroke-width="1"/>`;
        svg += `<circle cx="${t.quad[0][0] * s}" cy="${t.quad[0][1] * s}" r="2" fill="#f00"/>`;
        svg += `<text x="${x}" y="${y - 1}" font-size="10" fill="#ff0" font-family="sans-serif">${t.code}</text>`;
      }
      svg += '</svg>';
      img = sharp(await img.composite([{ input: Buffer.from(svg) }]).png().toBuffer());
    }
    comps.push({ input: await img.png().toBuffer(), left: (i % cols) * thumb, top: Math.floor(i / cols) * thumb });
  }
  const rows = Math.ceil(files.length / cols);
  await sharp({ create: { width: cols * thumb, height: rows * thumb, channels: 3, background: '#222' } }).composite(comps).png().toFile(outFile);
}
main().catch((e) => { console.error(e); process.exit(1); });
