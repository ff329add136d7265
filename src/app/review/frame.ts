/**
 * What part of the photo the review screen shows, and where each tile's reading is drawn, so that
 * the boxes are large enough to tap and the readings do not hide the tiles being checked. Pure.
 */

/** A region of the photo in its pixels. */
export interface Frame { x: number; y: number; width: number; height: number }

/** Shown round the tiles: this many of their median long sides, or FRAME_MIN_MARGIN of the photo. */
export const FRAME_MARGIN = 0.75;
export const FRAME_MIN_MARGIN = 0.02;
/** The whole photo is shown when the tiles' region would be at least this share of its area. */
export const FRAME_WHOLE_ABOVE = 0.85;
/** Detections left out within this many tile lengths of the tiles are kept in view too. */
export const FRAME_NEAR = 2;

type Box = readonly [number, number, number, number] | readonly number[];

/** The whole photo. */
export const wholeFrame = (photo: { width: number; height: number }): Frame => ({ x: 0, y: 0, width: photo.width, height: photo.height });

const median = (v: number[]): number => [...v].sort((a, b) => a - b)[v.length >> 1]!;

/**
 * The region holding every box with a margin, or the whole photo when that is most of it (or
 * there are no boxes). A hand photographed from a step back fills a fifth of the frame, and its
 * tiles are then 20-30 px wide on a phone: too small to tap and to see.
 */
export function tileFrame(photo: { width: number; height: number }, tiles: readonly Box[], beside: readonly Box[] = []): Frame {
  const whole = wholeFrame(photo);
  if (!tiles.length || photo.width <= 0 || photo.height <= 0) return whole;
  const long = median(tiles.map((b) => Math.max(b[2]!, b[3]!)));
  // other boxes (detections left out as no tile) count only near the tiles: far ones are the cloth
  const [tx0, ty0] = [Math.min(...tiles.map((b) => b[0]!)), Math.min(...tiles.map((b) => b[1]!))];
  const [tx1, ty1] = [Math.max(...tiles.map((b) => b[0]! + b[2]!)), Math.max(...tiles.map((b) => b[1]! + b[3]!))];
  const near = (b: Box) => b[0]! + b[2]! >= tx0 - FRAME_NEAR * long && b[0]! <= tx1 + FRAME_NEAR * long && b[1]! + b[3]! >= ty0 - FRAME_NEAR * long && b[1]! <= ty1 + FRAME_NEAR * long;
  const boxes = [...tiles, ...beside.filter(near)];
  const margin = Math.max(FRAME_MARGIN * long, FRAME_MIN_MARGIN * Math.max(photo.width, photo.height));
  const x0 = Math.max(0, Math.min(...boxes.map((b) => b[0]!)) - margin);
  const y0 = Math.max(0, Math.min(...boxes.map((b) => b[1]!)) - margin);
  const x1 = Math.min(photo.width, Math.max(...boxes.map((b) => b[0]! + b[2]!)) + margin);
  const y1 = Math.min(photo.height, Math.max(...boxes.map((b) => b[1]! + b[3]!)) + margin);
  if (x1 <= x0 || y1 <= y0) return whole;
  if ((x1 - x0) * (y1 - y0) >= FRAME_WHOLE_ABOVE * photo.width * photo.height) return whole;
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Whether a box's centre lies in the frame. */
export const inFrame = (b: Box, f: Frame): boolean => {
  const cx = b[0]! + b[2]! / 2, cy = b[1]! + b[3]! / 2;
  return cx >= f.x && cx <= f.x + f.width && cy >= f.y && cy <= f.y + f.height;
};

/** A box in a frame, as CSS percentages of the frame. */
export function frameStyle(box: Box, f: Frame): { left: string; top: string; width: string; height: string } {
  return {
    left: `${((box[0]! - f.x) / f.width) * 100}%`,
    top: `${((box[1]! - f.y) / f.height) * 100}%`,
    width: `${(box[2]! / f.width) * 100}%`,
    height: `${(box[3]! / f.height) * 100}%`,
  };
}

/** The photo itself placed in a frame (the part outside is cut off by the wrapper). */
export function photoStyle(photo: { width: number; height: number }, f: Frame): { left: string; top: string; width: string; height: string } {
  return frameStyle([0, 0, photo.width, photo.height], f);
}

/** A point of the frame's rendered rectangle (fractions 0..1 across and down) in photo pixels. */
export function framePoint(f: Frame, u: number, v: number): [number, number] {
  return [f.x + u * f.width, f.y + v * f.height];
}

/** A tile's reading, drawn as a small tile face: width LABEL_SHARE of the box's width, 4:3 tall. */
export const LABEL_SHARE = 0.55;
export type LabelPlace = 'above' | 'below' | 'inside';

/** Another box hides a reading when it covers at least this share of the reading's width and height
 * (the corners of neighbours in a row photographed at an angle do not count). */
export const LABEL_BLOCK = 0.35;

/**
 * Where to draw each box's reading: above the box, unless another box lies in that space (the
 * row above, in a hand laid out in two rows or a grid), then below it, else inside its top corner.
 */
export function labelPlaces(boxes: readonly Box[]): LabelPlace[] {
  const free = (i: number, top: number, bottom: number) => {
    const [x, , w] = boxes[i]!;
    const lw = LABEL_SHARE * w!, lx = x! + (w! - lw) / 2, lh = bottom - top;
    return boxes.every((b, j) => {
      if (j === i) return true;
      const ox = Math.min(lx + lw, b[0]! + b[2]!) - Math.max(lx, b[0]!);
      const oy = Math.min(bottom, b[1]! + b[3]!) - Math.max(top, b[1]!);
      return ox < LABEL_BLOCK * lw || oy < LABEL_BLOCK * lh;
    });
  };
  return boxes.map((b, i) => {
    const lh = (LABEL_SHARE * b[2]! * 4) / 3;
    if (free(i, b[1]! - lh, b[1]!)) return 'above';
    if (free(i, b[1]! + b[3]!, b[1]! + b[3]! + lh)) return 'below';
    return 'inside';
  });
}
