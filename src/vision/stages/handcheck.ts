/**
 * Hand check stage: a photo of a finished hand must show a complete hand (handcheck/check.ts). The
 * check may change doubtful readings, leave out doubtful detections and strays, and take weak
 * candidates the hand needs; when it finds no complete hand, sure tiles cut by the photo's edge are
 * kept; once complete, weak face-down tiles continuing a row of them are. Then the set's rules:
 * a bird pung, reading order, at most four of a kind, one of each flower.
 */
import { CONFIG } from '../config.ts';
import { checkHandWithStrays, type StrayCheckResult } from '../handcheck/check.ts';
import { orderMend } from '../handcheck/order.ts';
import { atMostFour, birdPungs, distinctFlowers } from '../handcheck/sets.ts';
import { layoutTiles, type LayoutInput } from '../layout.ts';
import type { PipelineOptions } from '../pipeline.ts';
import { claimedTiles, loneBacks, rowOfBacks } from '../doubtful.ts';
import { boxGap, medianLongSide, round } from '../postprocess.ts';
import { modelCropSize, type Models } from '../session.ts';
import type { Box, TileCode } from '../types.ts';
import type { Found } from './find.ts';
import { pickCrops, tileProbs, type Reading } from './read.ts';
import type { Verified } from './verify.ts';

/** Each tile's place in reading order (layoutTiles), for the hand check's order rule. */
function readingRanks(tiles: LayoutInput[]): number[] {
  const order = new Array<number>(tiles.length).fill(0);
  layoutTiles(tiles).order.forEach((i, n) => { order[i] = n; });
  return order;
}

/** The hand check stage's output: the candidates kept (indices into Found.dets; their tiles, in
 * Verified.all, read as the check read them), whether they make a complete hand, and its notes. */
export interface HandChecked {
  keptIdx: number[];
  complete: boolean;
  notes: string[];
}

/** The hand check stage (see the module's note); without the check (PipelineOptions.handCheck
 * false), the live candidates but the strays. Changes the tiles of `v.all` in place. */
export async function handCheckStage(models: Models, opts: PipelineOptions, found: Found, reading: Reading, v: Verified): Promise<HandChecked> {
  const { live, stray } = v;
  if (!(live.length && (opts.handCheck ?? true))) return { keptIdx: live.filter((_, j) => !stray[j]), complete: false, notes: [] };
  const { dets } = found;
  const { all } = v;
  // each detection's place in reading order (layoutTiles) among those of `idx`, as first read
  const readingOrder = (idx: readonly number[]) => readingRanks(idx.map((i) => ({ box: dets[i]!.box, sideways: dets[i]!.sideways, code: all[i]!.code })));
  const { hc, pool, notes } = checkCandidates(opts, found, reading, v, readingOrder);
  const keptIdx = hc.kept.map((j) => pool[j]!);
  notes.push(...(await keepWeak(models, opts, found, reading, v, keptIdx, hc.complete)));
  notes.push(...setRules(models, opts, found, reading, v, keptIdx, hc, readingOrder));
  return { keptIdx, complete: hc.complete, notes };
}

/**
 * The check itself on the live candidates (checkHandWithStrays); when it finds no complete hand,
 * again with the weak candidates and the doubted detections as strays, taken when they complete
 * it on the terms below. The pool checked (indices into Found.dets), its result, and the notes.
 */
