/**
 * The server's reading of a hand (docs/event-api.md, "Re-scoring"): a scored win is re-scored
 * by the shared engine from the tiles and conditions in its link, and the phone's total is only
 * compared, never trusted. Pure; the engine is the same one the phones run.
 */
import { getRuleset, parseHand, rulesetIds } from '../engine/index.ts';
import {
  minWinPoints, seatingsOf, validateSheetHand, isSheetError, type HandSeating, type SheetHand, type SheetRules,
} from '../engine/sheet.ts';
import type { Wind } from '../engine/index.ts';
import { readShareLink, isShareError } from '../engine/share/codec.ts';
import { EventApiError, type HandCheck } from './protocol.ts';

/** The engine's reading of one link (or why there is none); cached, since a sheet is re-read often. */
interface LinkReading {
  points?: number;
  selfDrawn?: boolean;
  seatWind?: Wind;
  prevalentWind?: Wind;
  discarder?: Wind | null;
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
        ? {
          points: result.total, selfDrawn: claim.ctx.selfDrawn, ruleset: claim.ruleset,
          seatWind: claim.ctx.seatWind, prevalentWind: claim.ctx.prevalentWind, discarder: claim.ctx.discarder,
        }
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

const WIND_NAMES: Record<Wind, string> = { E: 'East', S: 'South', W: 'West', N: 'North' };

/**
 * Do the link's winds fit the hand's place on the sheet? The seat and prevalent winds score
 * (Seat Wind, Prevalent Wind), so a link from another hand or another seat is flagged.
 */
function windProblem(r: LinkReading, hand: Extract<SheetHand, { kind: 'win' }>, seating: HandSeating): string | null {
  const seat = seating.seatWinds[hand.winner];
  if (r.seatWind !== undefined && r.seatWind !== seat) {
    return `the link scores the winner in the ${WIND_NAMES[r.seatWind]} seat, but on the sheet the winner sits ${WIND_NAMES[seat]} in hand ${seating.handIndex + 1}`;
  }
  if (r.prevalentWind !== undefined && r.prevalentWind !== seating.prevalentWind) {
    return `the link is scored in the ${WIND_NAMES[r.prevalentWind]} round, but hand ${seating.handIndex + 1} is in the ${WIND_NAMES[seating.prevalentWind]} round`;
  }
  if (!hand.selfDrawn && hand.discarder !== null && r.discarder && r.discarder !== seating.seatWinds[hand.discarder]) {
    return `the link has the ${WIND_NAMES[r.discarder]} seat discarding, but on the sheet the discarder sits ${WIND_NAMES[seating.seatWinds[hand.discarder]]}`;
  }
  return null;
}

/**
 * The server's reading of a hand of a table playing `rules`. With `seating` (the hand's place
 * on the sheet) the link's winds are checked too.
 */
export function checkHand(hand: SheetHand, rules: SheetRules, seating?: HandSeating): HandCheck {
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
  const winds = seating ? windProblem(r, hand, seating) : null;
  if (winds) return { status: 'flagged', serverPoints: r.points, tablePoints, reason: winds };
  return { status: 'ok', serverPoints: r.points, tablePoints };
}

/**
 * The server's reading of every hand of a sheet, in play order: each hand re-scored, and its
 * link's winds checked against the seats of its place (document 003; card 002's deal in Fan
 * Pays). When the sheet's deal cannot be worked out (a Fan Pays hand after the game's end) the
 * winds are not checked.
 */
export function checkSheet(hands: readonly SheetHand[], rules: SheetRules): HandCheck[] {
  let seatings: HandSeating[] | null;
  try {
    seatings = seatingsOf({ hands: [...hands], rules }).seatings;
  } catch {
    seatings = null;
  }
  return hands.map((h, i) => checkHand(h, rules, seatings?.[i]));
}
