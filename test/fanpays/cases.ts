/**
 * Card 002 cases: one or more per card entry that scores it, checking the whole
 * answer (every counted fan with its count, and the total). Context defaults:
 * the winner sits South, East deals, West discarded the winning tile, no flowers.
 */
import type { FanPaysContext } from '../../src/engine/index.ts';

export interface Case {
  name: string;
  /** Card entry this case is about. */
  entry: number;
  hand: string;
  ctx?: Partial<FanPaysContext>;
  /** Counted fans: entry id -> count. */
  fans: Record<number, number>;
  total: number;
  /** Entries the exclusion table must have removed (id -> excluding entry). */
  excluded?: Record<number, number>;
}

const SELF = { selfDrawn: true, discarder: null } as const;

export const CASES: Case[] = [
  // Pungs
  { name: 'concealed non-honour pung', entry: 1, hand: '[123m1][456p1][789s1]222p34s66m5s', fans: { 1: 1, 40: 1 }, total: 4, excluded: { 37: 40, 38: 40 } },
  { name: 'exposed honour pung', entry: 2, hand: '[EEE1][123m1][456p1]789s34s66m5s', fans: { 2: 1, 37: 1 }, total: 2 },
  { name: 'concealed honour pung', entry: 3, hand: '[123m1][456p1][789s1]SSS34s66m5s', fans: { 3: 1, 37: 1 }, total: 3 },
  { name: 'a pung completed by a discard is exposed', entry: 1, hand: '[123m1][456p1][789s1]22p345s66m2p', fans: { 40: 1 }, total: 3 },
  { name: 'drawing to the pung', entry: 4, hand: '[123m1][456p1][789s1]22p345s66m2p', ctx: SELF, fans: { 4: 1, 48: 1, 40: 1 }, total: 6, excluded: { 1: 4 } },
  { name: 'three concealed pungs', entry: 5, hand: '[123m1][456p1]222p333s777m6s6s', fans: { 1: 3, 5: 1, 52: 1, 40: 1 }, total: 13 },
  { name: 'three consecutive pungs', entry: 6, hand: '[222p1][333p1][444p1]123m789s6m6m', fans: { 6: 1, 52: 1, 40: 1 }, total: 12 },
  { name: 'four concealed pungs', entry: 7, hand: '[123m1]222p333s777m999p6s6s', fans: { 1: 4, 7: 1, 52: 1, 40: 1 }, total: 19, excluded: { 5: 7 } },
  { name: 'minor dragon group', entry: 8, hand: '[CCC1][FFF1]123m456p789sPP', fans: { 8: 1, 37: 1, 52: 1 }, total: 13, excluded: { 2: 8 } },
  { name: 'five concealed pungs, the last called', entry: 9, hand: '222p333s777m999p111s6s6s', fans: { 1: 5, 9: 1, 49: 1, 52: 1, 40: 1, 61: 1 }, total: 47, excluded: { 5: 9, 7: 9 } },
  { name: 'five consecutive pungs', entry: 10, hand: '[333m1][444m1][555m1][666m1]777m9p9p', fans: { 1: 1, 10: 1, 52: 1, 55: 1, 61: 1, 40: 1 }, total: 66, excluded: { 6: 10 } },
  // Chows
  { name: 'small chow', entry: 11, hand: '[123m1][456p1][789s1]234s678m5p5p3f', fans: { 11: 1, 37: 1, 38: 1, 51: 1, 52: 1 }, total: 11 },
  { name: 'big chow', entry: 12, hand: '[123m1][456p1][789s1]234s678m5p5p', fans: { 12: 1, 51: 1, 52: 1 }, total: 14, excluded: { 37: 12, 38: 12, 40: 12 } },
  // Kongs
  { name: 'exposed non-honour kong', entry: 13, hand: '[2222p1][123m1][456p1]789s34s66m5s', fans: { 13: 1, 40: 1 }, total: 5 },
  { name: 'stealing the kong', entry: 14, hand: '[123m1][678m1][789s1]234s66m46p5p', ctx: { robbingKong: true }, fans: { 12: 1, 14: 1, 53: 1 }, total: 15, excluded: { 50: 53 } },
  { name: 'concealed non-honour kong', entry: 15, hand: '[2222p][123m1][456p1]789s34s66m5s', fans: { 15: 1, 40: 1 }, total: 6 },
  { name: 'exposed honour kong', entry: 16, hand: '[EEEE1][123m1][456p1]789s34s66m5s', fans: { 16: 1, 37: 1 }, total: 4 },
  { name: 'concealed honour kong', entry: 18, hand: '[EEEE][123m1][456p1]789s34s66m5s', fans: { 18: 1, 37: 1 }, total: 5 },
  { name: 'three concealed (honour) kongs', entry: 19, hand: '[EEEE][2222p][7777s]123m45m9p9p6m', fans: { 15: 2, 18: 1, 19: 1, 49: 1, 37: 1 }, total: 20 },
  { name: 'four exposed kongs', entry: 20, hand: '[2222p1][3333s1][4444m1][EEEE1]123m9p9p', fans: { 13: 3, 16: 1, 20: 1, 52: 1, 37: 1 }, total: 22 },
  { name: 'four concealed kongs', entry: 21, hand: '[2222p][3333s][4444m][EEEE]123m9p9p', fans: { 15: 3, 18: 1, 21: 1, 49: 1, 52: 1, 37: 1 }, total: 33, excluded: { 19: 21 } },
  { name: 'five exposed kongs, all help', entry: 22, hand: '[2222p1][3333s1][4444m1][EEEE1][5555m1]9p9p', fans: { 13: 4, 16: 1, 22: 1, 54: 1, 61: 1, 37: 1 }, total: 62, excluded: { 20: 22, 52: 54 } },
  // Pungs or Kongs
  { name: 'small breezy', entry: 23, hand: '[EEE1][SSS1]123m456p789sWW', fans: { 2: 2, 23: 1, 37: 1, 52: 1 }, total: 10 },
  { name: 'big breezy', entry: 24, hand: '[EEE1][SSS1][WWW1]123m456p9s9s', fans: { 2: 3, 24: 1, 37: 1, 52: 1 }, total: 21 },
  { name: 'big breezy with a kong', entry: 24, hand: '[EEEE1][SSS1][WWW1]123m456p9s9s', fans: { 2: 2, 16: 1, 24: 1, 37: 1, 52: 1 }, total: 23 },
  // Family Credits
  { name: 'father and daughter', entry: 25, hand: '[111m1][999m1][456p1]789s34s66p5s', fans: { 25: 1, 40: 1 }, total: 5 },
  { name: 'mother and daughter', entry: 26, hand: '[123m1][789m1][456p1]789s34s66p5s', fans: { 12: 1, 26: 1 }, total: 12 },
  { name: 'two sisters', entry: 27, hand: '[123m1][123m1][456p1]789s34s66p5s', fans: { 12: 1, 27: 1 }, total: 12 },
  { name: 'five families', entry: 28, hand: '[EEE1][CCC1][123m1]456p78s66p9s', fans: { 28: 1, 37: 1 }, total: 6, excluded: { 2: 28 } },
  { name: 'three cousins (chows)', entry: 29, hand: '[123m1][123p1][123s1]456m78p66s9p', fans: { 12: 1, 26: 1, 29: 1 }, total: 19 },
  { name: 'three cousins (pungs)', entry: 29, hand: '[555m1][555p1][555s1]123m78p66s9p', fans: { 29: 1, 40: 1 }, total: 10 },
  { name: 'three sisters', entry: 30, hand: '[123m1][123m1][123m1]456p78s66p9s', fans: { 12: 1, 30: 1 }, total: 17, excluded: { 27: 30 } },
  { name: 'fathers and sons', entry: 31, hand: '[111m1][999m1][111p1][999p1]456s6s6s', fans: { 31: 1, 52: 1, 40: 1 }, total: 15, excluded: { 25: 31 } },
  // Dealer Credits
  { name: 'dealer MJ', entry: 32, hand: '[123m1][456p1][789s1]222p34s66m5s', ctx: { seatWind: 'E' }, fans: { 1: 1, 32: 1, 40: 1 }, total: 5 },
  { name: 'dealer penalty on the dealer\'s discard', entry: 33, hand: '[123m1][456p1][789s1]222p34s66m5s', ctx: { discarder: 'E', dealerStreak: 2 }, fans: { 1: 1, 33: 2, 40: 1 }, total: 6 },
  { name: 'dealer penalty on a self-drawn win', entry: 33, hand: '[123m1][456p1][789s1]222p34s66m5s', ctx: { ...SELF, dealerStreak: 1 }, fans: { 1: 1, 33: 1, 40: 1, 48: 1 }, total: 6 },
  { name: 'first dealer discard', entry: 34, hand: '[123m1][456p1][789s1]222p34s66m5s', ctx: { claimedFirstDealerDiscard: true }, fans: { 1: 1, 34: 1, 40: 1 }, total: 5 },
  { name: 'repeat dealership', entry: 35, hand: '[123m1][456p1][789s1]222p34s66m5s', ctx: { seatWind: 'E', dealerStreak: 3 }, fans: { 1: 1, 32: 1, 35: 3, 40: 1 }, total: 8 },
  { name: 'dealer opens with MJ in hand', entry: 36, hand: '123m456p789s234s55p67m8m', ctx: { seatWind: 'E', ...SELF, dealerOpensWithMj: true }, fans: { 12: 1, 32: 1, 36: 1, 48: 1, 49: 1, 51: 1 }, total: 56 },
  // Flowers/Honors
  { name: 'no flowers', entry: 37, hand: '[EEE1][123m1][456p1]789s34s66m5s', fans: { 2: 1, 37: 1 }, total: 2 },
  { name: 'each flower', entry: 37, hand: '[EEE1][123m1][456p1]789s34s66m5s13f', fans: { 2: 1, 37: 2 }, total: 3 },
  { name: 'flowers given as a number only', entry: 37, hand: '[EEE1][123m1][456p1]789s34s66m5s', ctx: { flowers: 3 }, fans: { 2: 1, 37: 3 }, total: 4 },
  { name: 'no honours', entry: 38, hand: '[123m1][456p1][789s1]222p34s66m5s1f', fans: { 1: 1, 37: 1, 38: 1 }, total: 3 },
  { name: 'flower wall win', entry: 39, hand: '[123m1][456p1][789s1]222p34s66m5s', ctx: { ...SELF, flowerWallWin: true }, fans: { 1: 1, 39: 1, 40: 1 }, total: 7, excluded: { 48: 39 } },
  { name: 'no flowers and no honours', entry: 40, hand: '[123m1][456p1][789s1]222p34s66m5s', fans: { 1: 1, 40: 1 }, total: 4 },
  { name: 'four flowers', entry: 41, hand: '[123m1][456p1][789s1]222p34s66m5s1234f', fans: { 1: 1, 37: 4, 38: 1, 41: 1 }, total: 11 },
  { name: 'four seasons', entry: 41, hand: '[123m1][456p1][789s1]222p34s66m5s5678f', fans: { 1: 1, 37: 4, 38: 1, 41: 1 }, total: 11 },
  { name: 'small windy', entry: 42, hand: '[EEE1][SSS1][WWW1]123m456pNN', fans: { 2: 3, 42: 1, 52: 1, 37: 1 }, total: 26, excluded: { 24: 42 } },
  { name: 'big windy', entry: 43, hand: '[EEE1][SSS1][WWW1][NNN1]123m9p9p', fans: { 2: 4, 43: 1, 52: 1, 37: 1 }, total: 37, excluded: { 24: 43 } },
  { name: 'all eight flowers', entry: 44, hand: '[123m1][456p1][789s1]222p34s66m5s12345678f', fans: { 1: 1, 37: 8, 38: 1, 44: 1 }, total: 40, excluded: { 41: 44 } },
  // Mahjongg
  { name: 'false one possible', entry: 45, hand: '[123m1][456p1][789p1]666m345s2s2s', fans: { 1: 1, 45: 1, 40: 1, 51: 1 }, total: 7, excluded: { 52: 45 } },
  { name: 'last chance', entry: 46, hand: '[123m1][456p1][789s1]222p34s66m5s', ctx: { lastTileOfWall: true }, fans: { 1: 1, 40: 1, 46: 1 }, total: 5 },
  { name: 'only one possible', entry: 47, hand: '[123m1][456p1][789s1]222p12s66m3s', fans: { 1: 1, 26: 1, 40: 1, 47: 1 }, total: 7 },
  { name: 'only one possible (7 of 789)', entry: 47, hand: '[123m1][456p1][789s1]222p89m66s7m', fans: { 1: 1, 26: 1, 40: 1, 47: 1 }, total: 7 },
  { name: 'self-drawn MJ', entry: 48, hand: '[123m1][456p1][789s1]222p34s66m5s', ctx: SELF, fans: { 1: 1, 40: 1, 48: 1 }, total: 5 },
  { name: 'buried treasure', entry: 49, hand: '123m456p789s222p34s66m5s', fans: { 1: 1, 40: 1, 49: 1 }, total: 6 },
  { name: 'innie', entry: 50, hand: '[123m1][456p1][789s1]222p35s66m4s', fans: { 1: 1, 40: 1, 50: 1 }, total: 6 },
  { name: 'pair of 8s', entry: 51, hand: '[123m1][456p1][789s1]222p34s88m5s', fans: { 1: 1, 40: 1, 51: 1 }, total: 6 },
  { name: 'true 2', entry: 52, hand: '[123m1][456p1][789s1]222p345s6m6m', fans: { 1: 1, 40: 1, 52: 1 }, total: 6 },
  { name: 'uniquely five', entry: 53, hand: '[123m1][456p1][789s1]222p46s66m5s', fans: { 1: 1, 40: 1, 53: 1 }, total: 7, excluded: { 50: 53 } },
  { name: 'all help MJ', entry: 54, hand: '[123m1][456p1][789s1][222p1][345s1]6m6m', fans: { 40: 1, 54: 1 }, total: 8, excluded: { 52: 54 } },
  { name: 'only two suits', entry: 55, hand: '[123m1][456m1][789p1]222p34m66m5m', fans: { 1: 1, 40: 1, 55: 1 }, total: 9 },
  { name: 'terrestrial blessing', entry: 56, hand: '123m456p789s222p34s66m5s', ctx: { discarder: 'E', firstDiscardWin: true }, fans: { 1: 1, 40: 1, 49: 1, 56: 1 }, total: 46 },
  { name: 'heavenly blessing', entry: 57, hand: '123m456p789s222p34s66m5s', ctx: { ...SELF, firstDrawWin: true }, fans: { 1: 1, 40: 1, 48: 1, 49: 1, 57: 1 }, total: 47 },
  // Specials
  { name: 'one fan becomes five fans', entry: 58, hand: '[123m1][456p1][789s1][234s1]67mEE5m1f', fans: { 58: 1 }, total: 5, excluded: { 37: 58 } },
  { name: 'dragon\'s tail keeps the other suit\'s mother and daughter', entry: 59, hand: '[123m1][456m1][789m1]123p789p5s5s', fans: { 12: 1, 26: 1, 51: 1, 52: 1, 59: 1 }, total: 23, excluded: { 26: 59 } },
  { name: 'mixed purity', entry: 60, hand: '[123m1][456m1][EEE1]789m34mSS5m', fans: { 2: 1, 37: 1, 55: 1, 59: 1, 60: 1 }, total: 29 },
  { name: 'pungamania', entry: 61, hand: '[222p1][333s1][777m1][EEE1]999p6s6s', fans: { 1: 1, 2: 1, 37: 1, 52: 1, 61: 1 }, total: 20 },
  { name: 'all pairs hand', entry: 62, hand: '1133m5577p99sEESS222s', fans: { 37: 1, 49: 1, 51: 1, 62: 1 }, total: 25 },
  { name: 'major dragons group', entry: 63, hand: '[CCC1][FFF1][PPP1]123m45p66s6p', fans: { 2: 3, 37: 1, 63: 1 }, total: 24 },
  { name: 'purely honours', entry: 64, hand: '[EEE1][SSS1][CCC1][FFF1]WWWPP', fans: { 2: 2, 3: 1, 8: 1, 24: 1, 37: 1, 52: 1, 55: 1, 64: 1 }, total: 67, excluded: { 61: 64, 2: 8 } },
  { name: 'purity with a dragon\'s tail', entry: 65, hand: '[123m1][456m1][789m1]222m34m66m5m', fans: { 1: 1, 40: 1, 59: 1, 65: 1 }, total: 51, excluded: { 26: 59 } },
];