function checkCandidates(opts: PipelineOptions, found: Found, reading: Reading, v: Verified, readingOrder: (idx: readonly number[]) => number[]): { hc: StrayCheckResult; pool: number[]; notes: string[] } {
  const { dets, atEdge } = found;
  const { probs, cut, pTile } = reading;
  const { all, edgeIdx, edgeTiles, noTile, straddling, live, stray } = v;
  const rasterBoxes = dets.map((d) => d.box);
  const notes: string[] = [];
  // the strays stay out unless the hand is complete only with them; a doubtful detection
  // (handCheck.dropBelow) may be left out when that completes the hand, and one tile the classifier
  // cannot read (handCheck.unreadBelow: an unseen design) may be read from the hand; a doubtful lone
  // face-down tile that the hand's concealed kongs cannot take is left out
  // a detection the tile verifier is sure of is a tile: a flower or a spare face-down tile lying
  // apart, which the hand does not need, is not a false detection (this holds for the
  // detections kept so far, not for the weak candidates the second look offers as strays)
  const liveSet = new Set(live);
  const verified = (i: number) => (opts.verifiedStay ?? true) && liveSet.has(i) && (pTile[i] ?? 0) >= CONFIG.verify.loneVerified;
  // with a tile the photo's edge cuts, part of the hand may lie outside the photo, which no
  // change completes: the check may change one tile (edge.cutHandMaxChanges), not more
  const cutSet = new Set(cut);
  const maxChanges = (opts.cutHandLimit ?? true) && live.some((i) => cutSet.has(i)) ? CONFIG.edge.cutHandMaxChanges : undefined;
  const check = (pool: number[], strays: boolean[]) => checkHandWithStrays(pool.map((i) => probs[i]!), strays.map((s, j) => s && !verified(pool[j]!)), {
    detScores: pool.map((i) => (verified(i) ? Math.max(dets[i]!.score, CONFIG.handCheck.dropBelow) : dets[i]!.score)), unreadBelow: opts.unreadBelow ?? CONFIG.handCheck.unreadBelow, unreadFirst: CONFIG.handCheck.unreadFirst, dropSpareBacks: true, maxChanges,
    // which flower is which is settled afterwards (distinctFlowers), so the check spends its
    // tiles and budget on the tiles that make the hand
    flowerIdentity: !(opts.distinctFlowers ?? true),
    spareBackOk: loneBacks(pool.map((i) => rasterBoxes[i]!), pool.map((i) => all[i]!.code === 'back')),
    // a tile lying sideways beside others is a meld's claimed tile, and flowers are not claimed
    claimed: (opts.claimedTiles ?? true) ? claimedTiles(pool.map((i) => rasterBoxes[i]!)) : undefined,
    // players lay a finished hand out sorted or set by set: a mend that keeps that order is likelier
    order: (opts.handOrder ?? true) ? readingOrder(pool) : undefined,
  });
  let pool = live;
  let hc = check(pool, stray);
  // a tile the photo cuts, or a weak one in line with the hand, may be what the hand lacks: the
  // weak candidates join as strays; so do the detections the tile verifier doubted (it takes
  // some plain white dragons for the cloth), but for flowers, which no hand needs
  const doubted = [...noTile].flatMap(([i, t]) => (t.code[0] !== 'f' ? [i] : []));
  if (!hc.complete && (edgeIdx.length || doubted.length)) {
    edgeIdx.forEach((i, j) => { all[i] = edgeTiles[j]!; });
    doubted.forEach((i) => { all[i] = noTile.get(i)!; });
    const extra = [...edgeIdx, ...doubted];
    const withEdge = [...live, ...extra];
    const hc2 = check(withEdge, [...stray, ...extra.map(() => true)]);
    // taken as read: the hand check may not also change a weak candidate's class, and a weak
    // candidate in line with the hand, or a doubted one, is taken only when no other tile
    // changes or is left out
    const takenIdx = hc2.kept.filter((j) => j >= live.length).map((j) => withEdge[j]!);
    const nDoubted = takenIdx.filter((i) => doubted.includes(i)).length;
    const nEdge = takenIdx.filter((i) => !doubted.includes(i) && atEdge(dets[i]!.box)).length, nIn = takenIdx.length - nEdge - nDoubted;
    const took = hc2.complete && takenIdx.length > 0 && hc2.changed.every((j) => hc2.kept[j]! < live.length) && !((nIn || nDoubted) && (hc2.changed.length || hc2.dropped.length));
    if (took) {
      pool = withEdge;
      hc = hc2;
      // "hand check: one weak detection at ... was taken, as the hand needs it"
      const takenNote = (n: number, what: string, where: string) => `hand check: ${n === 1 ? `one ${what}` : `${n} ${what}s`} ${where} ${n === 1 ? 'was' : 'were'} taken, as the hand needs ${n === 1 ? 'it' : 'them'}`;
      if (nEdge) notes.push(takenNote(nEdge, 'weak detection', "at the photo's edge (a tile the photo cuts)"));
      if (nIn) notes.push(takenNote(nIn, 'weak detection', 'in line with the hand'));
      const nOver = takenIdx.filter((i) => straddling.has(i)).length, nVerifier = nDoubted - nOver;
      if (nVerifier) notes.push(takenNote(nVerifier, 'detection', 'that the tile verifier doubted'));
      if (nOver) notes.push(takenNote(nOver, 'detection', 'lying over tiles found already'));
    }
    for (const i of extra) if (!took || !hc2.kept.some((j) => withEdge[j] === i)) all[i] = null;
  }
  return { hc, pool, notes };
}

