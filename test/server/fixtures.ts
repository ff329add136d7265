/**
 * Hands for the event-server tests and the bench: real MCR hands with their hand links, scored
 * by the engine, as a phone would put them on a sheet.
 */
import { defaultContext, formatHand, parseHand, scoreMcr, type WinContext } from '../../src/engine/index.ts';
import { seatingOf, type SheetHand } from '../../src/engine/sheet.ts';
import { encodeSharePayload } from '../../src/engine/share/codec.ts';

export interface LinkedHand {
  notation: string;
  ctx: WinContext;
  total: number;
  link: string;
}

const HANDS: { notation: string; ctx: WinContext }[] = [
  { notation: '[EEE1][SSSS1]55pWWWNNN', ctx: defaultContext({ selfDrawn: true }) },
  { notation: '123m456m789m123p55p', ctx: defaultContext({ seatWind: 'E', discarder: 'S' }) },
  { notation: '11122233345556m', ctx: defaultContext({ seatWind: 'W', prevalentWind: 'N', selfDrawn: true, lastTileOfWall: true, flowers: 8 }) },
  { notation: '[234s1]123456789p55s', ctx: defaultContext({ seatWind: 'W', discarder: 'N', flowers: 1 }) },
  { notation: '123m456m789m11p123p', ctx: defaultContext({ selfDrawn: true }) },
  { notation: '11223344556677m', ctx: defaultContext({ seatWind: 'E', discarder: 'N' }) },
  { notation: '19m19p19sESWNCFPE', ctx: defaultContext({ discarder: 'S' }) },
  { notation: '[WWW1][NNN1]11sEEESSS', ctx: defaultContext({ seatWind: 'S', selfDrawn: true }) },
];

export const LINKED: readonly LinkedHand[] = HANDS.map(({ notation, ctx }) => {
  const hand = parseHand(notation);
  const result = scoreMcr(hand, ctx);
  if (!result.validWin) throw new Error(`fixture ${notation} is not a win`);
  const link = `http://127.0.0.1:8080/${'#/h/'}${encodeSharePayload({ hand, ctx, result }, { formatHand })}`;
  return { notation, ctx, total: result.total, link };
});

const linkCache = new Map<string, { link: string; total: number }>();

/** The fixture hand's link scored with the given winds, as the phone would have scored it. */
function linkFor(k: number, ctx: WinContext): { link: string; total: number } {
  const key = `${k}:${ctx.seatWind}${ctx.prevalentWind}${ctx.discarder ?? '-'}`;
  let hit = linkCache.get(key);
  if (!hit) {
    const hand = parseHand(LINKED[k].notation);
    const result = scoreMcr(hand, ctx);
    if (!result.validWin) throw new Error(`fixture ${LINKED[k].notation} is not a win with ${key}`);
    hit = { link: `http://127.0.0.1:8080/#/h/${encodeSharePayload({ hand, ctx, result }, { formatHand })}`, total: result.total };
    linkCache.set(key, hit);
  }
  return hit;
}

/**
 * A scored win as the phone puts it on an MCR sheet as hand `hand` (0-based, default 0): the link
 * carries the winner's and the discarder's seat winds and the round's wind of that hand (003).
 * `points` overrides the total (a wrong one).
 */
export function scoredWin(k: number, winner: number, opts: { points?: number; discarder?: number; hand?: number } = {}): SheetHand {
  const idx = k % LINKED.length;
  const seating = seatingOf(opts.hand ?? 0);
  const selfDrawn = LINKED[idx].ctx.selfDrawn;
  const discarder = selfDrawn ? null : opts.discarder ?? (winner + 1) % 4;
  const { link, total } = linkFor(idx, {
    ...LINKED[idx].ctx,
    seatWind: seating.seatWinds[winner],
    prevalentWind: seating.prevalentWind,
    discarder: discarder === null ? null : seating.seatWinds[discarder],
  });
  return { kind: 'win', winner, selfDrawn, discarder, points: opts.points ?? total, source: 'scored', link, penalties: [] };
}

/** A win typed in (no tiles). */
export function typedWin(winner: number, points: number, discarder: number | null = null): SheetHand {
  return { kind: 'win', winner, selfDrawn: discarder === null, discarder, points, source: 'typed', penalties: [] };
}

export const DRAW: SheetHand = { kind: 'draw', penalties: [] };

export const names = (n: number): string[] => Array.from({ length: n }, (_, i) => `Player ${String(i + 1).padStart(3, '0')}`);
