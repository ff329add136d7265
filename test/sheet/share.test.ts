import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { defaultContext, parseHand, scoreMcr, type WinContext } from '../../src/engine/index.ts';
import { crc32, crc32Hex } from '../../src/app/share/crc32.ts';
import { decodeShareLink, payloadFromLink, shareUrl, ShareError, SHARE_ROUTE } from '../../src/app/share/codec.ts';
import { engineForShare, handLink, handLinkPayload, openHandLink } from '../../src/app/share/link.ts';
import { qrSvg } from '../../src/app/share/qr.ts';

const HANDS: { notation: string; ctx: WinContext }[] = [
  { notation: '[EEE1][SSSS1]55pWWWNNN', ctx: defaultContext({ selfDrawn: true }) },
  { notation: '[123p1][345s2][999s3]78mEE6m', ctx: defaultContext({ seatWind: 'S', prevalentWind: 'W', discarder: 'E', flowers: 3 }) },
  { notation: '[WWW1][NNN1]11sEEESSS', ctx: defaultContext({ seatWind: 'N', discarder: 'W', lastOfKind: true }) },
  { notation: '11122233345556m', ctx: defaultContext({ seatWind: 'W', prevalentWind: 'N', selfDrawn: true, lastTileOfWall: true, flowers: 8 }) },
];

function errorOf(f: () => unknown): ShareError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ShareError);
    return e as ShareError;
  }
  throw new Error('expected a ShareError');
}

