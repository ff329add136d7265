/**
 * Verifiable hand links: a scored hand in the URL fragment `#/h/<payload>`.
 *
 * The fragment never reaches a server, so sharing sends nothing anywhere.
 *
 * payload = base64url(JSON { v, r, h, c, t }) "." crc32hex(base64url part)
 *   v  format version (1)
 *   r  ruleset id, as in ScoreResult.ruleset
 *   h  hand notation (formatHand)
 *   c  the WinContext, with short keys; false / null / 0 are left out. A Fan Pays
 *      hand adds the card-002 fields of FanPaysContext (dealer, run of wins,
 *      flowers by seat, flower wall, blessings, secret kongs, fan value), so it
 *      scores again exactly; an MCR link carrying any of them is refused.
 *   t  the total the hand scored when it was shared
 *
 * Opening a link checks two things before showing anything:
 * 1. the CRC-32 matches, so a damaged or hand-edited link is refused;
 * 2. the engine scores the hand again and gets the same total, so a link whose
 *    checksum was recomputed after an edit still cannot show a wrong score.
 * There is no secret key in an offline app, so a link cannot be signed; what the
 * referee sees is always the engine's own score of the tiles in the link.
 */
import * as z from 'zod/mini';
import type { FanPaysContext, Hand, ScoreResult, WinContext } from '../index.ts';
import { crc32Hex } from './crc32.ts';

export const SHARE_VERSION = 1;
export const SHARE_ROUTE = '#/h/';

export type ShareErrorCode =
  | 'NOT_A_HAND_LINK'
  | 'DAMAGED'
  | 'MALFORMED'
  | 'UNSUPPORTED'
  | 'INVALID_HAND'
  | 'SCORE_MISMATCH';

/** Why a hand link cannot be shown. `message` is for the player (English); the UI translates by `code`. */
export class ShareError extends Error {
  readonly code: ShareErrorCode;
  constructor(code: ShareErrorCode, message: string) {
    super(message);
    this.name = 'ShareError';
    this.code = code;
  }
}

export const isShareError = (e: unknown): e is ShareError => e instanceof ShareError;

/** The engine functions the codec needs (injected, so the codec itself stays pure and testable). */
export interface ShareEngine {
  formatHand(hand: Hand): string;
  /** Throws on bad notation. */
  parseHand(notation: string): Hand;
  /** The scorer for a ruleset id, or undefined when this build does not know the ruleset. */
  scorer(ruleset: string): ((hand: Hand, ctx: WinContext) => ScoreResult) | undefined;
}

export interface SharedHand {
  notation: string;
  hand: Hand;
  ctx: WinContext;
  ruleset: string;
  /** The engine's score of the hand now; `result.total` equals the shared total. */
  result: ScoreResult;
}

// Short keys for the context. `satisfies` makes the compiler flag a WinContext
// field that has no key here, so a new condition cannot be silently dropped.
const CTX_KEYS = {
  seatWind: 's',
  prevalentWind: 'p',
  selfDrawn: 'sd',
  discarder: 'd',
  lastOfKind: 'lk',
  lastTileOfWall: 'lw',
  replacementTile: 'rt',
  robbingKong: 'rk',
  flowers: 'f',
} as const satisfies Record<keyof WinContext, string>;

/** Short keys of the Fan Pays fields; `satisfies` flags a new FanPaysContext field with no key. */
const FP_KEYS = {
  dealer: 'dl',
  dealerStreak: 'ds',
  flowersBySeat: 'fs',
  flowerWallWin: 'fw',
  firstDiscardWin: 'b1',
  firstDrawWin: 'b2',
  dealerOpensWithMj: 'dm',
  claimedFirstDealerDiscard: 'cf',
  secretKongs: 'sk',
  fanValue: 'fv',
} as const satisfies Record<Exclude<keyof FanPaysContext, keyof WinContext>, string>;

const FAN_PAYS_RULESET = 'fan-pays';
const FLOWER_BASE = 34;

const wind = z.enum(['E', 'S', 'W', 'N']);
const flag = z.optional(z.union([z.literal(0), z.literal(1)]));
/** Flower tiles as their numbers 1..8, e.g. "134". */
const flowerDigits = z.optional(z.string().check(z.regex(/^[1-8]{1,8}$/)));
const intIn = (min: number, max: number) => z.optional(z.int().check(z.minimum(min), z.maximum(max)));

const payloadSchema = z.strictObject({
  v: z.number(),
  r: z.string().check(z.minLength(1)),
  h: z.string().check(z.minLength(1), z.maxLength(200)),
  c: z.strictObject({
    s: wind,
    p: wind,
    sd: flag,
    d: z.optional(wind),
    lk: flag,
    lw: flag,
    rt: flag,
    rk: flag,
    f: intIn(0, 8),
    dl: z.optional(wind),
    ds: intIn(1, 999),
    fs: z.optional(z.strictObject({ E: flowerDigits, S: flowerDigits, W: flowerDigits, N: flowerDigits })),
    fw: flag,
    b1: flag,
    b2: flag,
    dm: flag,
    cf: flag,
    sk: z.optional(z.string().check(z.regex(/^[ESWN]{1,16}$/))),
    fv: z.optional(z.number().check(z.positive(), z.maximum(1e6))),
  }),
  t: z.int(),
});

