/** Tile classes, hand sampling and plane layout (pure; no rendering). */
import { type Rng, chance, int, pick, shuffle, uni, weighted } from './rng.ts';
import classesJson from './classes.json' with { type: 'json' };

export const CLASSES: readonly string[] = classesJson as string[];
export const SUITED = ['m', 'p', 's'] as const;
export const HONORS = ['1z', '2z', '3z', '4z', '5z', '6z', '7z'];
export const FLOWERS = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8'];

export interface HandSet {
  tiles: string[];
  kind: 'chow' | 'pung' | 'kong' | 'pair' | 'single';
  exposed: boolean;
  /** for concealed kongs: which tiles are shown face down */
  faceDown?: boolean[];
  /** index of the claimed tile shown sideways (exposed melds only) */
  sideways?: number;
}

export interface Hand {
  concealed: HandSet[];
  melds: HandSet[];
  flowers: string[];
  /** extra face-down tiles lying around (wall pieces) */
  extraBacks: number;
}

const suitedTile = (n: number, s: string) => `${n}${s}`;

/** Sample a plausible finished hand (4 sets + pair, sometimes 7 pairs / 13 orphans). */
export function sampleHand(r: Rng): Hand {
  const count = new Map<string, number>();
  const take = (t: string, n = 1) => {
    if ((count.get(t) ?? 0) + n > 4) return false;
    count.set(t, (count.get(t) ?? 0) + n);
    return true;
  };
  const concealed: HandSet[] = [];
  const melds: HandSet[] = [];
  const special = r();
  if (special < 0.06) {
    // seven pairs
    let tries = 0;
    while (concealed.length < 7 && tries++ < 100) {
      const t = chance(r, 0.25) ? pick(r, HONORS) : suitedTile(int(r, 1, 9), pick(r, SUITED));
      if ((count.get(t) ?? 0) === 0 && take(t, 2)) concealed.push({ tiles: [t, t], kind: 'pair', exposed: false });
    }
  } else if (special < 0.09) {
    // thirteen orphans
    const orph = ['1m', '9m', '1p', '9p', '1s', '9s', ...HONORS];
    for (const t of orph) concealed.push({ tiles: [t], kind: 'single', exposed: false });
    concealed.push({ tiles: [pick(r, orph)], kind: 'single', exposed: false });
  } else {
    const nExposed = weighted(r, [[0, 3], [1, 3], [2, 3], [3, 2], [4, 1]] as const);
    const honorP = uni(r, 0.1, 0.45);
    for (let i = 0; i < 4; i++) {
      let set: HandSet | null = null;
      for (let tries = 0; !set && tries < 50; tries++) {
        const k = r();
        if (k < 0.45) {
          const s = pick(r, SUITED);
          const n = int(r, 1, 7);
          const ts = [n, n + 1, n + 2].map((x) => suitedTile(x, s));
          if (ts.every((t) => (count.get(t) ?? 0) < 4)) {
            ts.forEach((t) => take(t));
            set = { tiles: ts, kind: 'chow', exposed: false };
          }
        } else {
          const t = chance(r, honorP) ? pick(r, HONORS) : suitedTile(int(r, 1, 9), pick(r, SUITED));
          const kong = chance(r, 0.18);
          if (take(t, kong ? 4 : 3)) set = { tiles: Array(kong ? 4 : 3).fill(t), kind: kong ? 'kong' : 'pung', exposed: false };
        }
      }
      if (!set) continue;
      if (i < nExposed) {
        set.exposed = true;
        if (set.kind === 'kong' && chance(r, 0.4)) {
          // concealed kong shown as 2 face-down + 2 face-up
          set.exposed = true;
          set.faceDown = chance(r, 0.7) ? [true, false, false, true] : [false, true, true, false];
        } else if (chance(r, 0.55)) {
          set.sideways = int(r, 0, set.tiles.length - 1);
        }
        melds.push(set);
      } else {
        concealed.push(set);
      }
    }
    for (let tries = 0; tries < 50; tries++) {
      const t = chance(r, honorP) ? pick(r, HONORS) : suitedTile(int(r, 1, 9), pick(r, SUITED));
      if (take(t, 2)) {
        concealed.push({ tiles: [t, t], kind: 'pair', exposed: false });
        break;
      }
    }
  }
  const flowers: string[] = [];
  const nf = weighted(r, [[0, 3], [1, 3], [2, 3], [3, 2], [4, 1.5], [8, 0.4]] as const);
  const pool = shuffle(r, [...FLOWERS]);
  for (let i = 0; i < Math.min(nf, 8); i++) flowers.push(pool[i]);
  const extraBacks = chance(r, 0.12) ? int(r, 1, 6) : 0;
  return { concealed, melds, flowers, extraBacks };
}

