/**
 * Verifiable hand links: a scored hand in the URL fragment `#/h/<payload>`.
 *
 * The fragment never reaches a server, so sharing sends nothing anywhere.
 *
 * payload = base64url(JSON { v, r, h, c, t }) "." crc32hex(base64url part)
 *   v  format version (1)
 *   r  ruleset id, as in ScoreResult.ruleset
 *   h  hand notation (formatHand)
 *   c  the WinContext, with short keys; false / null / 0 are left out
 *   t  the total the hand scored when it was shared
 *
 * Opening a link checks two things before showing anything:
 * 1. the CRC-32 matches, so a damaged or hand-edited link is refused;
 * 2. the engine scores the hand again and gets the same total, so a link whose
 *    checksum was recomputed after an edit still cannot show a wrong score.
 * There is no secret key in an offline app, so a link cannot be signed; what the
 * referee sees is always the engine's own score of the tiles in the link.
 */
import { z } from 'zod';
import type { Hand, ScoreResult, WinContext } from '../../engine/index.ts';
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

const wind = z.enum(['E', 'S', 'W', 'N']);
const flag = z.union([z.literal(0), z.literal(1)]).optional();

const payloadSchema = z.object({
  v: z.number(),
  r: z.string().min(1),
  h: z.string().min(1).max(200),
  c: z.object({
    s: wind,
    p: wind,
    sd: flag,
    d: wind.optional(),
    lk: flag,
    lw: flag,
    rt: flag,
    rk: flag,
    f: z.number().int().min(0).max(8).optional(),
  }).strict(),
  t: z.number().int(),
}).strict();

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
  return c as Payload['c'];
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
    c: contextToShort(input.ctx),
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

/**
 * Check and open a hand link. Throws ShareError when the link is damaged, was
 * edited, or scores differently now than when it was shared.
 */
export function decodeShareLink(link: string, engine: ShareEngine): SharedHand {
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
  const score = engine.scorer(parsed.r);
  if (!score) throw new ShareError('UNSUPPORTED', `This hand link uses the ruleset "${parsed.r}", which this app does not know.`);

  const ctx = contextFromShort(parsed.c);
  let hand: Hand;
  let result: ScoreResult;
  try {
    hand = engine.parseHand(parsed.h);
    result = score(hand, ctx);
  } catch (e) {
    throw new ShareError('INVALID_HAND', `The hand in this link cannot be scored: ${(e as Error).message}`);
  }
  if (result.total !== parsed.t) {
    throw new ShareError('SCORE_MISMATCH', `This hand link claims ${parsed.t} points, but the hand in it scores ${result.total}. The link was changed, or made by a different scorer; do not use its score.`);
  }
  return { notation: parsed.h, hand, ctx, ruleset: parsed.r, result };
}