type Payload = z.infer<typeof payloadSchema>;

function contextToShort(ctx: WinContext): Payload['c'] {
  const k = CTX_KEYS;
  const c: Record<string, string | number> = { [k.seatWind]: ctx.seatWind, [k.prevalentWind]: ctx.prevalentWind };
  if (ctx.selfDrawn) c[k.selfDrawn] = 1;
  if (ctx.discarder) c[k.discarder] = ctx.discarder;
  if (ctx.lastOfKind) c[k.lastOfKind] = 1;
  if (ctx.lastTileOfWall) c[k.lastTileOfWall] = 1;
  if (ctx.replacementTile) c[k.replacementTile] = 1;
  if (ctx.robbingKong) c[k.robbingKong] = 1;
  if (ctx.flowers) c[k.flowers] = ctx.flowers;
  return c as unknown as Payload['c'];
}

/** The card-002 fields, short; defaults (dealer East, no run, fan value 1, nothing else) are left out. */
function fanPaysToShort(ctx: FanPaysContext): Partial<Payload['c']> {
  const k = FP_KEYS;
  const c: Record<string, unknown> = {};
  if (ctx.dealer && ctx.dealer !== 'E') c[k.dealer] = ctx.dealer;
  if (ctx.dealerStreak) c[k.dealerStreak] = ctx.dealerStreak;
  const seats = Object.entries(ctx.flowersBySeat ?? {}).filter(([, list]) => list && list.length);
  if (seats.length) c[k.flowersBySeat] = Object.fromEntries(seats.map(([w, list]) => [w, list!.map((t) => String(t - FLOWER_BASE + 1)).join('')]));
  if (ctx.flowerWallWin) c[k.flowerWallWin] = 1;
  if (ctx.firstDiscardWin) c[k.firstDiscardWin] = 1;
  if (ctx.firstDrawWin) c[k.firstDrawWin] = 1;
  if (ctx.dealerOpensWithMj) c[k.dealerOpensWithMj] = 1;
  if (ctx.claimedFirstDealerDiscard) c[k.claimedFirstDealerDiscard] = 1;
  if (ctx.secretKongs?.length) c[k.secretKongs] = ctx.secretKongs.join('');
  if (ctx.fanValue !== undefined && ctx.fanValue !== 1) c[k.fanValue] = ctx.fanValue;
  return c as Partial<Payload['c']>;
}

const hasFanPaysKeys = (c: Payload['c']): boolean => Object.values(FP_KEYS).some((key) => c[key] !== undefined);

function fanPaysFromShort(c: Payload['c']): Omit<FanPaysContext, keyof WinContext> {
  const flowersBySeat: FanPaysContext['flowersBySeat'] = {};
  for (const [w, digits] of Object.entries(c.fs ?? {})) {
    if (digits) flowersBySeat[w as keyof typeof flowersBySeat] = [...digits].map((d) => FLOWER_BASE + Number(d) - 1);
  }
  return {
    dealer: c.dl ?? 'E',
    dealerStreak: c.ds ?? 0,
    flowersBySeat,
    flowerWallWin: c.fw === 1,
    firstDiscardWin: c.b1 === 1,
    firstDrawWin: c.b2 === 1,
    dealerOpensWithMj: c.dm === 1,
    claimedFirstDealerDiscard: c.cf === 1,
    secretKongs: [...(c.sk ?? '')] as FanPaysContext['secretKongs'],
    fanValue: c.fv ?? 1,
  };
}

