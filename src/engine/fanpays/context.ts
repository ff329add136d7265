/**
 * The win context of card 002. Everything MCR needs (WinContext) plus what the
 * card asks about the table: the dealer and their run of wins, the flowers each
 * player holds, the flower wall, the two blessings and the secret kongs.
 * All new fields are optional, so a plain WinContext scores too.
 */
import { MahjongError } from '../errors.ts';
import { defaultContext, type Hand, type WinContext } from '../hand.ts';
import { ALL_TILES, FLOWER_BASE, isFlower, WINDS, type TileId, type Wind } from '../tiles.ts';

export interface FanPaysContext extends WinContext {
  /** Seat wind of the dealer (default E). */
  dealer?: Wind;
  /** Hands the dealer has won in a row just before this one (default 0): Repeat Dealership and Dealer Penalty. */
  dealerStreak?: number;
  /** Flower tiles (ids 34..41) each seat holds; the winner's may also come from the hand notation. */
  flowersBySeat?: Partial<Record<Wind, TileId[]>>;
  /** The winning tile was picked from the flower wall (a replacement tile): Flower Wall Win. Self-drawn. */
  flowerWallWin?: boolean;
  /** Won on the dealer's first discard: Terrestrial Blessing. */
  firstDiscardWin?: boolean;
  /** Won on the first tile picked from the wall (not the dealer): Heavenly Blessing. */
  firstDrawWin?: boolean;
  /** The dealer's dealt tiles are already Mahjong: Dealer MJ (40). */
  dealerOpensWithMj?: boolean;
  /** The winner claimed the dealer's first discard for a melded set: First Dealer Discard. */
  claimedFirstDealerDiscard?: boolean;
  /**
   * Concealed kongs other players declared during the hand, one seat per kong.
   * The winner's own are read from the hand (its concealed kongs).
   */
  secretKongs?: Wind[];
  /** Value of one fan in payments (default 1). */
  fanValue?: number;
}

export type ResolvedContext = Required<Omit<FanPaysContext, 'discarder'>> & { discarder: Wind | null };

export function fanPaysContext(over: Partial<FanPaysContext> = {}): FanPaysContext {
  return {
    ...defaultContext(),
    dealer: 'E', dealerStreak: 0, flowersBySeat: {}, flowerWallWin: false, firstDiscardWin: false, firstDrawWin: false,
    dealerOpensWithMj: false, claimedFirstDealerDiscard: false, secretKongs: [], fanValue: 1,
    ...over,
  };
}

const bad = (m: string) => new MahjongError('INVALID_CONTEXT', m);
/** A set has eight flower and season tiles, one of each. */
const FLOWER_COUNT = ALL_TILES - FLOWER_BASE;
const contra = (m: string) => new MahjongError('CONTRADICTORY_CONDITIONS', m);

function flowerList(v: unknown, who: string): TileId[] {
  if (!Array.isArray(v)) throw bad(`the flowers of ${who} must be a list of flower tiles`);
  for (const t of v) if (!Number.isInteger(t) || !isFlower(t)) throw bad(`${String(t)} is not a flower tile (f1..f8 are ids ${FLOWER_BASE}..${FLOWER_BASE + 7})`);
  return v as TileId[];
}

/**
 * Checks the Fan Pays fields (the shared ones are checked by validateContext)
 * and fills in defaults. The winner's flowers: the hand's `flowers`, else
 * `flowersBySeat[seat]`, else only the number `ctx.flowers`. Throws MahjongError.
 */