/**
 * Weak candidates kept after all (into `keptIdx`, their tiles back in `v.all`): with no complete
 * hand, sure tiles cut by the photo's edge beside the hand (edge.keep*); with one, weak face-down
 * tiles continuing a row of kept ones (backs.wallScore). Returns the notes.
 */
async function keepWeak(models: Models, opts: PipelineOptions, found: Found, reading: Reading, v: Verified, keptIdx: number[], complete: boolean): Promise<string[]> {
  const { dets, atEdge, besideSet } = found;
  const { crops, probs } = reading;
  const { all, edgeIdx, edgeTiles } = v;
  const rasterBoxes = dets.map((d) => d.box);
  const { w: cw, h: ch } = modelCropSize(models);
  const notes: string[] = [];
  /** Weak candidates (indices into dets, among edgeIdx) kept after all, as they were read. */
  const keepEdgeTiles = (idx: readonly number[]) => {
    for (const i of idx) {
      all[i] = edgeTiles[edgeIdx.indexOf(i)]!;
      keptIdx.push(i);
    }
  };
  if (!complete && (opts.edgeKeep ?? true) && models.verifier) {
    // the hand is not complete, so part of it may lie outside the photo: a tile the photo's edge
    // cuts, beside the hand (not a pattern of the cloth at the photo's edge), that the classifier
    // reads surely and the tile verifier sees as a tile is shown, weak as it is, rather than lost
    // (the player checks an incomplete hand in any case)
    const handBoxes = keptIdx.map((i) => rasterBoxes[i]!);
    const reach = CONFIG.edge.keepGap * medianLongSide(handBoxes);
    const beside = (b: Box) => handBoxes.some((o) => boxGap(b, o) <= reach);
    const sure = edgeIdx.filter((i) => all[i] === null && atEdge(dets[i]!.box) && beside(rasterBoxes[i]!) && Math.max(...probs[i]!) >= CONFIG.edge.keepProb);
    const pEdge = sure.length ? await tileProbs(models.verifier, pickCrops(crops, sure, cw * ch), sure.length, ch, cw) : [];
    const more = sure.filter((_, j) => pEdge[j]! >= CONFIG.edge.keepVerified);
    keepEdgeTiles(more);
    if (more.length) notes.push(`${more.length === 1 ? 'one tile' : `${more.length} tiles`} at the photo's edge, seen weakly, ${more.length === 1 ? 'was' : 'were'} kept, as the hand is not complete (part of it may lie outside the photo)`);
  }
  if (complete) {
        // weak candidates in line with the hand, read as face-down tiles surely enough, that continue a
    // row of kept face-down tiles (the wall): spare tiles, outside the hand
    const backK = models.labels.indexOf('back');
    const weakBacks = edgeIdx.flatMap((i, j) => (all[i] === null && besideSet.has(i) && edgeTiles[j]!.code === 'back' && probs[i]![backK]! * dets[i]!.score >= CONFIG.backs.wallScore ? [i] : []));
    const inRow = rowOfBacks(weakBacks.map((i) => rasterBoxes[i]!), keptIdx.filter((i) => all[i]!.code === 'back').map((i) => rasterBoxes[i]!));
    const more = weakBacks.filter((_, j) => inRow[j]);
    keepEdgeTiles(more);
    if (more.length) notes.push(`${more.length === 1 ? 'one weak face-down tile' : `${more.length} weak face-down tiles`} in a row of face-down tiles ${more.length === 1 ? 'was' : 'were'} kept (spare tiles, not part of the hand)`);
  }
  return notes;
}