export interface Placed {
  code: string; // tile code; 'back' for face-down tiles
  /** centre in plane units (tile short side = 1) */
  x: number;
  y: number;
  /** in-plane rotation in degrees (0 upright, 90 sideways, 180 upside down) + jitter */
  rot: number;
  sideways: boolean;
  upsideDown: boolean;
  group: number;
  row: number;
}

export interface LayoutOpts {
  aspect: number; // tile height / width
}

/** Lay the hand out on the table plane. Returns tiles in plane units. */
export function layoutHand(r: Rng, hand: Hand, opts: LayoutOpts): Placed[] {
  const A = opts.aspect;
  const out: Placed[] = [];
  const upP = chance(r, 0.5) ? uni(r, 0, 0.15) : 0;
  const jit = uni(r, 0, 0.04);
  const rotJit = uni(r, 0, 2.5);
  const tileGap = uni(r, 0.0, 0.08);
  const groupGap = uni(r, 0.3, 1.4);
  const style = weighted(r, [['one', 3], ['two', 5], ['grid', 1.2]] as const);
  let group = 0;

  // concealed tiles: sorted or as sets
  const conc: { code: string; group: number }[] = [];
  hand.concealed.forEach((s) => {
    for (const t of s.tiles) conc.push({ code: t, group });
    group++;
  });
  const order = CLASSES;
  if (chance(r, 0.6)) conc.sort((a, b) => order.indexOf(a.code) - order.indexOf(b.code));
  else if (chance(r, 0.3)) shuffle(r, conc);

  const faceUp = (code: string, x: number, y: number, g: number, row: number, side = false) => {
    const up = !side && chance(r, upP);
    const base = side ? (chance(r, 0.5) ? 90 : -90) : up ? 180 : 0;
    out.push({
      code, x: x + (r() - 0.5) * jit, y: y + (r() - 0.5) * jit,
      rot: base + (r() - 0.5) * 2 * rotJit, sideways: side, upsideDown: up, group: g, row,
    });
  };

  if (style === 'grid') {
    const all: { code: string; group: number; down?: boolean }[] = [...conc];
    for (const m of hand.melds) {
      m.tiles.forEach((t, j) => all.push({ code: m.faceDown?.[j] ? 'back' : t, group }));
      group++;
    }
    const fg = group++;
    for (const f of hand.flowers) all.push({ code: f, group: fg });
    const cols = int(r, 4, 8);
    const gx = 1 + uni(r, 0.3, 0.7);
    const gy = A + uni(r, 0.3, 0.7);
    all.forEach((t, i) => {
      const c = i % cols;
      const rw = Math.floor(i / cols);
      const up = chance(r, upP);
      out.push({
        code: t.code, x: c * gx + (r() - 0.5) * 0.16, y: rw * gy + (r() - 0.5) * 0.16,
        rot: (up ? 180 : 0) + (r() - 0.5) * 12, sideways: false, upsideDown: up, group: t.group, row: rw,
      });
    });
  } else {
    let x = 0;
    let y = 0;
    let row = 0;
    // concealed part: one row, or split into two rows (common when photographing a hand)
    const split = style === 'two' && conc.length > 7 && chance(r, hand.melds.length ? 0.25 : 0.6) ? Math.ceil(conc.length / 2) + int(r, -1, 1) : conc.length;
    conc.forEach((t, i) => {
      if (i === split) {
        row++;
        y += A + uni(r, 0.15, 0.8);
        x = uni(r, -0.5, 1.5);
      }
      faceUp(t.code, x + 0.5, y, t.group, row);
      x += 1 + tileGap;
    });
    if (style === 'two' && hand.melds.length > 0) {
      row++;
      y += A + uni(r, 0.3, 1.2);
      x = uni(r, -1, 3);
    } else x += groupGap;
    for (const m of hand.melds) {
      m.tiles.forEach((t, j) => {
        const down = m.faceDown?.[j] ?? false;
        const side = m.sideways === j;
        if (side) {
          faceUp(t, x + A / 2, y + (A - 1) / 2, group, row, true);
          x += A + tileGap;
        } else {
          if (down) {
            out.push({ code: 'back', x: x + 0.5, y, rot: (r() - 0.5) * 2 * rotJit, sideways: false, upsideDown: false, group, row });
          } else faceUp(t, x + 0.5, y, group, row);
          x += 1 + tileGap;
        }
      });
      group++;
      x += groupGap * uni(r, 0.6, 1.2);
    }
    if (hand.flowers.length) {
      const fg = group++;
      const where = r();
      if (where < 0.5) {
        x += groupGap * uni(r, 0.5, 2);
      } else {
        row++;
        const ys = out.map((p) => p.y);
        y = where < 0.75 ? Math.max(...ys) + A + uni(r, 0.4, 1.5) : Math.min(...ys) - A - uni(r, 0.4, 1.5);
        x = uni(r, -1, 6);
      }
      for (const f of hand.flowers) {
        faceUp(f, x + 0.5, y, fg, row);
        x += 1 + tileGap;
      }
    }
  }
  if (hand.extraBacks > 0) {
    const g = group++;
    const minY = Math.min(...out.map((p) => p.y));
    const y = minY - A - uni(r, 0.8, 2.5);
    let x = uni(r, -1, 8);
    const row = Math.max(...out.map((p) => p.row)) + 1;
    for (let i = 0; i < hand.extraBacks; i++) {
      out.push({ code: 'back', x: x + 0.5, y, rot: (r() - 0.5) * 6, sideways: false, upsideDown: false, group: g, row });
      x += 1 + tileGap;
    }
  }
  return out;
}

