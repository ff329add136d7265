/**
 * Verify: each candidate made a tile (code, score, box in the photo's px, alternatives), and the
 * doubtful ones set apart: weak candidates (at the edge, beside the hand) for the hand check only;
 * detections the tile verifier sees no tile in, or lying across two surer ones; lone doubtful ones
 * far from the hand (the table's pattern); and strays, out of scale with the hand or apart from it.
 */
import { CONFIG } from '../config.ts';
import type { PipelineOptions } from '../pipeline.ts';
import { isolatedUnsure, straddles, strayDetections } from '../doubtful.ts';
import { flowerMass, round, topK } from '../postprocess.ts';
import type { Models } from '../session.ts';
import type { ScannedTile, TileCode } from '../types.ts';
import type { Found, ScanSettings } from './find.ts';
import { handSide, keptFind } from './finds.ts';
import type { Reading } from './read.ts';

/** The verify stage's output, by candidate index (Found.dets). */
export interface Verified {
  /** Each candidate as a tile, null where it is left out (so far). */
  all: (ScannedTile | null)[];
  /** The weak candidates (below minScore), for the hand check only; their tiles are in edgeTiles. */
  edgeIdx: number[];
  edgeTiles: ScannedTile[];
  /** The detections the tile verifier sees no tile in, or lying across two surer ones, with their tiles. */
  noTile: Map<number, ScannedTile>;
  /** Those of noTile lying across two surer detections (straddles). */
  straddling: Set<number>;
  /** The lone doubtful detections left out (isolatedUnsure). */
  loneTiles: ScannedTile[];
  /** The candidates still in (indices), and which of them are strays (by position in `live`). */
  live: number[];
  stray: boolean[];
}

/** The verify stage (see the module's note). */
export function verifyTiles(models: Models, opts: PipelineOptions, s: ScanSettings, cand: Found, reading: Reading): Verified {
  const { dets, toOriginal } = cand;
  const { probs, pTile } = reading;
  const { thr, minScore } = s;
  const rasterBoxes = dets.map((d) => d.box);
  const edgeIdx: number[] = [];
  // the detections the tile verifier sees no tile in, by index
  const noTile = new Map<number, ScannedTile>();
  const f0 = models.labels.indexOf('f1');
  const side = handSide(dets, thr);
  const all: (ScannedTile | null)[] = dets.map((d, i) => {
    const p = probs[i];
    const [best, ...next] = topK(p, 3);
    const box = toOriginal(rasterBoxes[i]);
    const tile: ScannedTile = {
      code: models.labels[best.index] as TileCode,
      score: round(best.score * d.score, 4),
      box: box.map((v) => round(v, 1)) as ScannedTile['box'],
    };
    const alternatives = next.filter((x) => x.score >= CONFIG.read.altMinProb).map((x) => ({ code: models.labels[x.index] as TileCode, score: round(x.score, 4) }));
    if (alternatives.length) tile.alternatives = alternatives;
    if (d.sideways) tile.sideways = true;
    // below every threshold: a weak candidate (at the edge, or beside the hand), taken only by the hand check
    if (d.score < minScore) {
      if (best.score * d.score < CONFIG.edge.rescueScore) return null;
      edgeIdx.push(i);
      return tile;
    }
    // weak peak: keep only when the classifier is sure it is a tile
    if (d.score < thr && best.score < CONFIG.detect.rescueProb) return null;
    // the finder's own find: only a tile the classifier can read (not a domino, not the cloth)
    // (one read only as some flower: when the tile verifier is sure of it, and of the hand's size)
    if (d.finder && !keptFind(p, f0, pTile[i], d.box, side, opts.flowerFinds ?? true)) return null;
    // the tile verifier sees no tile in the box: the table's pattern, a disc, half of two tiles
    // (reported as left out, so that the player can take it back)
    if ((pTile[i] ?? 1) < CONFIG.verify.drop) {
      noTile.set(i, tile);
      return null;
    }
    return tile;
  });
  const edgeTiles = edgeIdx.map((i) => all[i]!);
  for (const i of edgeIdx) all[i] = null;
  // a doubtful detection mostly over tiles found surer (a box straddling two neighbours) is a second
  // look at them: set aside as the verifier's doubted detections are (the hand check may take it back)
  const straddling = new Set<number>();
  if (opts.straddling ?? true) {
    for (let i = 0; i < all.length; i++) {
      if (!all[i] || dets[i]!.score >= CONFIG.verify.below || (f0 >= 0 && flowerMass(probs[i]!, f0) >= CONFIG.flowers.liesApart)) continue;
      const surer = all.flatMap((t, k) => (t && k !== i && dets[k]!.score > dets[i]!.score ? [rasterBoxes[k]!] : []));
      if (straddles(rasterBoxes[i]!, surer)) straddling.add(i);
    }
    for (const i of straddling) { noTile.set(i, all[i]!); all[i] = null; }
  }
  // a lone, doubtful detection far from the hand is the table's pattern, not a tile
  const found = all.flatMap((t, i) => (t ? [i] : []));
  // ...unless the detector is sure of it, or the tile verifier is: a flower laid apart in a design the
  // classifier has never seen is read doubtfully, but is a tile
  const lone = isolatedUnsure(found.map((i) => all[i]!.box), found.map((i) => all[i]!.score))
    .map((l, j) => l && !(dets[found[j]!]!.score >= CONFIG.verify.below || (pTile[found[j]!] ?? 0) >= CONFIG.verify.loneVerified));
  const loneTiles = found.filter((_, j) => lone[j]).map((i) => all[i]!);
  found.forEach((i, j) => { if (lone[j]) all[i] = null; });
  // out of scale with the hand, or apart from it, and doubtful: probably the table, not a tile
  const live = all.flatMap((t, i) => (t ? [i] : []));
  const top = live.map((i) => Math.max(...probs[i]!));
  const stray = (opts.strayFilter ?? true)
    ? strayDetections(live.map((i) => rasterBoxes[i]!), live.map((i) => dets[i]!.score), top,
      live.map((i, j) => f0 >= 0 && flowerMass(probs[i]!, f0) >= CONFIG.flowers.liesApart && (dets[i]!.score >= CONFIG.handCheck.dropBelow || top[j]! >= CONFIG.flowers.apartRead)))
    : live.map(() => false);
  return { all, edgeIdx, edgeTiles, noTile, straddling, loneTiles, live, stray };
}
