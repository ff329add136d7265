/**
 * A finished scan's codes re-read with a tile-set profile, for the evaluation's cheap comparison
 * of methods (scripts/eval/learn.ts --modes after: one scan a photo, cached); the scanner itself
 * applies the profile in its read stage (stages/read.ts profileReadings). Each tile's crop embedded (embed.ts embedBoxes), the profile's
 * bonus (combine.ts) added to the base reading, and the tile's code changed where the combined
 * reading's first guess differs. The base reading is the classifier's softmax of the crop with the
 * scan's own code counted as its first guess (the scan's later stages, flower readers and hand
 * check, know more than one classifier pass), so the profile changes a tile only when its
 * evidence outweighs the scan's.
 */
import type { ScanResult, ScannedTile, TileCode } from '../types.ts';
import { codeIndex, combineReading, type ProfileScorer } from './combine.ts';
import type { CropReading } from './embed.ts';

const round = (x: number) => Math.round(x * 1e4) / 1e4;

export interface ProfiledTile {
  /** The tile as the profile reads it. */
  tile: ScannedTile;
  /** Whether the profile changed its code. */
  changed: boolean;
}

/** One tile re-read with the profile's bonus; `r` is its crop's reading. */
export function profileTile(t: ScannedTile, r: CropReading, scorer: ProfileScorer, labels: readonly string[]): ProfiledTile {
  // a tile read as a kind the profile has not seen keeps its reading (combine.ts)
  if (!scorer.kinds.has(codeIndex(t.code))) return { tile: t, changed: false };
  const bonus = scorer(r.views);
  if (!bonus.some((b) => b > 0)) return { tile: t, changed: false };
  const base = new Float32Array(r.probs);
  let top = 0;
  for (let k = 0; k < base.length; k++) if (base[k]! > top) top = base[k]!;
  const own = codeIndex(t.code);
  base[own] = Math.max(base[own]!, top);
  const p = combineReading(base, bonus);
  let best = 0;
  for (let k = 1; k < p.length; k++) if (p[k]! > p[best]!) best = k;
  const code = labels[best] as TileCode;
  if (code === t.code) return { tile: bonus[own]! > 0 ? { ...t, score: Math.max(t.score, round(p[best]!)) } : t, changed: false };
  const alternatives = [{ code: t.code, score: round(p[own]!) }];
  // the hand check's mark belonged to the code it chose; the new code is the profile's
  const { handCheck: _, ...rest } = t;
  return { tile: { ...rest, code, score: round(p[best]!), alternatives }, changed: true };
}

/** The scan's tiles re-read with the profile, given their crops' readings (embed.ts embedBoxes
 * embeds them; the evaluation embeds each photo once). */
export function applyReadings(result: ScanResult, readings: readonly CropReading[], scorer: ProfileScorer, labels: readonly string[]): ScanResult {
  let changed = 0;
  const tiles = result.tiles.map((t, i) => {
    const r = profileTile(t, readings[i]!, scorer, labels);
    if (r.changed) changed++;
    return r.tile;
  });
  const notes = changed ? [...(result.notes ?? []), `tile-set profile: ${changed} tile${changed === 1 ? '' : 's'} read as the set was taught`] : result.notes;
  return { ...result, tiles, ...(notes ? { notes } : {}) };
}