/**
 * The check's changes made (the tiles read as it read them, with what they were read as first among
 * their alternatives), then the set's rules on the kept tiles: a bird pung, one change for reading
 * order when the hand is not complete, at most four of a kind, one of each flower. Returns the notes.
 */
function setRules(models: Models, opts: PipelineOptions, found: Found, reading: Reading, v: Verified, keptIdx: number[], hc: StrayCheckResult, readingOrder: (idx: readonly number[]) => number[]): string[] {
  const { dets } = found;
  const { probs } = reading;
  const { all, live } = v;
  const notes: string[] = [];
  // the hand check's reading of kept tile j as class k; what it was read as comes first among the alternatives
  const readAs = (j: number, k: number) => {
    const i = keptIdx[j]!, tile = all[i]!, p = probs[i]!;
    const was = { code: tile.code, score: round(p[models.labels.indexOf(tile.code)]!, 4) };
    tile.code = models.labels[k] as TileCode;
    tile.score = round(p[k]! * dets[i]!.score, 4);
    tile.alternatives = [was, ...(tile.alternatives ?? []).filter((a) => a.code !== tile.code && a.code !== was.code)].slice(0, 2);
    tile.handCheck = true;
  };
  for (const j of hc.changed) readAs(j, hc.classes[j]!);
  if (hc.changed.length) {
    notes.push(`hand check: ${hc.changed.length === 1 ? 'one tile was' : `${hc.changed.length} tiles were`} changed so that the tiles make a complete hand`);
  }
  // a pung read doubtfully as an honour, with some weight on the bamboo 1: the set's bird
  const birds = (opts.birdPungs ?? true) ? birdPungs(keptIdx.map((i) => probs[i]!), hc.classes, hc.complete) : [];
  for (const j of birds) readAs(j, CONFIG.handCheck.unreadFirst[0]!);
  if (birds.length) notes.push(`hand check: ${birds.length} tiles read doubtfully as one honour were read as the 1 of bamboo (a set of the photo's bird)`);
  // a set has four of each tile kind and eight flowers and seasons, and one of each flower:
  // tiles read as the same flower or season are told apart; the kept tiles read again as such a
  // rule moves them, with a note
  const readAgain = (rule: typeof distinctFlowers, what: (n: number) => string, setHas: string) => {
    const moves = rule(keptIdx.map((i) => probs[i]!), keptIdx.map((i) => models.labels.indexOf(all[i]!.code)));
    for (const { index, k } of moves) readAs(index, k);
    if (moves.length) notes.push(`hand check: ${what(moves.length)} read again, as a set has ${setHas}`);
  };
  // a hand the check could not complete (a tile missed, or part of the hand outside the photo)
  // whose tiles are out of reading order: one cheap change that puts them in order (orderMend)
  if ((opts.handOrder ?? true) && !hc.complete) {
    const moves = orderMend(keptIdx.map((i) => probs[i]!), keptIdx.map((i) => models.labels.indexOf(all[i]!.code)), readingOrder(keptIdx));
    for (const { index, k } of moves) readAs(index, k);
    if (moves.length) notes.push('hand check: one tile was read as its next guess, which lays the tiles out in order (sorted, or set by set)');
  }
  if (opts.atMostFour ?? true) readAgain(atMostFour, (n) => (n === 1 ? 'one tile was' : `${n} tiles were`), 'four of each tile and eight flowers and seasons');
  if (opts.distinctFlowers ?? true) readAgain(distinctFlowers, (n) => (n === 1 ? 'one flower or season was' : `${n} flowers or seasons were`), 'one of each');
  const taken = new Set(keptIdx);
  const left = live.filter((i) => !taken.has(i)).length;
  if (left) notes.push(`hand check: ${left === 1 ? 'one doubtful detection was' : `${left} doubtful detections were`} left out, as the tiles make a complete hand without ${left === 1 ? 'it' : 'them'}`);
  return notes;
}