/** Rebuild a payload from edited JSON with a correct checksum, as a deliberate forger would. */
function forge(payload: string, edit: (json: Record<string, unknown>) => void): string {
  const body = payload.slice(0, payload.lastIndexOf('.'));
  const json = JSON.parse(atob(body.replace(/-/g, '+').replace(/_/g, '/'))) as Record<string, unknown>;
  edit(json);
  const b64 = btoa(JSON.stringify(json)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${b64}.${crc32Hex(b64)}`;
}

describe('CRC-32', () => {
  it('matches the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789')).toString(16)).toBe('cbf43926');
    expect(crc32Hex('')).toBe('00000000');
  });
});

describe('hand links', () => {
  it.each(HANDS)('round-trip $notation with its full context and score', ({ notation, ctx }) => {
    const hand = parseHand(notation);
    const result = scoreMcr(hand, ctx);
    const link = handLink(hand, ctx, result, 'https://mahjong.example/app/');
    expect(link.startsWith(`https://mahjong.example/app/${SHARE_ROUTE}`)).toBe(true);
    expect(link).toMatch(/^[A-Za-z0-9:/._#-]+$/);
    const opened = openHandLink(link);
    expect(opened.ctx).toEqual(ctx);
    expect(opened.ruleset).toBe('mcr');
    expect(opened.hand).toEqual(hand);
    expect(opened.result.total).toBe(result.total);
    expect(opened.result.fans).toEqual(result.fans);
    // A fragment alone and a bare payload open the same hand.
    expect(openHandLink(link.slice(link.indexOf('#'))).result.total).toBe(result.total);
    expect(openHandLink(handLinkPayload(hand, ctx, result)).result.total).toBe(result.total);
  });

  it('payloadFromLink finds the payload and rejects other pages', () => {
    expect(payloadFromLink('https://a.example/x#/h/abc.123')).toBe('abc.123');
    expect(payloadFromLink('#/h/abc.1')).toBe('abc.1');
    expect(payloadFromLink('https://a.example/#/sheet')).toBeNull();
    expect(shareUrl('p.1', 'https://a.example/?q=1#/old')).toBe('https://a.example/?q=1#/h/p.1');
    expect(errorOf(() => openHandLink('https://a.example/#/sheet')).code).toBe('NOT_A_HAND_LINK');
  });

  it('a damaged link, with any one character changed, opens with a clear error and no score', () => {
    const { notation, ctx } = HANDS[1];
    const hand = parseHand(notation);
    const payload = handLinkPayload(hand, ctx, scoreMcr(hand, ctx));
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    for (let i = 0; i < payload.length; i++) {
      const ch = alphabet[(alphabet.indexOf(payload[i]) + 1) % alphabet.length];
      const damaged = payload.slice(0, i) + ch + payload.slice(i + 1);
      const e = errorOf(() => openHandLink(damaged));
      expect(e.code).toBe('DAMAGED');
      expect(e.message).toMatch(/damaged or was changed/);
    }
  });

  it('random damage (flips, cuts, insertions) is always refused', () => {
    const { notation, ctx } = HANDS[0];
    const hand = parseHand(notation);
    const payload = handLinkPayload(hand, ctx, scoreMcr(hand, ctx));
    fc.assert(fc.property(
      fc.integer({ min: 0, max: payload.length - 1 }),
      fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)),
      fc.constantFrom('replace', 'delete', 'insert'),
      (i, ch, op) => {
        const damaged = op === 'replace' ? payload.slice(0, i) + ch + payload.slice(i + 1)
          : op === 'delete' ? payload.slice(0, i) + payload.slice(i + 1)
          : payload.slice(0, i) + ch + payload.slice(i);
        // whitespace around a pasted link is not damage: the opener trims it (next test)
        fc.pre(damaged.trim() !== payload);
        expect(() => openHandLink(damaged)).toThrow(ShareError);
      },
    ));
  });

  it('whitespace around a pasted link is ignored', () => {
    const { notation, ctx } = HANDS[0];
    const hand = parseHand(notation);
    const payload = handLinkPayload(hand, ctx, scoreMcr(hand, ctx));
    const opened = openHandLink(payload);
    expect(openHandLink(` ${payload}`)).toEqual(opened);
    expect(openHandLink(`${payload}\n`)).toEqual(opened);
  });

  it('a link whose total was changed (checksum recomputed) is refused: the engine scores it again', () => {
    const { notation, ctx } = HANDS[0];
    const hand = parseHand(notation);
    const result = scoreMcr(hand, ctx);
    const forged = forge(handLinkPayload(hand, ctx, result), (j) => { j.t = (j.t as number) + 10; });
    const e = errorOf(() => openHandLink(forged));
    expect(e.code).toBe('SCORE_MISMATCH');
    expect(e.message).toContain(`claims ${result.total + 10} points`);
    expect(e.message).toContain(`scores ${result.total}`);
  });

  it('a link whose conditions were changed but not its total is refused', () => {
    const { notation, ctx } = HANDS[0];
    const hand = parseHand(notation);
    const forged = forge(handLinkPayload(hand, ctx, scoreMcr(hand, ctx)), (j) => { (j.c as Record<string, unknown>).f = 8; });
    expect(errorOf(() => openHandLink(forged)).code).toBe('SCORE_MISMATCH');
  });

  it('refuses unknown rulesets, newer formats, unreadable contents and bad hands', () => {
    const { notation, ctx } = HANDS[0];
    const hand = parseHand(notation);
    const payload = handLinkPayload(hand, ctx, scoreMcr(hand, ctx));
    expect(errorOf(() => openHandLink(forge(payload, (j) => { j.r = 'riichi'; }))).code).toBe('UNSUPPORTED');
    expect(errorOf(() => openHandLink(forge(payload, (j) => { j.v = 2; }))).code).toBe('UNSUPPORTED');
    expect(errorOf(() => openHandLink(forge(payload, (j) => { j.c = { s: 'X' }; }))).code).toBe('MALFORMED');
    const badHand = errorOf(() => openHandLink(forge(payload, (j) => { j.h = '[12E]'; })));
    expect(['INVALID_HAND', 'SCORE_MISMATCH']).toContain(badHand.code);
    const notJson = 'bm90IGpzb24';
    expect(errorOf(() => decodeShareLink(`${notJson}.${crc32Hex(notJson)}`, engineForShare)).code).toBe('MALFORMED');
  });
});

describe('QR code', () => {
  it('draws the link as an SVG', async () => {
    const { notation, ctx } = HANDS[1];
    const hand = parseHand(notation);
    const svg = await qrSvg(handLink(hand, ctx, scoreMcr(hand, ctx), 'https://mahjong.example/'));
    expect(svg).toMatch(/^<svg[^>]*viewBox="0 0 \d+ \d+"/);
    expect(svg).toContain('<path');
  });
});
