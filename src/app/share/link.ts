/**
 * Hand links bound to the real engine. Components use these; tests of the codec
 * alone may inject another ShareEngine.
 */
import { formatHand, getRuleset, parseHand, rulesetIds, type Hand, type ScoreResult, type WinContext } from '../../engine/index.ts';
import { decodeShareLink, encodeSharePayload, shareUrl, type ShareEngine, type SharedHand } from './codec.ts';

export const engineForShare: ShareEngine = {
  formatHand: (hand) => formatHand(hand),
  parseHand: (notation) => parseHand(notation),
  // Any registered ruleset (ScoreResult.ruleset is its id).
  scorer: (ruleset) => {
    if (!rulesetIds().includes(ruleset)) return undefined;
    const r = getRuleset(ruleset);
    return (hand, ctx) => r.score(hand, ctx);
  },
};

/** The payload (after `#/h/`) for a scored hand. */
export function handLinkPayload(hand: Hand, ctx: WinContext, result: Pick<ScoreResult, 'ruleset' | 'total'>): string {
  return encodeSharePayload({ hand, ctx, result }, engineForShare);
}

/** The full link for a scored hand; `base` defaults to this page without its fragment. */
export function handLink(hand: Hand, ctx: WinContext, result: Pick<ScoreResult, 'ruleset' | 'total'>, base?: string): string {
  return shareUrl(handLinkPayload(hand, ctx, result), base ?? currentBase());
}

/** Open a link, fragment or payload with the engine. Throws ShareError. */
export function openHandLink(link: string): SharedHand {
  return decodeShareLink(link, engineForShare);
}

export function currentBase(): string {
  if (typeof location === 'undefined') return '';
  return `${location.origin}${location.pathname}${location.search}`;
}
