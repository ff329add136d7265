/**
 * Hand notation, parse and format. Two notations share one grammar:
 *
 *  - ChineseOfficialMahjongHelper notation (../shared/conformance/README.md):
 *    `[123p1][345s2][999s3]78mEE6m`. Suited tiles are digits then m/p/s; honours
 *    are letters E S W N (winds), C (Red 中), F (Green 發), P (White 白).
 *    A bracket is a declared set with an optional digit: chow 1-3 = which tile was
 *    claimed; pung 1-3 = claimed from left/opposite/right; kong: none = concealed,
 *    1-3 = melded from that player, 5-7 = a pung promoted to a kong.
 *  - MPSZ: `123m456p789s1122z`, honours as digits + z in Tenhou order
 *    (1-4z E S W N, 5z White, 6z Green, 7z Red).
 *
 * Flowers may follow as digits + f (`13f` = f1 and f3). The last tile written
 * outside brackets is the winning tile. Whitespace is ignored.
 */
import { MahjongError } from './errors.ts';
import type { ClaimedFrom, Hand, Meld, WaitingHand } from './hand.ts';
import { FLOWER_BASE, isHonor, rankOf, suitOf, type TileId } from './tiles.ts';

const HONOR_LETTERS: Record<string, TileId> = { E: 27, S: 28, W: 29, N: 30, P: 31, F: 32, C: 33 };
const LETTER_OF_HONOR = ['E', 'S', 'W', 'N', 'P', 'F', 'C'];
const SUIT_BASE: Record<string, number> = { m: 0, p: 9, s: 18, z: 27 };
const CLAIM_FROM: ClaimedFrom[] = ['left', 'opposite', 'right'];

interface Token { tile: TileId; pos: number }

function malformed(message: string, pos: number): MahjongError {
  return new MahjongError('MALFORMED_NOTATION', `${message} (at position ${pos + 1})`, pos);
}

/** Reads tiles from `s[start..end)`; returns tokens and flower ids. */
function readTiles(s: string, start: number, end: number, allowFlowers: boolean): { tiles: Token[]; flowers: TileId[] } {
  const tiles: Token[] = [];
  const flowers: TileId[] = [];
  let digits: { d: number; pos: number }[] = [];
  for (let i = start; i < end; i++) {
    const ch = s[i]!;
    if (ch === ' ' || ch === '\t' || ch === ',') {
      if (digits.length) throw malformed(`digits "${digits.map((d) => d.d).join('')}" have no suit letter`, digits[0]!.pos);
      continue;
    }
    if (ch >= '0' && ch <= '9') { digits.push({ d: ch.charCodeAt(0) - 48, pos: i }); continue; }
    if (ch in SUIT_BASE) {
      if (!digits.length) throw malformed(`suit letter "${ch}" has no digits before it`, i);
      for (const { d, pos } of digits) {
        const max = ch === 'z' ? 7 : 9;
        if (d < 1 || d > max) throw malformed(`"${d}${ch}" is not a tile`, pos);
        tiles.push({ tile: SUIT_BASE[ch]! + d - 1, pos });
      }
      digits = [];
      continue;
    }
    if (ch === 'f') {
      if (!allowFlowers) throw malformed('flowers cannot be inside a set', i);
      if (!digits.length) throw malformed('"f" has no flower numbers before it', i);
      for (const { d, pos } of digits) {
        if (d < 1 || d > 8) throw malformed(`"${d}f" is not a flower (1f..8f)`, pos);
        flowers.push(FLOWER_BASE + d - 1);
      }
      digits = [];
      continue;
    }
    if (ch in HONOR_LETTERS) {
      if (digits.length) throw malformed(`digits "${digits.map((d) => d.d).join('')}" have no suit letter`, digits[0]!.pos);
      tiles.push({ tile: HONOR_LETTERS[ch]!, pos: i });
      continue;
    }
    throw malformed(`unexpected character "${ch}"`, i);
  }
  if (digits.length) throw malformed(`digits "${digits.map((d) => d.d).join('')}" have no suit letter`, digits[0]!.pos);
  return { tiles, flowers };
}

