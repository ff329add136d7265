/**
 * The server's reading of a hand (docs/event-api.md, "Re-scoring"): a scored win is re-scored
 * by the shared engine from the tiles and conditions in its link, and the phone's total is only
 * compared, never trusted. Pure; the engine is the same one the phones run.
 */
import { getRuleset, parseHand, rulesetIds } from '../engine/index.ts';
import { minWinPoints, validateSheetHand, isSheetError, type SheetHand, type SheetRules } from '../engine/sheet.ts';
import { readShareLink, isShareError } from '../engine/share/codec.ts';
import { EventApiError, type HandCheck } from './protocol.ts';

/** The engine's reading of one link (or why there is none); cached, since a sheet is re-read often. */
interface LinkReading {
  points?: number;
  selfDrawn?: boolean;
  ruleset?: string;
  /** Why the link gives no trustworthy total. */
  problem?: string;
}

const CACHE_SIZE = 5_000;
const cache = new Map<string, LinkReading>();

function readLink(link: string): LinkReading {
  const hit = cache.get(link);
  if (hit) return hit;
  let reading: LinkReading;
  try {
    const claim = readShareLink(link);
    if (!rulesetIds().includes(claim.ruleset)) {
      reading = { problem: `the link is scored by "${claim.ruleset}", which the server does not know` };
    } else {
      const result = getRuleset(claim.ruleset).score(parseHand(claim.notation), claim.ctx);
      reading = result.validWin
        ? { points: result.total, selfDrawn: claim.ctx.selfDrawn, ruleset: claim.ruleset }
        : { ruleset: claim.ruleset, problem: `the tiles in the link are not a winning hand: ${result.error?.message ?? 'no valid reading'}` };
    }
  } catch (e) {
    reading = { problem: `the link cannot be read: ${isShareError(e) || e instanceof Error ? e.message : String(e)}` };
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(link, reading);
  return reading;
}

/**
 * Check a hand's own fields against the sheet's rules (winner, discarder, minimum, penalties).
 * Throws EventApiError INVALID_HAND with the sheet's message.
 */
export function assertValidHand(hand: SheetHand, rules: SheetRules, where: string): void {
  try {
    validateSheetHand(hand, 0, rules);
  } catch (e) {
    if (isSheetError(e)) throw new EventApiError('INVALID_HAND', 400, `${where}: ${e.field ? `field "${e.field}": ` : ''}${e.detail}`);
    throw e;
  }
}

/** The server's reading of a hand of a table playing `rules`. */
export function checkHand(hand: SheetHand, rules: SheetRules): HandCheck {
  if (hand.kind === 'draw') return { status: 'ok', tablePoints: 0 };
  const tablePoints = hand.points;
  if (hand.link === undefined) {
    // A typed hand carries no tiles: only the sheet's own rules can be checked (validateSheetHand).
    return hand.points >= minWinPoints(rules)
      ? { status: 'typed', tablePoints }
      : { status: 'flagged', tablePoints, reason: `a win needs at least ${minWinPoints(rules)} ${rules === 'fan-pays' ? 'fan' : 'points'}` };
  }
  const r = readLink(hand.link);
  if (r.ruleset !== undefined && r.ruleset !== rules) {
    return { status: 'flagged', tablePoints, reason: `the hand was scored by ${r.ruleset} rules, but the table plays ${rules}` };
  }
  if (r.points === undefined) return { status: 'flagged', tablePoints, reason: r.problem ?? 'the link gives no total' };
  if (r.selfDrawn !== hand.selfDrawn) {
    return {
      status: 'flagged', serverPoints: r.points, tablePoints,
      reason: `the link says the win was ${r.selfDrawn ? 'self-drawn' : 'on a discard'}, the sheet says ${hand.selfDrawn ? 'self-drawn' : 'on a discard'}`,
    };
  }
  if (r.points !== hand.points) {
    return { status: 'flagged', serverPoints: r.points, tablePoints, reason: `the table wrote ${hand.points}, the engine scores the tiles ${r.points}` };
  }
  return { status: 'ok', serverPoints: r.points, tablePoints };
}
