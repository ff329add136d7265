/**
 * Layout stage: the notes on what was left out and why, the left-out detections (so that the player
 * can take them back), and the kept tiles in reading order with their rows and groups (layout.ts).
 */
import { layoutTiles } from '../layout.ts';
import type { PipelineOptions } from '../pipeline.ts';
import type { ScanResult } from '../types.ts';
import type { Verified } from './verify.ts';

/** The layout stage: `result` (its notes so far) completed with the kept tiles `keptIdx` (indices
 * into `v.all`) laid out, and returned; with PipelineOptions.probs, their readings too. */
export function layoutStage(result: ScanResult, opts: PipelineOptions, v: Verified, keptIdx: number[], probs: Float32Array[]): ScanResult {
  const { all, noTile, straddling, loneTiles, live } = v;
  if (loneTiles.length) {
    const n = loneTiles.length;
    result.notes = [...(result.notes ?? []), `${n === 1 ? 'one doubtful detection' : `${n} doubtful detections`} far from the other tiles ${n === 1 ? 'was' : 'were'} left out`];
  }
  // the doubted detections the hand check did not take back
  const noTileLeft = [...noTile].flatMap(([i, t]) => (all[i] === null ? [t] : []));
  const nOver = [...straddling].filter((i) => all[i] === null).length, nNone = noTileLeft.length - nOver;
  // "one doubtful detection that shows no tile was left out"
  const leftOutNote = (n: number, what: string) => `${n === 1 ? 'one doubtful detection' : `${n} doubtful detections`} ${what} ${n === 1 ? 'was' : 'were'} left out`;
  if (nNone) result.notes = [...(result.notes ?? []), leftOutNote(nNone, `that ${nNone === 1 ? 'shows' : 'show'} no tile`)];
  if (nOver) result.notes = [...(result.notes ?? []), leftOutNote(nOver, 'lying over tiles found already')];
  const kept = new Set(keptIdx);
  const leftOut = [...loneTiles, ...noTileLeft, ...live.filter((i) => !kept.has(i)).map((i) => all[i]!)].map((t) => ({ code: t.code, score: t.score, box: t.box }));
  if (leftOut.length) result.leftOut = leftOut;
  const tiles = keptIdx.map((i) => all[i]!);
  if (!tiles.length) {
    result.reason = 'no tiles found in the photo';
    return result;
  }
  const lay = layoutTiles(tiles);
  const remap = new Map<number, number>();
  lay.order.forEach((i, k) => remap.set(i, k));
  result.tiles = lay.order.map((i) => ({ ...tiles[i], row: lay.row[i], group: lay.group[i] }));
  if (opts.probs) opts.probs.push(...lay.order.map((i) => Array.from(probs[keptIdx[i]!]!)));
  result.groups = lay.groups.map((g) => ({ ...g, tiles: g.tiles.map((i) => remap.get(i)!) }));
  return result;
}