function parseMeld(s: string, open: number, close: number): Meld {
  // An optional claim digit sits just before ']' and right after a suit or honour letter.
  let end = close;
  let digit: number | undefined;
  const last = s[close - 1];
  const before = s[close - 2];
  if (last !== undefined && last >= '0' && last <= '9' && before !== undefined && !(before >= '0' && before <= '9')) {
    digit = last.charCodeAt(0) - 48;
    end = close - 1;
  }
  const { tiles } = readTiles(s, open + 1, end, false);
  const at = open;
  if (tiles.length < 3 || tiles.length > 4) {
    throw new MahjongError('INVALID_MELD', `a declared set has ${tiles.length} tiles; it needs 3 (chow or pung) or 4 (kong) (at position ${at + 1})`, at);
  }
  const t = tiles.map((x) => x.tile);
  const allSame = t.every((x) => x === t[0]);
  if (tiles.length === 4) {
    if (!allSame) throw new MahjongError('INVALID_MELD', `a kong needs four identical tiles (at position ${at + 1})`, at);
    if (digit === undefined) return { kind: 'kong', tile: t[0]!, concealed: true };
    if (digit >= 1 && digit <= 3) return { kind: 'kong', tile: t[0]!, concealed: false, claimedFrom: CLAIM_FROM[digit - 1]! };
    if (digit >= 5 && digit <= 7) return { kind: 'kong', tile: t[0]!, concealed: false, promoted: true, claimedFrom: CLAIM_FROM[digit - 5]! };
    throw malformed(`kong claim digit must be 1-3 (melded) or 5-7 (promoted), not ${digit}`, close - 1);
  }
  if (allSame) {
    if (digit !== undefined && (digit < 1 || digit > 3)) throw malformed(`pung claim digit must be 1-3, not ${digit}`, close - 1);
    return { kind: 'pung', tile: t[0]!, concealed: false, ...(digit ? { claimedFrom: CLAIM_FROM[digit - 1]! } : {}) };
  }
  const sorted = [...t].sort((a, b) => a - b);
  if (sorted.some(isHonor)) {
    throw new MahjongError('HONOR_CHOW', `honours cannot form a chow (at position ${at + 1})`, at);
  }
  const [a, b, c] = sorted as [number, number, number];
  if (!(suitOf(a) === suitOf(c) && b === a + 1 && c === a + 2)) {
    throw new MahjongError('INVALID_MELD', `tiles in a declared set must be three in sequence of one suit, or identical (at position ${at + 1})`, at);
  }
  if (digit !== undefined && (digit < 1 || digit > 3)) throw malformed(`chow claim digit must be 1-3, not ${digit}`, close - 1);
  return { kind: 'chow', tile: a, concealed: false, claimedFrom: 'left', ...(digit ? { claimedIndex: digit - 1 } : {}) };
}

interface Parsed { melds: Meld[]; concealed: TileId[]; flowers: TileId[] }

function parseParts(input: string): Parsed {
  if (typeof input !== 'string') throw new MahjongError('MALFORMED_NOTATION', 'hand notation must be a string', 0);
  const s = input;
  const melds: Meld[] = [];
  const concealed: TileId[] = [];
  const flowers: TileId[] = [];
  let i = 0;
  let segStart = 0;
  const flush = (end: number) => {
    const r = readTiles(s, segStart, end, true);
    for (const t of r.tiles) concealed.push(t.tile);
    flowers.push(...r.flowers);
  };
  while (i < s.length) {
    const ch = s[i];
    if (ch === '[') {
      flush(i);
      if (concealed.length) throw malformed('declared sets in [] must come before the concealed tiles', i);
      const close = s.indexOf(']', i + 1);
      if (close < 0) throw malformed('"[" is never closed', i);
      const nested = s.indexOf('[', i + 1);
      if (nested >= 0 && nested < close) throw malformed('"[" inside another "["', nested);
      melds.push(parseMeld(s, i, close));
      i = close + 1;
      segStart = i;
      continue;
    }
    if (ch === ']') throw malformed('"]" without "["', i);
    i++;
  }
  flush(s.length);
  return { melds, concealed, flowers };
}

