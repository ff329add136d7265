/**
 * Hands for the event-server tests and the bench: real MCR hands with their hand links, scored
 * by the engine, as a phone would put them on a sheet.
 */
import { defaultContext, formatHand, parseHand, scoreMcr, type WinContext } from '../../src/engine/index.ts';
import type { SheetHand } from '../../src/engine/sheet.ts';
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

/** A scored win as the phone puts it on the sheet; `points` overrides the total (a wrong one). */
export function scoredWin(k: number, winner: number, opts: { points?: number; discarder?: number } = {}): SheetHand {
  const h = LINKED[k % LINKED.length];
  const selfDrawn = h.ctx.selfDrawn;
  return {
    kind: 'win', winner, selfDrawn,
    discarder: selfDrawn ? null : opts.discarder ?? (winner + 1) % 4,
    points: opts.points ?? h.total, source: 'scored', link: h.link, penalties: [],
  };
}

/** A win typed in (no tiles). */
export function typedWin(winner: number, points: number, discarder: number | null = null): SheetHand {
  return { kind: 'win', winner, selfDrawn: discarder === null, discarder, points, source: 'typed', penalties: [] };
}

export const DRAW: SheetHand = { kind: 'draw', penalties: [] };

export const names = (n: number): string[] => Array.from({ length: n }, (_, i) => `Player ${String(i + 1).padStart(3, '0')}`);
