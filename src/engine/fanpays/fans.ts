import type { FanNames } from '../result.ts';
import ENTRIES from './fans.json' with { type: 'json' };

/**
 * Every entry of scoring card 002 ("Fan Pays") as data, in card order: the entries are in
 * fans.json, one a line (id, points, group, the four names, the card's text, and `kind` where it
 * is not 'hand'); this file reads and checks them.
 * `en` is the card's own name (its typos "Par" and "Tue Two" corrected, see
 * docs/rules-fan-pays.md); `zh`, `pl` and `sv` are our translations, not the card's.
 * `card` is the card's description column, verbatim.
 *
 * `kind`:
 *  - 'hand'    a fan of the winning hand, found by a detector in detect.ts;
 *  - 'payment' paid at once when it happens, not part of the hand (Secret Kong);
 *  - 'total'   decided after the other fans are added (One Fan Becomes Five Fans).
 */
export type FanPaysGroup =
  | 'pungs' | 'chows' | 'kongs' | 'pungs-or-kongs' | 'family' | 'dealer' | 'flowers-honors' | 'mahjongg' | 'specials';

export interface FanPaysFan {
  readonly id: number;
  readonly points: number;
  readonly names: FanNames;
  readonly group: FanPaysGroup;
  readonly card: string;
  readonly kind: 'hand' | 'payment' | 'total';
}

const GROUPS: readonly FanPaysGroup[] = ['pungs', 'chows', 'kongs', 'pungs-or-kongs', 'family', 'dealer', 'flowers-honors', 'mahjongg', 'specials'];
const KINDS: readonly FanPaysFan['kind'][] = ['hand', 'payment', 'total'];

/** One entry of fans.json, checked: the table is data, so its shape is checked when it is read. */
function entryOf(e: (typeof ENTRIES)[number], index: number): FanPaysFan {
  const { id, points, group, en, zh, pl, sv, card } = e;
  const kind = e.kind ?? 'hand';
  const kindOk = (k: string): k is FanPaysFan['kind'] => (KINDS as readonly string[]).includes(k);
  const groupOk = (g: string): g is FanPaysGroup => (GROUPS as readonly string[]).includes(g);
  if (id !== index + 1 || !Number.isInteger(points) || points <= 0 || !groupOk(group) || !kindOk(kind)) {
    throw new Error(`fanpays/fans.json: entry ${index + 1} is malformed`);
  }
  return Object.freeze({ id, points, group, names: Object.freeze({ en, zh, pl, sv }), card, kind });
}

/** The 65 entries of fans.json, frozen, in card order (id = position on the card). */
export const FAN_PAYS_FANS: readonly FanPaysFan[] = Object.freeze(ENTRIES.map(entryOf));

/** Named ids, so detectors and exclusions read as the card does. */
export const F = Object.freeze({
  CONCEALED_PUNG: 1, EXPOSED_HONOR_PUNG: 2, CONCEALED_HONOR_PUNG: 3, DRAWING_TO_PUNG: 4, THREE_CONCEALED_PUNGS: 5,
  THREE_CONSECUTIVE_PUNGS: 6, FOUR_CONCEALED_PUNGS: 7, MINOR_DRAGON_GROUP: 8, FIVE_CONCEALED_PUNGS: 9, FIVE_CONSECUTIVE_PUNGS: 10,
  SMALL_CHOW: 11, BIG_CHOW: 12,
  EXPOSED_NON_HONOR_KONG: 13, STEALING_THE_KONG: 14, CONCEALED_NON_HONOR_KONG: 15, EXPOSED_HONOR_KONG: 16, SECRET_KONG: 17,
  CONCEALED_HONOR_KONG: 18, THREE_CONCEALED_KONGS: 19, FOUR_EXPOSED_KONGS: 20, FOUR_CONCEALED_KONGS: 21, FIVE_EXPOSED_KONGS: 22,
  SMALL_BREEZY: 23, BIG_BREEZY: 24,
  FATHER_AND_DAUGHTER: 25, MOTHER_AND_DAUGHTER: 26, TWO_SISTERS: 27, FIVE_FAMILIES: 28, THREE_COUSINS: 29, THREE_SISTERS: 30, FATHERS_AND_SONS: 31,
  DEALER_MJ: 32, DEALER_PENALTY: 33, FIRST_DEALER_DISCARD: 34, REPEAT_DEALERSHIP: 35, DEALER_OPENS_WITH_MJ: 36,
  NO_FLOWERS_OR_EACH_FLOWER: 37, NO_HONORS: 38, FLOWER_WALL_WIN: 39, NO_FLOWERS_NO_HONORS: 40, FOUR_FLOWERS: 41,
  SMALL_WINDY: 42, BIG_WINDY: 43, ALL_EIGHT_FLOWERS: 44,
  FALSE_ONE_POSSIBLE: 45, LAST_CHANCE: 46, ONLY_ONE_POSSIBLE: 47, SELF_DRAWN: 48, BURIED_TREASURE: 49, INNIE: 50,
  PAIR_258: 51, TRUE_TWO: 52, UNIQUELY_FIVE: 53, ALL_HELP: 54, ONLY_TWO_SUITS: 55, TERRESTRIAL: 56, HEAVENLY: 57,
  ONE_BECOMES_FIVE: 58, DRAGONS_TAIL: 59, MIXED_PURITY: 60, PUNGAMANIA: 61, ALL_PAIRS: 62, MAJOR_DRAGONS: 63, PURELY_HONORS: 64, PURITY: 65,
} as const);

export function fanPaysFan(id: number): FanPaysFan {
  const f = FAN_PAYS_FANS[id - 1];
  if (!f || f.id !== id) throw new RangeError(`no Fan Pays entry ${id}`);
  return f;
}