/** Parses a winning hand: the last concealed tile is the winning tile. */
export function parseHand(input: string): Hand {
  const p = parseParts(input);
  if (input.trim() === '') throw new MahjongError('MALFORMED_NOTATION', 'the hand is empty', 0);
  const winningTile = p.concealed.pop();
  if (winningTile === undefined) {
    throw new MahjongError('WRONG_TILE_COUNT', 'the hand has no tiles outside the declared sets, so no winning tile', input.length);
  }
  return { melds: p.melds, concealed: p.concealed, winningTile, ...(p.flowers.length ? { flowers: p.flowers } : {}) };
}

/** Parses a hand that is waiting (no winning tile): all concealed tiles are kept. */
export function parseWaitingHand(input: string): WaitingHand {
  const p = parseParts(input);
  return { melds: p.melds, concealed: p.concealed, ...(p.flowers.length ? { flowers: p.flowers } : {}) };
}

export const parseMcrNotation = parseHand;
export const parseMpsz = parseHand;

function groupTiles(tiles: TileId[], honors: 'letters' | 'z', sort: boolean): string {
  const list = sort ? [...tiles].sort((a, b) => a - b) : tiles;
  let out = '';
  let run = '';
  let runSuit = -1;
  const letters = 'mpsz';
  const close = () => { if (run) out += run + letters[runSuit]; run = ''; };
  for (const t of list) {
    const su = suitOf(t);
    if (su === 3 && honors === 'letters') { close(); runSuit = -1; out += LETTER_OF_HONOR[t - 27]; continue; }
    if (su !== runSuit) { close(); runSuit = su; }
    run += String(su === 3 ? t - 26 : rankOf(t));
  }
  close();
  return out;
}

function formatMeld(m: Meld, honors: 'letters' | 'z'): string {
  const tiles = m.kind === 'chow' ? [m.tile, m.tile + 1, m.tile + 2] : Array(m.kind === 'kong' ? 4 : 3).fill(m.tile);
  const body = groupTiles(tiles, honors, false);
  let digit = '';
  const from = m.claimedFrom ? CLAIM_FROM.indexOf(m.claimedFrom) + 1 : 0;
  if (m.kind === 'chow') digit = m.claimedIndex !== undefined ? String(m.claimedIndex + 1) : '';
  else if (m.kind === 'pung') digit = from ? String(from) : '';
  else if (!m.concealed) digit = String((m.promoted ? 4 : 0) + (from || 1));
  return `[${body}${digit}]`;
}

function formatWith(hand: Hand | WaitingHand, honors: 'letters' | 'z'): string {
  let s = hand.melds.map((m) => formatMeld(m, honors)).join('');
  s += groupTiles(hand.concealed, honors, true);
  if ('winningTile' in hand && hand.winningTile !== undefined) s += groupTiles([hand.winningTile], honors, false);
  if (hand.flowers?.length) s += [...hand.flowers].sort((a, b) => a - b).map((f) => String(f - FLOWER_BASE + 1)).join('') + 'f';
  return s;
}

/** ChineseOfficialMahjongHelper notation; concealed tiles sorted, winning tile last. */
export function formatHand(hand: Hand | WaitingHand): string {
  return formatWith(hand, 'letters');
}

/** MPSZ notation (honours as 1z..7z, Tenhou order); winning tile last. */
export function formatMpsz(hand: Hand | WaitingHand): string {
  return formatWith(hand, 'z');
}
