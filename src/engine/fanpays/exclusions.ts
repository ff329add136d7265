import { F } from './fans.ts';

/**
 * Every exclusion of card 002, in one place, applied in one pass (score.ts).
 *
 * - `source: 'card'` rows are the card's bracketed notes, quoted.
 * - `source: 'tier'` rows are ours: a larger entry of the same kind includes the
 *   smaller one (Five Concealed Pungs holds four and three of them). The card
 *   lists these as separate lines without saying so; see docs/rules-fan-pays.md.
 *
 * `scope`:
 * - 'hand'      the removed entry is not counted anywhere in the hand;
 * - 'same-sets' only the occurrences built from a set the excluding entry uses
 *               (Minor Dragon Group takes the honour credit of its dragon pungs, not
 *               of a wind pung elsewhere in the hand).
 *
 * Positive notes ("Receives Honor credits", "Receives all credits for Kongs,
 * hidden Pungs and Honors") remove nothing: by default the card's entries add up.
 */
export interface Exclusion {
  readonly by: number;
  readonly removes: readonly number[];
  readonly scope: 'hand' | 'same-sets';
  readonly source: 'card' | 'tier';
  /** The card's words for 'card' rows; our reason for 'tier' rows. */
  readonly why: string;
}

const HONOR_SET_CREDITS = [F.EXPOSED_HONOR_PUNG, F.CONCEALED_HONOR_PUNG, F.EXPOSED_HONOR_KONG, F.CONCEALED_HONOR_KONG];

export const EXCLUSIONS: readonly Exclusion[] = Object.freeze([
  // The card's bracketed notes.
  { by: F.DRAWING_TO_PUNG, removes: [F.CONCEALED_PUNG], scope: 'same-sets', source: 'card', why: 'Drawing to the Pung for MJ: "(No credit for concealed Pung)"' },
  { by: F.MINOR_DRAGON_GROUP, removes: HONOR_SET_CREDITS, scope: 'same-sets', source: 'card', why: 'Minor Dragon Group: "(No Honors credit)"' },
  { by: F.BIG_CHOW, removes: [F.NO_FLOWERS_OR_EACH_FLOWER, F.NO_HONORS, F.NO_FLOWERS_NO_HONORS], scope: 'hand', source: 'card', why: 'Big Chow: "(No credit for No Flowers or Honors)"' },
  { by: F.FIVE_FAMILIES, removes: HONOR_SET_CREDITS, scope: 'same-sets', source: 'card', why: 'Five Families: "(No credit for Honors)"' },
  { by: F.FLOWER_WALL_WIN, removes: [F.SELF_DRAWN], scope: 'hand', source: 'card', why: 'Flower Wall Win: "(no credit for self draw)"' },
  { by: F.FALSE_ONE_POSSIBLE, removes: [F.TRUE_TWO], scope: 'hand', source: 'card', why: 'False One Possible: "(no credit for Tue Two)"' },
  { by: F.UNIQUELY_FIVE, removes: [F.INNIE], scope: 'hand', source: 'card', why: 'Uniquely Five: "(No credit for \\"Innie\\")"' },
  { by: F.ALL_HELP, removes: [F.TRUE_TWO], scope: 'hand', source: 'card', why: 'All Help MJ: "(no credit for True Two)"' },
  { by: F.DRAGONS_TAIL, removes: [F.MOTHER_AND_DAUGHTER], scope: 'same-sets', source: 'card', why: 'Dragon\'s Tail: "(No credit for Mother & Daughter)"' },
  { by: F.PURELY_HONORS, removes: [F.PUNGAMANIA], scope: 'hand', source: 'card', why: 'Purely Honors: "(No credit for Pungamania)"' },
  // Ours: the larger entry of a ladder includes the smaller.
  { by: F.FOUR_CONCEALED_PUNGS, removes: [F.THREE_CONCEALED_PUNGS], scope: 'hand', source: 'tier', why: 'four concealed pungs include three' },
  { by: F.FIVE_CONCEALED_PUNGS, removes: [F.THREE_CONCEALED_PUNGS, F.FOUR_CONCEALED_PUNGS], scope: 'hand', source: 'tier', why: 'five concealed pungs include three and four' },
  { by: F.FIVE_CONSECUTIVE_PUNGS, removes: [F.THREE_CONSECUTIVE_PUNGS], scope: 'hand', source: 'tier', why: 'five consecutive pungs include three' },
  { by: F.FOUR_CONCEALED_KONGS, removes: [F.THREE_CONCEALED_KONGS], scope: 'hand', source: 'tier', why: 'four concealed kongs include three' },
  { by: F.FIVE_EXPOSED_KONGS, removes: [F.FOUR_EXPOSED_KONGS], scope: 'hand', source: 'tier', why: 'five exposed kongs include four' },
  { by: F.SMALL_WINDY, removes: [F.SMALL_BREEZY, F.BIG_BREEZY], scope: 'hand', source: 'tier', why: 'Small Windy (three wind sets and a wind pair) includes the Breezy hands' },
  { by: F.BIG_WINDY, removes: [F.SMALL_BREEZY, F.BIG_BREEZY, F.SMALL_WINDY], scope: 'hand', source: 'tier', why: 'Big Windy (four wind sets) includes the Breezy hands' },
  { by: F.THREE_SISTERS, removes: [F.TWO_SISTERS], scope: 'same-sets', source: 'tier', why: 'three identical chows include two' },
  { by: F.FATHERS_AND_SONS, removes: [F.FATHER_AND_DAUGHTER], scope: 'same-sets', source: 'tier', why: 'Fathers and Sons is Father and Daughter in two suits' },
  { by: F.NO_FLOWERS_NO_HONORS, removes: [F.NO_FLOWERS_OR_EACH_FLOWER, F.NO_HONORS], scope: 'hand', source: 'tier', why: 'No Flowers and No Honors is the two credits together' },
  { by: F.ALL_EIGHT_FLOWERS, removes: [F.FOUR_FLOWERS], scope: 'hand', source: 'tier', why: 'all eight flowers include both sets of four' },
].map((e) => Object.freeze({ ...e, removes: Object.freeze([...e.removes]) })) as Exclusion[]);
