/**
 * Pure layout analysis: sort detected tiles into rows and reading order, and
 * propose set groups from gaps, sideways (claimed) tiles and face-down tiles.
 * Works in any pixel space; rows may be tilted (the row direction is estimated
 * from nearest-neighbour vectors).
 */
import { CONFIG } from './config.ts';
import type { Box, GroupKind, TileGroup } from './types.ts';

export interface LayoutInput {
  box: Box;
  sideways?: boolean;
  code?: string;
}

export interface LayoutResult {
  /** Indices of the input in reading order. */
  order: number[];
  /** Row number per input index. */
  row: number[];
  /** Group number per input index (groups numbered in reading order). */
  group: number[];
  /** Groups, with members as input indices in reading order. */
  groups: TileGroup[];
  /** Estimated row direction, radians (0 = left to right). */
  angle: number;
}

function median(a: number[]): number {
  if (!a.length) return 0;
  const s = [...a].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Dominant row direction in (-pi/2, pi/2], from nearest-neighbour vectors (doubled-angle mean). */
export function rowAngle(centres: [number, number][]): number {
  const n = centres.length;
  if (n < 2) return 0;
  let sx = 0, sy = 0;
  for (let i = 0; i < n; i++) {
    let best = Infinity, bx = 0, by = 0;
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const dx = centres[j][0] - centres[i][0], dy = centres[j][1] - centres[i][1];
      const d = dx * dx + dy * dy;
      if (d < best) { best = d; bx = dx; by = dy; }
    }
    const a = Math.atan2(by, bx);
    sx += Math.cos(2 * a);
    sy += Math.sin(2 * a);
  }
  let ang = Math.atan2(sy, sx) / 2;
  if (ang <= -Math.PI / 2) ang += Math.PI;
  if (ang > Math.PI / 2) ang -= Math.PI;
  return ang;
}

/**
 * How far each tile is turned, in degrees in (-45, 45], from the directions to its two nearest
 * neighbours within layout.angleNeighbourReach of its long side (0 for a tile with none: a flower laid
 * apart). Angles are taken modulo 90 degrees, so a neighbour beside a tile and one above it (a
 * grid) say the same; a tile's own box cannot tell which way up it is. On val-holdout's true boxes
 * the estimate is within 1.9 degrees of the drawn angle on average.
 */
export function tileAngles(boxes: readonly Box[]): number[] {
  const cs = boxes.map((b) => [b[0] + b[2] / 2, b[1] + b[3] / 2] as const);
  return cs.map(([x, y], i) => {
    const reach = CONFIG.layout.angleNeighbourReach * Math.max(boxes[i]![2], boxes[i]![3]);
    const near = cs
      .map(([u, v], j) => ({ j, d: j === i ? Infinity : Math.hypot(u - x, v - y) }))
      .filter((n) => n.d < reach)
      .sort((a, b) => a.d - b.d)
      .slice(0, 2);
    if (!near.length) return 0;
    // quadrupled angles, so that directions 90 degrees apart add up
    let sx = 0, sy = 0;
    for (const { j } of near) {
      const a = Math.atan2(cs[j]![1] - y, cs[j]![0] - x);
      sx += Math.cos(4 * a);
      sy += Math.sin(4 * a);
    }
    if (Math.hypot(sx, sy) < 1e-9) return 0;
    const deg = (Math.atan2(sy, sx) / 4) * (180 / Math.PI);
    return deg <= -45 ? deg + 90 : deg;
  });
}

export function layoutTiles(tiles: LayoutInput[]): LayoutResult {
  const n = tiles.length;
  if (!n) return { order: [], row: [], group: [], groups: [], angle: 0 };
  const centres = tiles.map((t) => [t.box[0] + t.box[2] / 2, t.box[1] + t.box[3] / 2] as [number, number]);
  const angle = rowAngle(centres);
  const d = [Math.cos(angle), Math.sin(angle)];
  const u = centres.map((c) => c[0] * d[0] + c[1] * d[1]);
  const v = centres.map((c) => -c[0] * d[1] + c[1] * d[0]);
  const longSide = median(tiles.map((t) => Math.max(t.box[2], t.box[3])));

  // rows: split the across-row coordinate at big gaps
  const byV = [...Array(n).keys()].sort((a, b) => v[a] - v[b]);
  const rowOf = new Array<number>(n).fill(0);
  const rows: number[][] = [[byV[0]]];
  for (let k = 1; k < n; k++) {
    const i = byV[k];
    const prev = rows[rows.length - 1];
    const meanV = prev.reduce((s, j) => s + v[j], 0) / prev.length;
    if (v[i] - meanV > 0.6 * longSide) rows.push([i]);
    else prev.push(i);
  }
  rows.forEach((r, ri) => { r.sort((a, b) => u[a] - u[b]); r.forEach((i) => { rowOf[i] = ri; }); });

  // base spacing between neighbouring upright tiles
  const spacings: number[] = [];
  for (const r of rows) for (let k = 1; k < r.length; k++) {
    if (!tiles[r[k]].sideways && !tiles[r[k - 1]].sideways) spacings.push(u[r[k]] - u[r[k - 1]]);
  }
  const base = spacings.length ? Math.min(median(spacings), 0.9 * longSide) : 0.75 * longSide;
  const ext = (i: number) => (tiles[i].sideways ? base * 1.33 : base);

  const order: number[] = [];
  const groupOf = new Array<number>(n).fill(0);
  const groups: TileGroup[] = [];
  for (const r of rows) {
    let cur: number[] = [];
    const flush = () => {
      if (cur.length) {
        groups.push(describe(cur, tiles));
        cur.forEach((i) => { groupOf[i] = groups.length - 1; });
      }
      cur = [];
    };
    for (let k = 0; k < r.length; k++) {
      const i = r[k];
      if (k > 0) {
        const j = r[k - 1];
        const expected = (ext(i) + ext(j)) / 2;
        const du = u[i] - u[j];
        // face-down tiles end a concealed kong: back, x, x, back
        const kongEnd = cur.length === 4 && tiles[cur[0]].code === 'back' && tiles[j].code === 'back';
        if (du > expected + 0.3 * base || kongEnd) flush();
      }
      cur.push(i);
      order.push(i);
    }
    flush();
  }
  return { order, row: rowOf, group: groupOf, groups, angle };
}

function describe(members: number[], tiles: LayoutInput[]): TileGroup {
  const codes = members.map((i) => tiles[i].code ?? '');
  let kind: GroupKind = 'tiles';
  let reason = 'separated from its neighbours by gaps';
  if (codes.length && codes.every((c) => c.startsWith('f'))) {
    kind = 'flowers';
    reason = 'flower/season tiles laid aside';
  } else if (codes.some((c) => c === 'back') && members.length <= 4) {
    kind = 'concealed-kong';
    reason = 'contains face-down tiles';
  } else if (members.some((i) => tiles[i].sideways) && members.length <= 4) {
    kind = 'meld';
    reason = 'contains a sideways (claimed) tile';
  }
  return { tiles: members, kind, reason };
}
