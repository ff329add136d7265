/**
 * One tile: a picture of a single tile (`scan --as-tile`), read from the tile's box when the picture
 * shows the table round it, or whole when it is cut to the tile.
 */
import { CONFIG, ttaMode, type TtaMode } from '../config.ts';
import { cropTiles, cropWholeImage } from '../preprocess.ts';
import { round, topK } from '../postprocess.ts';
import { oneTileBoxes } from '../regions.ts';
import { modelCropSize, type Models } from '../session.ts';
import type { Box, Detection, RasterImage, TileCode } from '../types.ts';
import { detectIn } from './detect.ts';
import { readFlowers } from './flowers.ts';
import { classifyCrops, tileProbs } from './read.ts';

/**
 * A picture of one tile; top-k classes (both ways up averaged, as tiles lie either way). A photo with
 * the table round the tile is read from the tile's box: the detector and the finder look at the
 * normal and the zoomed-out fits (a photo of one tile is a close-up), each box of oneTileBoxes is
 * read (the sure ones, or when none is sure those scoring oneTile.weak), and the surest reading is
 * taken. A picture cut to the tile (no box, a box that fills it, or the tile verifier sees a tile
 * in the whole picture) is read whole, and a flower in it from its middle (oneTile.flowerMargin).
 */
export async function classifyTileImage(img: RasterImage, models: Models, k = 3, tta: boolean | TtaMode = 'all'): Promise<{ code: TileCode; score: number }[]> {
  const { w, h } = modelCropSize(models);
  const dets: Detection[] = [];
  for (const fit of [1, CONFIG.closeUp.fit, CONFIG.closeUp.fitFar]) {
    dets.push(...(await detectIn(img, models, CONFIG.detect.size, CONFIG.oneTile.weak, undefined, fit)));
    if (models.finder) dets.push(...(await detectIn(img, models, CONFIG.detect.size, CONFIG.oneTile.weak, undefined, fit, models.finder)));
  }
  const sure = oneTileBoxes(dets.filter((d) => d.score >= CONFIG.detect.threshold), img.width, img.height);
  let boxes = (sure.length ? sure : oneTileBoxes(dets, img.width, img.height)).slice(0, CONFIG.oneTile.tries);
  if (boxes.length && models.verifier) {
    // the tile verifier sees a tile in the whole picture: it is cut to the tile (a detection inside it is a pip)
    const pWhole = (await tileProbs(models.verifier, cropWholeImage(img, w, h), 1, h, w))[0]!;
    if (pWhole >= CONFIG.oneTile.whole) boxes = [];
  }
  // each box the detectors give is read with the scenes' margin round it, and the surest reading is
  // the tile's; a picture cut to the tile is one box, the whole picture, with none (cropWholeImage),
  // and its flower readers read its middle
  const reads = boxes.length ? boxes : [{ box: [0, 0, img.width, img.height] as Box, sideways: img.width > img.height }];
  const [margin, flowerMargin] = boxes.length ? [CONFIG.crop.margin, CONFIG.crop.margin] : [1.0, CONFIG.oneTile.flowerMargin];
  const read = await classifyCrops(models, cropTiles(img, reads.map((d) => d.box), reads.map((d) => d.sideways), w, h, margin), reads.length, ttaMode(tta));
  const j = read.reduce((b, q, i) => (Math.max(...q) > Math.max(...read[b]!) ? i : b), 0);
  const p = read[j]!;
  await readFlowers(models, img, [reads[j]!.box], [reads[j]!.sideways], [p], ttaMode(tta), undefined, flowerMargin);
  return topK(p, k).map((x) => ({ code: models.labels[x.index] as TileCode, score: round(x.score, 4) }));
}
