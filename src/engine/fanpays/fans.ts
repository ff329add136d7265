import type { FanNames } from '../result.ts';

/**
 * Every entry of scoring card 002 ("Fan Pays") as data, in card order.
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

type Row = [id: number, points: number, group: FanPaysGroup, en: string, zh: string, pl: string, sv: string, card: string, kind?: FanPaysFan['kind']];

/** Translations zh/pl/sv: ours. */
const ROWS: Row[] = [
  // Pungs
  [1, 1, 'pungs', 'Concealed Pung', '暗刻', 'Ukryty pung', 'Dold pung', 'Non-honor'],
  [2, 1, 'pungs', 'Exposed Honor Pung', '字牌明刻', 'Odkryty pung honorów', 'Öppen pung av hedersbrickor', 'Dragon or Wind'],
  [3, 2, 'pungs', 'Concealed Honor Pung', '字牌暗刻', 'Ukryty pung honorów', 'Dold pung av hedersbrickor', 'Dragon or Wind'],
  [4, 2, 'pungs', 'Drawing to the Pung for MJ', '自摸成刻', 'Dobranie do punga na MJ', 'Självdragen pung till mahjong', 'Self-drawn Pung (No credit for concealed Pung)'],
  [5, 5, 'pungs', 'Three Concealed Pungs', '三暗刻', 'Trzy ukryte pungi', 'Tre dolda pungar', 'Any suit or Honor (Receives Honor credits)'],
  [6, 7, 'pungs', 'Three Consecutive Pungs', '三连刻', 'Trzy kolejne pungi', 'Tre pungar i följd', 'Pungs in same suit; 111-222-333 in all Cracks, Bams or Dots.'],
  [7, 10, 'pungs', 'Four Concealed Pungs', '四暗刻', 'Cztery ukryte pungi', 'Fyra dolda pungar', 'Four sets of Pungs in hand'],
  [8, 10, 'pungs', 'Minor Dragon Group', '小三元', 'Mała grupa smoków', 'Liten drakgrupp', 'Two Dragon Pungs plus a pair of Dragons (No Honors credit)'],
  [9, 20, 'pungs', 'Five Concealed Pungs', '五暗刻', 'Pięć ukrytych pungów', 'Fem dolda pungar', 'Only call is for MJ'],
  [10, 40, 'pungs', 'Five Consecutive Pungs', '五连刻', 'Pięć kolejnych pungów', 'Fem pungar i följd', 'Five consecutive Pungs in same suit'],
  // Chows
  [11, 5, 'chows', 'Small Chow', '小平和', 'Mały chow', 'Liten chow', 'All Chows with Flowers; pair cannot be Honors'],
  [12, 10, 'chows', 'Big Chow', '大平和', 'Duży chow', 'Stor chow', 'All Chows with no Flowers. Pair cannot be Wind or Dragon (No credit for No Flowers or Honors)'],
  // Kongs
  [13, 2, 'kongs', 'Exposed Non-Honor Kong', '数牌明杠', 'Odkryty kong (bez honorów)', 'Öppen kong (ej hedersbrickor)', 'Exposed set of Cracks, Bams, or Dots'],
  [14, 2, 'kongs', 'Stealing the Kong for MJ', '抢杠和', 'Kradzież konga na MJ', 'Stöld av kong till mahjong', 'Player draws 4th tile for an exposed Pung to make a Kong. The tile may be stolen at that time only to make a MJ & the player that drew the 4th tile pays.'],
  [15, 3, 'kongs', 'Concealed Non-Honor Kong', '数牌暗杠', 'Ukryty kong (bez honorów)', 'Dold kong (ej hedersbrickor)', 'Concealed set of Cracks, Bams, or Dots'],
  [16, 3, 'kongs', 'Exposed Honor Kong', '字牌明杠', 'Odkryty kong honorów', 'Öppen kong av hedersbrickor', 'Winds or Dragons'],
  [17, 3, 'kongs', 'Secret Kong', '暗杠即收', 'Sekretny kong', 'Hemlig kong', 'Any player who declares a concealed Kong during the hand immediately receives one (1) fan from the other three players', 'payment'],
  [18, 4, 'kongs', 'Concealed Honor Kongs', '字牌暗杠', 'Ukryty kong honorów', 'Dold kong av hedersbrickor', 'Winds or Dragons'],
  [19, 7, 'kongs', 'Three Concealed Honor Kongs', '三暗杠', 'Trzy ukryte kongi', 'Tre dolda konger', 'Any suit or Honor (Receives Honor bonus)'],
  [20, 10, 'kongs', 'Four Exposed Kongs', '四明杠', 'Cztery odkryte kongi', 'Fyra öppna konger', 'Four sets of exposed Kongs'],
  [21, 15, 'kongs', 'Four Concealed Kongs', '四暗杠', 'Cztery ukryte kongi', 'Fyra dolda konger', 'any suit, wind or dragon'],
  [22, 30, 'kongs', 'Five Exposed Kongs', '五明杠', 'Pięć odkrytych kongów', 'Fem öppna konger', 'MJ with 5 exposed Kongs of any suit'],
  // Pungs or Kongs
  [23, 5, 'pungs-or-kongs', 'Small Breezy', '小三风', 'Mały wietrzyk', 'Liten bris', 'Two Wind Pungs or Kongs and a pair of Winds'],
  [24, 15, 'pungs-or-kongs', 'Big Breezy', '大三风', 'Duży wietrzyk', 'Stor bris', 'Three Wind Pungs or Kongs; concealed or exposed'],
  // Family Credits
  [25, 2, 'family', 'Father and Daughter', '父女', 'Ojciec i córka', 'Far och dotter', "Pungs of 1's and 9's in the same suit"],
  [26, 2, 'family', 'Mother and Daughter', '母女', 'Matka i córka', 'Mor och dotter', 'Chows of 1-2-3 and 7-8-9 in the same suit'],
  [27, 2, 'family', 'Two Sisters', '两姐妹', 'Dwie siostry', 'Två systrar', 'Two Chows; same numbers same suit'],
  [28, 5, 'family', 'Five Families', '五门齐', 'Pięć rodzin', 'Fem familjer', 'All 5 suits; Cracks, Bams, & Dots, one Wind & one Dragon in any combination of Chows, Pungs, or Kongs. Pair not counted as one of the families. (No credit for Honors)'],
  [29, 7, 'family', 'Three Cousins', '三表亲', 'Trzech kuzynów', 'Tre kusiner', 'Pungs or Chows in different suits; Cracks, Bams & Dots.'],
  [30, 7, 'family', 'Three Sisters', '三姐妹', 'Trzy siostry', 'Tre systrar', 'Three Chows same numbers, same suit.'],
  [31, 10, 'family', 'Fathers and Sons', '父子', 'Ojcowie i synowie', 'Fäder och söner', "Two sets of 1's and 9's in two different suits."],
  // Dealer Credits
  [32, 1, 'dealer', 'Dealer MJ', '庄家和牌', 'MJ rozdającego', 'Givarens mahjong', "Dealer MJ's; either self-drawn or called"],
  [33, 1, 'dealer', 'Dealer Penalty', '庄家罚番', 'Kara rozdającego', 'Givarens straff', 'Dealer gives one fan for each consecutive win if the dealer has thrown the MJ tile or the winning tile was self-drawn.'],
  [34, 1, 'dealer', 'First Dealer Discard', '庄家首打', 'Pierwszy odrzut rozdającego', 'Givarens första kast', 'Tile is placed horizontal to Chow, Pung, or Kong.'],
  [35, 1, 'dealer', 'Repeat Dealership', '连庄', 'Powtórne rozdanie', 'Upprepad giv', 'Four-handed game only. Dealer gets one fan for each consecutive win. Dealer maintains the dealership until they give MJ or another player makes MJ'],
  [36, 40, 'dealer', 'Dealer MJ', '庄家起手和', 'MJ rozdającego z ręki', 'Givarens mahjong från given', 'Dealer opens with MJ in hand'],
  // Flowers/Honors
  [37, 1, 'flowers-honors', 'No Flowers or Each Flower', '无花或每花', 'Bez kwiatów lub każdy kwiat', 'Inga blommor eller varje blomma', ''],
  [38, 1, 'flowers-honors', 'No Honors', '无字', 'Bez honorów', 'Inga hedersbrickor', 'Includes Wind and Dragon pairs'],
  [39, 3, 'flowers-honors', 'Flower Wall Win', '花墙和', 'Wygrana z kwiatowego muru', 'Vinst från blomväggen', 'MJ with tiles picked directly from the Flower Wall (no credit for self draw)'],
  [40, 3, 'flowers-honors', 'No Flowers and No Honors', '无花无字', 'Bez kwiatów i bez honorów', 'Inga blommor och inga hedersbrickor', 'MJ with no Flowers, Winds or Dragons'],
  [41, 5, 'flowers-honors', 'Four Flowers/Four Seasons', '四花/四季', 'Cztery kwiaty/cztery pory roku', 'Fyra blommor/fyra årstider', 'Have 1,2,3,4 in Flower tiles of same color'],
  [42, 20, 'flowers-honors', 'Small Windy', '小四喜', 'Mały wiatr', 'Liten blåst', 'Three set of Winds with a Wind as a pair'],
  [43, 30, 'flowers-honors', 'Big Windy', '大四喜', 'Duży wiatr', 'Stor blåst', 'All four Winds; Pungs & Kongs can be mixed'],
  [44, 30, 'flowers-honors', 'All Eight Flower Tiles', '八花', 'Wszystkie osiem kwiatów', 'Alla åtta blommor', 'All 8 Flowers'],
  // Mahjongg (MJ)
  [45, 1, 'mahjongg', 'False One Possible', '假独听', 'Fałszywa jedyna możliwość', 'Falsk enda möjlighet', 'MJ from either end of a concealed 4 number Chow (no credit for Tue Two)'],
  [46, 1, 'mahjongg', 'Last Chance', '海底', 'Ostatnia szansa', 'Sista chansen', 'MJ on the very last tile from the Wall'],
  [47, 1, 'mahjongg', 'Only One Possible', '边张', 'Jedyna możliwość', 'Enda möjlighet', 'MJ with the 3 or 7 of the 1-2-3 or 7-8-9 Chow'],
  [48, 1, 'mahjongg', 'Self-Drawn MJ', '自摸', 'MJ z dobrania', 'Självdragen mahjong', 'Self-drawn MJ tile; all players pay'],
  [49, 2, 'mahjongg', 'Buried Treasure', '门清', 'Zakopany skarb', 'Begravd skatt', 'Concealed hand; only call is for MJ'],
  [50, 2, 'mahjongg', 'Innie (or Tweenie)', '嵌张', 'Środkowa', 'Mittenbricka', 'MJ with the middle tile of a Chow'],
  [51, 2, 'mahjongg', "Pair of 2's, 5's, or 8's", '二五八将', 'Para dwójek, piątek lub ósemek', 'Par av tvåor, femmor eller åttor', "MJ with a pair of 2's, 5's or 8's in the hand."],
  [52, 2, 'mahjongg', 'True 2', '单钓将', 'Prawdziwa para', 'Äkta par', 'MJ by picking or calling a tile for the pair.'],
  [53, 3, 'mahjongg', 'Uniquely Five', '嵌五', 'Wyjątkowa piątka', 'Unika femman', 'MJ with a 5 in the middle of the Chow (4-5-6). (No credit for "Innie")'],
  [54, 5, 'mahjongg', 'All Help MJ', '全求人', 'MJ z pomocą wszystkich', 'Mahjong med allas hjälp', 'All tiles are taken from other discards to make MJ, including pair (no credit for True Two)'],
  [55, 5, 'mahjongg', 'Only Two Suits', '两门', 'Tylko dwa kolory', 'Endast två färger', 'MJ using only two of the five suits'],
  [56, 40, 'mahjongg', 'Terrestrial Blessing', '地和', 'Błogosławieństwo ziemi', 'Jordens välsignelse', 'MJ on the first tile discarded by the Dealer'],
  [57, 40, 'mahjongg', 'Heavenly Blessing', '天和', 'Błogosławieństwo niebios', 'Himlens välsignelse', 'MJ on the first tile picked from the Wall.'],
  // Specials
  [58, 5, 'specials', 'One Fan Becomes Five Fans', '一番变五番', 'Jeden fan staje się pięcioma', 'En fan blir fem', 'Total accumulative value is one fan', 'total'],
  [59, 7, 'specials', "Dragon's Tail", '一条龙', 'Ogon smoka', 'Drakens svans', 'A run from 1-9 in the same suit (No credit for Mother & Daughter)'],
  [60, 15, 'specials', 'Mixed Purity', '混一色', 'Mieszana czystość', 'Blandad renhet', 'All one suit; Cracks, Bams or Dots with Pung of Honors'],
  [61, 15, 'specials', 'Pungamania', '碰碰和', 'Pungomania', 'Pungmani', 'All Pungs or Kongs exposed or concealed (Receives all credits for Kongs, hidden Pungs and Honors)'],
  [62, 20, 'specials', 'All Pairs Hand', '七对一刻', 'Same pary', 'Bara par', '7 pairs and a Pung (all concealed)'],
  [63, 20, 'specials', 'Major Dragons Group', '大三元', 'Duża grupa smoków', 'Stor drakgrupp', 'Pungs of all 3 Dragons – Red, Green, White'],
  [64, 30, 'specials', 'Purely Honors', '字一色', 'Same honory', 'Bara hedersbrickor', 'All Honors; Pungs or Kongs; concealed or exposed. Pair must be Honor (No credit for Pungamania)'],
  [65, 40, 'specials', 'Purity', '清一色', 'Czystość', 'Renhet', 'All Chows, Pungs or Kongs in the same suit (Cracks, Bams or Dots) including the pair.'],
];

export const FAN_PAYS_FANS: readonly FanPaysFan[] = Object.freeze(ROWS.map(([id, points, group, en, zh, pl, sv, card, kind]) =>
  Object.freeze({ id, points, group, names: Object.freeze({ en, zh, pl, sv }), card, kind: kind ?? 'hand' })));

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
