/**
 * Which face design each scene of a generated set shows (scene.ts glyphSetDesign: the seeded draws
 * only, nothing rendered), and with `--reads`, how the pipeline read the flowers and seasons of
 * each design (the file `eval:vision -- --reads FILE` writes for the same set).
 *
 *   npx tsx scripts/synth/designs.ts --data training-data/val-holdout [--reads FILE] [--json]
 *
 * Without `--reads`, one JSON line per scene: the design's source (drawn faces, an artwork family,
 * or the swapped Symbola pictures) and, for drawn flowers, their fonts, layout, numerals and
 * stroke. With it, a table of flowers read and misread by design (`--json`: one JSON line per
 * design). Held-out flowers differ by design far more than by anything else, so this says which
 * designs the readers fail on.
 *
 * The designs are this generator's draws for the set's seed and options. A set made by an older
 * version lists right only where that version drew the same (the held-out sets' draws have not
 * changed with the options added since; stderr says when the versions differ).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATOR_VERSION, SCENES_PER_GLYPHSET, glyphSetDesign, type GenOptions, type GlyphSetDesign } from './scene.ts';

export interface SceneDesign {
  scene: string;
  source: GlyphSetDesign['source'];
  /** The drawn faces' style, for the faces an artwork family does not replace (its flowers when it has none). */
  numFont: string;
  charFont: string;
  flowerLayout: string;
  flowerNum: string;
  flowerNumBox: string;
  textStroke: number;
}

/** The design of every scene of a scene set, from its manifest's seed and options. */
export function setDesigns(dir: string): SceneDesign[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { mode: string; seed: number; items: number; version?: string; options: Partial<GenOptions> };
  if (manifest.mode !== 'scenes') throw new Error(`${dir}: not a scene set (mode ${manifest.mode})`);
  if (manifest.version && manifest.version !== GENERATOR_VERSION) console.error(`${dir}: made by generator ${manifest.version}; these are ${GENERATOR_VERSION}'s draws for its seed and options`);
  const opts = { tileSize: 128, artRoot: '', ...manifest.options, seed: manifest.seed } as GenOptions;
  const byGroup = new Map<number, GlyphSetDesign>();
  const out: SceneDesign[] = [];
  for (let i = 0; i < manifest.items; i++) {
    const g = Math.floor(i / SCENES_PER_GLYPHSET);
    const d = byGroup.get(g) ?? glyphSetDesign(opts, `s${g}`);
    byGroup.set(g, d);
    const st = d.style;
    out.push({ scene: `${String(i).padStart(6, '0')}.jpg`, source: d.source, numFont: st.numFont, charFont: st.charFont, flowerLayout: st.flowerLayout, flowerNum: st.flowerNum, flowerNumBox: st.flowerNumBox, textStroke: st.textStroke });
  }
  return out;
}

/** The design's name in the table: the artwork family, or the drawn flowers' layout, numerals and font. */
export function designName(d: SceneDesign): string {
  const drawnFlowers = d.source === 'drawn' || d.source === 'fluffy-black' || d.source === 'fluffy-regular';
  return drawnFlowers ? `${d.source}, ${d.flowerLayout}, ${d.flowerNum}, ${d.numFont}` : d.source;
}

interface ReadTile { truth: string; read: string }

/** Flowers and seasons read and misread per design, from `eval:vision --reads` lines. */
export function flowersByDesign(designs: readonly SceneDesign[], readsLines: readonly string[]): { design: string; flowers: number; misread: number; asFlower: number }[] {
  const byScene = new Map(designs.map((d) => [d.scene, d]));
  const rows = new Map<string, { flowers: number; misread: number; asFlower: number }>();
  for (const line of readsLines) {
    if (!line.trim()) continue;
    const { scene, tiles } = JSON.parse(line) as { scene: string; tiles: ReadTile[] };
    const d = byScene.get(scene);
    if (!d) throw new Error(`--reads: scene ${scene} is not in the set`);
    const row = rows.get(designName(d)) ?? { flowers: 0, misread: 0, asFlower: 0 };
    rows.set(designName(d), row);
    for (const t of tiles) {
      if (t.truth[0] !== 'f') continue;
      row.flowers++;
      if (t.read !== t.truth) {
        row.misread++;
        if (t.read[0] === 'f') row.asFlower++;
      }
    }
  }
  return [...rows].map(([design, r]) => ({ design, ...r })).sort((a, b) => b.misread - a.misread || a.design.localeCompare(b.design));
}

function main(): void {
  const args = process.argv.slice(2);
  const arg = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
  const dir = arg('--data');
  if (!dir) throw new Error('usage: designs.ts --data DIR [--reads FILE] [--json]');
  const designs = setDesigns(dir);
  const reads = arg('--reads');
  if (!reads) {
    for (const d of designs) console.log(JSON.stringify(d));
    return;
  }
  const table = flowersByDesign(designs, readFileSync(reads, 'utf8').split('\n'));
  if (args.includes('--json')) {
    for (const row of table) console.log(JSON.stringify(row));
    return;
  }
  console.log('design | flowers | misread | as another flower');
  for (const r of table) console.log(`${r.design} | ${r.flowers} | ${r.misread} (${((100 * r.misread) / Math.max(1, r.flowers)).toFixed(1)} %) | ${r.asFlower}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