function contextFromShort(c: Payload['c']): WinContext {
  return {
    seatWind: c.s,
    prevalentWind: c.p,
    selfDrawn: c.sd === 1,
    discarder: c.d ?? null,
    lastOfKind: c.lk === 1,
    lastTileOfWall: c.lw === 1,
    replacementTile: c.rt === 1,
    robbingKong: c.rk === 1,
    flowers: c.f ?? 0,
  };
}

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(b64: string): string {
  const std = b64.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(std + '='.repeat((4 - (std.length % 4)) % 4));
  const bytes = Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

export interface ShareInput {
  hand: Hand;
  ctx: WinContext;
  /** The result the hand scored: its ruleset and total go into the link. */
  result: Pick<ScoreResult, 'ruleset' | 'total'>;
}

/** The payload part of a hand link (what follows `#/h/`). */
export function encodeSharePayload(input: ShareInput, engine: Pick<ShareEngine, 'formatHand'>): string {
  const payload: Payload = {
    v: SHARE_VERSION,
    r: input.result.ruleset,
    h: engine.formatHand(input.hand),
    c: input.result.ruleset === FAN_PAYS_RULESET
      ? { ...contextToShort(input.ctx), ...fanPaysToShort(input.ctx as FanPaysContext) }
      : contextToShort(input.ctx),
    t: input.result.total,
  };
  const body = toBase64Url(JSON.stringify(payload));
  return `${body}.${crc32Hex(body)}`;
}

/** A full link: `base` (the app's address, without fragment) + `#/h/` + payload. */
export function shareUrl(payload: string, base: string): string {
  return `${base.replace(/#.*$/, '')}${SHARE_ROUTE}${payload}`;
}

/**
 * The payload from a URL, a fragment (`#/h/...`) or a bare payload; null when the
 * text is a URL or fragment of some other page.
 */
export function payloadFromLink(link: string): string | null {
  const text = link.trim();
  const at = text.indexOf(SHARE_ROUTE);
  if (at >= 0) return text.slice(at + SHARE_ROUTE.length);
  if (text.includes('#') || text.includes('/')) return null;
  return text;
}

const DAMAGED = 'This hand link is damaged or was changed after it was made (its checksum does not match), so it cannot be trusted. Ask for the link or QR code again.';

/** A hand link read and checked for damage, not yet scored: what it claims. */
export interface ShareClaim {
  notation: string;
  ctx: WinContext;
  ruleset: string;
  /** The total the hand scored when it was shared. */
  total: number;
}

/**
 * Read a hand link without scoring it: the checksum, the format and the conditions are checked.
 * The event server uses this to re-score a hand and compare totals itself. Throws ShareError.
 */
export function readShareLink(link: string): ShareClaim {
  const payload = payloadFromLink(link);
  if (payload === null || payload === '') {
    throw new ShareError('NOT_A_HAND_LINK', 'This is not a hand link: it should contain "#/h/" followed by the hand.');
  }
  let decodedPayload = payload;
  try {
    // A link pasted from some apps arrives percent-encoded.
    decodedPayload = decodeURIComponent(payload);
  } catch { /* not percent-encoded: use it as it is */ }
  const dot = decodedPayload.lastIndexOf('.');
  if (dot < 0) throw new ShareError('DAMAGED', DAMAGED);
  const body = decodedPayload.slice(0, dot);
  const sum = decodedPayload.slice(dot + 1);
  if (!/^[0-9a-f]{8}$/.test(sum) || crc32Hex(body) !== sum) throw new ShareError('DAMAGED', DAMAGED);

  let parsed: Payload;
  try {
    const json: unknown = JSON.parse(fromBase64Url(body));
    const v = (json as { v?: unknown } | null)?.v;
    if (typeof v === 'number' && v > SHARE_VERSION) {
      throw new ShareError('UNSUPPORTED', `This hand link was made by a newer version of the app (format ${v}). Update the app to open it.`);
    }
    parsed = payloadSchema.parse(json);
  } catch (e) {
    if (isShareError(e)) throw e;
    throw new ShareError('MALFORMED', 'This hand link has a valid checksum but its contents cannot be read; it was not made by this app.');
  }
  if (parsed.v !== SHARE_VERSION) {
    throw new ShareError('UNSUPPORTED', `This hand link uses format ${parsed.v}, which this version of the app cannot read.`);
  }
  const fanPays = parsed.r === FAN_PAYS_RULESET;
  if (!fanPays && hasFanPaysKeys(parsed.c)) {
    throw new ShareError('MALFORMED', `This hand link has Fan Pays conditions but says it is scored by "${parsed.r}"; it was not made by this app.`);
  }
  const ctx: WinContext = fanPays ? { ...contextFromShort(parsed.c), ...fanPaysFromShort(parsed.c) } : contextFromShort(parsed.c);
  return { notation: parsed.h, ctx, ruleset: parsed.r, total: parsed.t };
}

/**
 * Check and open a hand link. Throws ShareError when the link is damaged, was
 * edited, or scores differently now than when it was shared.
 */
export function decodeShareLink(link: string, engine: ShareEngine): SharedHand {
  const claim = readShareLink(link);
  const score = engine.scorer(claim.ruleset);
  if (!score) throw new ShareError('UNSUPPORTED', `This hand link uses the ruleset "${claim.ruleset}", which this app does not know.`);
  let hand: Hand;
  let result: ScoreResult;
  try {
    hand = engine.parseHand(claim.notation);
    result = score(hand, claim.ctx);
  } catch (e) {
    throw new ShareError('INVALID_HAND', `The hand in this link cannot be scored: ${(e as Error).message}`);
  }
  if (result.total !== claim.total) {
    throw new ShareError('SCORE_MISMATCH', `This hand link claims ${claim.total} points, but the hand in it scores ${result.total}. The link was changed, or made by a different scorer; do not use its score.`);
  }
  return { notation: claim.notation, hand, ctx: claim.ctx, ruleset: claim.ruleset, result };
}