export function resolveContext(ctx: FanPaysContext, hand: Hand): { ctx: ResolvedContext; winnerFlowers: TileId[] | null; flowerCount: number } {
  const dealer = ctx.dealer ?? 'E';
  if (!WINDS.includes(dealer)) throw bad(`the dealer must be one of E, S, W, N, not ${String(dealer)}`);
  const dealerStreak = ctx.dealerStreak ?? 0;
  if (!Number.isInteger(dealerStreak) || dealerStreak < 0) throw bad('the dealer\'s run of wins must be a whole number, 0 or more');
  const fanValue = ctx.fanValue ?? 1;
  if (typeof fanValue !== 'number' || !Number.isFinite(fanValue) || fanValue <= 0) throw bad('the value of one fan must be a positive number');
  for (const k of ['flowerWallWin', 'firstDiscardWin', 'firstDrawWin', 'dealerOpensWithMj', 'claimedFirstDealerDiscard'] as const) {
    if (ctx[k] !== undefined && typeof ctx[k] !== 'boolean') throw bad(`${k} must be true or false`);
  }
  const secretKongs = ctx.secretKongs ?? [];
  if (!Array.isArray(secretKongs)) throw bad('secretKongs must be a list of seats');
  for (const w of secretKongs) {
    if (!WINDS.includes(w)) throw bad(`a secret kong belongs to a seat E, S, W or N, not ${String(w)}`);
    if (w === ctx.seatWind) throw contra('the winner\'s secret kongs are the concealed kongs in the hand; list only the other players\' in secretKongs');
  }
  // Flowers: each of the eight exists once at the table.
  const bySeat = ctx.flowersBySeat ?? {};
  if (typeof bySeat !== 'object' || bySeat === null) throw bad('flowersBySeat must map seats to flower lists');
  const seen = new Set<TileId>();
  const claim = (list: TileId[], who: string) => {
    for (const t of list) {
      if (seen.has(t)) throw contra(`flower f${t - FLOWER_BASE + 1} appears twice (${who})`);
      seen.add(t);
    }
  };
  for (const [seat, list] of Object.entries(bySeat)) {
    if (!WINDS.includes(seat as Wind)) throw bad(`flowersBySeat has an unknown seat "${seat}"`);
    if (list === undefined) continue;
    claim(flowerList(list, `seat ${seat}`), `seat ${seat}`);
  }
  const fromHand = hand.flowers !== undefined ? flowerList(hand.flowers, 'the winner') : undefined;
  if (fromHand) {
    const twice = fromHand.find((t, i) => fromHand.indexOf(t) !== i);
    if (twice !== undefined) throw contra(`flower f${twice - FLOWER_BASE + 1} is written twice in the hand; each flower exists once`);
  }
  const fromSeat = bySeat[ctx.seatWind];
  if (fromHand && fromSeat) {
    const a = [...fromHand].sort(), b = [...fromSeat].sort();
    if (a.length !== b.length || a.some((t, i) => t !== b[i])) throw contra('the hand\'s flowers differ from the winner\'s flowers in flowersBySeat');
  } else if (fromHand) {
    claim(fromHand, 'in the hand and at another seat');
  }
  let winnerFlowers = fromHand ?? fromSeat ?? null;
  // ctx.flowers 0 means "not given" when the tiles are known.
  if (winnerFlowers && ctx.flowers !== 0 && ctx.flowers !== winnerFlowers.length) {
    throw contra(`the winner holds ${winnerFlowers.length} flower tile(s) but the flower count says ${ctx.flowers}`);
  }
  if (!winnerFlowers) {
    // only a count: it must fit in what the other seats leave, and eight is every flower
    const left = FLOWER_COUNT - seen.size;
    if (ctx.flowers > left) {
      throw contra(`the winner is said to hold ${ctx.flowers} flowers, but the other seats hold ${seen.size} of the eight, so at most ${left} are left`);
    }
    if (ctx.flowers === FLOWER_COUNT) winnerFlowers = Array.from({ length: FLOWER_COUNT }, (_, i) => FLOWER_BASE + i);
  }
  const flowerCount = winnerFlowers ? winnerFlowers.length : ctx.flowers;

  const declaredOpen = hand.melds.some((m) => !(m.kind === 'kong' && m.concealed));
  const flowerWallWin = ctx.flowerWallWin ?? false;
  const firstDiscardWin = ctx.firstDiscardWin ?? false;
  const firstDrawWin = ctx.firstDrawWin ?? false;
  const dealerOpensWithMj = ctx.dealerOpensWithMj ?? false;
  const claimedFirstDealerDiscard = ctx.claimedFirstDealerDiscard ?? false;
  const winnerIsDealer = ctx.seatWind === dealer;
  let discarder = ctx.discarder ?? null;
  if (flowerWallWin && !ctx.selfDrawn) throw contra('a tile from the flower wall is drawn by the winner, so the win must be self-drawn');
  if (firstDiscardWin) {
    if (ctx.selfDrawn) throw contra('Terrestrial Blessing is a win on the dealer\'s discard, so it cannot be self-drawn');
    if (winnerIsDealer) throw contra('Terrestrial Blessing is a win on the dealer\'s first discard; the dealer cannot win on it');
    if (discarder && discarder !== dealer) throw contra('Terrestrial Blessing: the dealer discarded the winning tile, not another player');
    if (declaredOpen) throw contra('on the dealer\'s first discard nobody has claimed a set yet');
    discarder = dealer;
  }
  if (firstDrawWin) {
    if (!ctx.selfDrawn) throw contra('Heavenly Blessing is a win on the first tile picked from the wall, so it is self-drawn');
    if (winnerIsDealer) throw contra('the dealer does not pick a first tile; a dealer who opens with Mahjong is "Dealer MJ" (dealerOpensWithMj)');
    if (declaredOpen) throw contra('on the first tile picked from the wall no set can have been claimed');
  }
  if (dealerOpensWithMj) {
    if (!winnerIsDealer) throw contra('only the dealer can open with Mahjong in hand');
    if (!ctx.selfDrawn) throw contra('a dealer who opens with Mahjong won on no discard; mark the win self-drawn');
    if (hand.melds.length) throw contra('a dealer who opens with Mahjong has declared no sets');
  }
  if (claimedFirstDealerDiscard) {
    if (winnerIsDealer) throw contra('the dealer cannot claim their own first discard');
    if (!declaredOpen) throw contra('First Dealer Discard: the claimed tile lies in a melded set, but the hand has none');
  }
  return {
    ctx: {
      ...ctx, discarder, dealer, dealerStreak, fanValue, secretKongs: [...secretKongs], flowersBySeat: bySeat,
      flowerWallWin, firstDiscardWin, firstDrawWin, dealerOpensWithMj, claimedFirstDealerDiscard,
    },
    winnerFlowers,
    flowerCount,
  };
}