/** Sample one scene's tile list without rendering (used by tests and stats). */
export function sampleCodes(r: Rng): string[] {
  const hand = sampleHand(r);
  return layoutHand(r, hand, { aspect: 1.35 }).map((p) => p.code);
}

/**
 * Generator 1.8.0 (`--set-grids`): not a hand but a set laid out in a grid, as players and
 * referees photograph a set (or part of one) to check it: 18-48 tiles in rows of 5-12, often flush
 * (rows and columns touching), either suit by suit in order or drawn at random (at most four of a
 * tile, one of each flower), a few turned upside down, sometimes a face-down tile or two.
 */
export function layoutSetGrid(r: Rng, aspect: number, tiles: readonly [number, number] = [18, 48]): Placed[] {
  const A = aspect;
  const n = int(r, tiles[0], tiles[1]);
  const codes: string[] = [];
  const count = new Map<string, number>();
  // a set has four of each tile and one of each flower (face-down tiles: at most four here)
  const add = (c: string) => {
    if ((count.get(c) ?? 0) >= (c.startsWith('f') ? 1 : 4)) return;
    count.set(c, (count.get(c) ?? 0) + 1);
    codes.push(c);
  };
  const faces = CLASSES.filter((c) => c !== 'back');
  if (chance(r, 0.45)) {
    // a reference sheet: runs of one suit, honours, flowers, in order from a random start
    let i = int(r, 0, faces.length - 1);
    const copies = chance(r, 0.7) ? 1 : int(r, 2, 4);
    for (let tries = 0; codes.length < n && tries < 4 * faces.length; tries++, i++) {
      const c = faces[i % faces.length]!;
      for (let j = 0; j < copies && codes.length < n; j++) add(c);
    }
  } else {
    for (let tries = 0; codes.length < n && tries < Math.max(500, 20 * n); tries++) add(chance(r, 0.04) ? 'back' : pick(r, faces));
  }
  const cols = chance(r, 0.5) ? 9 : int(r, 5, 12);
  const flushX = chance(r, 0.6);
  const gx = 1 + (flushX ? uni(r, 0, 0.04) : uni(r, 0.05, 0.4));
  const gy = A + (chance(r, 0.5) ? uni(r, 0, 0.06) : uni(r, 0.1, 0.7));
  const upP = weighted(r, [[0, 3], [0.1, 2], [0.3, 1], [1, 0.5]] as const);
  const rotJit = uni(r, 0, 3);
  const jit = uni(r, 0, flushX ? 0.02 : 0.08);
  return codes.map((code, i) => {
    const c = i % cols, row = Math.floor(i / cols);
    const up = code !== 'back' && chance(r, upP);
    return {
      code, x: c * gx + (r() - 0.5) * jit, y: row * gy + (r() - 0.5) * jit,
      rot: (up ? 180 : 0) + (r() - 0.5) * 2 * rotJit, sideways: false, upsideDown: up, group: row, row,
    };
  });
}

/**
 * Generator 1.9.0 (`--close-ups`): the part of a layout a player photographs from close by, a
 * meld or a few tiles filling much of the frame: a run of 2-8 neighbours from one row, and now
 * and then the tiles of the other rows that lie across from it. Positions are kept.
 */
export function closeUpWindow(r: Rng, placed: readonly Placed[]): Placed[] {
  if (placed.length <= 2) return [...placed];
  const rows = [...new Set(placed.map((p) => p.row))];
  const row = pick(r, rows);
  const line = placed.filter((p) => p.row === row).sort((a, b) => a.x - b.x);
  const k = Math.min(line.length, int(r, 2, 8));
  const start = int(r, 0, line.length - k);
  const run = line.slice(start, start + k);
  if (rows.length > 1 && chance(r, 0.3)) {
    const x0 = run[0]!.x - 0.5, x1 = run[run.length - 1]!.x + 0.5;
    return placed.filter((p) => run.includes(p) || (p.row !== row && p.x >= x0 && p.x <= x1));
  }
  return run;
}

/**
 * Generator 1.11.0 (`--apart`): the tiles a player lays aside, flowers and seasons and spare
 * face-down tiles, put down one by one round the hand instead of in a line beside it: each 1-5
 * tile lengths out from the hand's outline, at its own angle, sometimes sideways or upside down,
 * never touching another tile. The detector, trained on flowers in a line next to the hand, gave
 * a lone flower on an unseen cloth a score of 0.17. Each moved tile gets a group of its own.
 */
export function scatterApart(r: Rng, placed: readonly Placed[], aspect: number): Placed[] {
  // flowers, and face-down tiles in groups with no face up (spare tiles; a concealed kong shows two faces)
  const faced = new Set(placed.filter((p) => p.code !== 'back').map((p) => p.group));
  const aside = (p: Placed) => FLOWERS.includes(p.code) || (p.code === 'back' && !faced.has(p.group));
  const move = placed.filter(aside);
  const keep = placed.filter((p) => !aside(p));
  if (!move.length || !keep.length) return [...placed];
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const p of keep) { x0 = Math.min(x0, p.x - 0.5); x1 = Math.max(x1, p.x + 0.5); y0 = Math.min(y0, p.y - aspect / 2); y1 = Math.max(y1, p.y + aspect / 2); }
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  let group = Math.max(...placed.map((p) => p.group)) + 1;
  const row = Math.max(...placed.map((p) => p.row)) + 1;
  const out = [...keep];
  for (const p of move) {
    for (let tries = 0; tries < 40; tries++) {
      const ang = uni(r, 0, 2 * Math.PI);
      const dist = uni(r, 1, 5) * aspect;
      // from the centre, out along the angle to the outline, then dist beyond it
      const dx = Math.cos(ang), dy = Math.sin(ang);
      const tEdge = Math.min(Math.abs((x1 - cx) / (dx || 1e-9)), Math.abs((y1 - cy) / (dy || 1e-9)));
      const x = cx + dx * (tEdge + dist), y = cy + dy * (tEdge + dist);
      if (out.some((q) => Math.hypot(q.x - x, q.y - y) < 1.3 * aspect)) continue;
      // as faceUp draws them: sideways is +-90, upside down 180
      const turn = weighted(r, [[0, 6], [90, 1], [-90, 1], [180, 1.5]] as const);
      out.push({ ...p, x, y, rot: turn + uni(r, -25, 25), sideways: turn === 90 || turn === -90, upsideDown: turn === 180, group: group++, row });
      break;
    }
  }
  return out;
}
