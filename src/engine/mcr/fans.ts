import type { FanNames } from '../result.ts';

/**
 * The 81 MCR fans as data, in rule-book order (Chinese official numbering, as in
 * ../shared/conformance). Names: en and zh as in the conformance reference, pl from
 * rules document 000/004, sv from rules document 003 (the Swedish sheet names the
 * hands in English; its own spelling is kept).
 *
 * `excludes` lists the fans this fan implies and therefore removes (the
 * non-repeat principle, 004). Sources: 000/003/004 exclusion columns, completed
 * from the 2006 rule book where the sheets are silent or OCR-damaged (see
 * docs/rules-mcr.md for every decision).
 */
export interface FanDef {
  readonly id: number;
  readonly points: number;
  readonly names: FanNames;
  readonly excludes: readonly number[];
}

type Row = [id: number, points: number, en: string, zh: string, pl: string, sv: string, excludes: number[]];

const ROWS: Row[] = [
  [1, 88, 'Big Four Winds', '大四喜', 'Duże Cztery Wiatry', 'Big Four Winds', [9, 38, 48, 60, 61]],
  [2, 88, 'Big Three Dragons', '大三元', 'Duże Trzy Smoki', 'Big Three Dragons', [10, 54, 59]],
  [3, 88, 'All Green', '绿一色', 'Same Zielone', 'All Green', [49]],
  [4, 88, 'Nine Gates', '九莲宝灯', 'Dziewięć Bram', 'Nine Gates', [22, 56, 62, 73, 76]],
  [5, 88, 'Four Kongs', '四杠', 'Cztery Kongi', 'Four Kongs', [17, 48, 53, 57, 67, 74, 79]],
  [6, 88, 'Seven Shifted Pairs', '连七对', 'Siedem Kolejnych Par', 'Seven Shifted Pairs', [19, 22, 56, 62, 76, 79]],
  [7, 88, 'Thirteen Orphans', '十三幺', 'Trzynaście Sierot', 'Thirteen Orphans', [18, 51, 56, 62, 79]],
  [8, 64, 'All Terminals', '清幺九', 'Same Skrajne', 'All Terminals', [18, 48, 55, 65, 73, 76]],
  [9, 64, 'Little Four Winds', '小四喜', 'Małe Cztery Wiatry', 'Little Four Winds', [38]],
  [10, 64, 'Little Three Dragons', '小三元', 'Małe Trzy Smoki', 'Little Three Dragons', [54, 59]],
  [11, 64, 'All Honors', '字一色', 'Same Honory', 'All Honours', [18, 48, 55, 73]],
  [12, 64, 'Four Concealed Pungs', '四暗刻', 'Cztery Ukryte Pungi', 'Four Concealed Pungs', [33, 48, 56, 62, 66]],
  [13, 64, 'Pure Terminal Chows', '一色双龙会', 'Czyste Skrajne Chow', 'Pure Terminal Chows', [19, 22, 63, 69, 72, 76]],
  [14, 48, 'Quadruple Chow', '一色四同顺', 'Poczwórne Chow', 'Quadruple Chow', [23, 24, 64, 69]],
  [15, 48, 'Four Pure Shifted Pungs', '一色四节高', 'Cztery Czyste Kolejne Pungi', 'Four Shifted Pungs', [23, 24, 30, 48]],
  [16, 32, 'Four Pure Shifted Chows', '一色四步高', 'Cztery Czyste Kolejne Chow', 'Four Shifted Chows', [30, 71, 72]],
  [17, 32, 'Three Kongs', '三杠', 'Trzy Kongi', 'Three Kongs', [53, 57, 67, 74]],
  [18, 32, 'All Terminals and Honors', '混幺九', 'Same Skrajne i Honory', 'All Term./Honours', [48, 55, 73]],
  [19, 24, 'Seven Pairs', '七对', 'Siedem Par', 'Seven Pairs', [56, 62, 79]],
  [20, 24, 'Greater Honors and Knitted Tiles', '七星不靠', 'Większe Honory i Przeplatanka', 'Greater Honours/Knitted Tiles', [34, 51, 56, 62, 79]],
  [21, 24, 'All Even Pungs', '全双刻', 'Same Parzyste Pungi', 'All Even Pungs', [48, 68, 76]],
  [22, 24, 'Full Flush', '清一色', 'Pełny Kolor', 'Full Flush', [76]],
  [23, 24, 'Pure Triple Chow', '一色三同顺', 'Czyste Potrójne Chow', 'Pure Triple Chow', [24, 69]],
  [24, 24, 'Pure Shifted Pungs', '一色三节高', 'Czyste Kolejne Pungi', 'Pure Shifted Pungs', [23]],
  [25, 24, 'Upper Tiles', '全大', 'Wyższe Kamienie', 'Upper Tiles', [36, 76]],
  [26, 24, 'Middle Tiles', '全中', 'Środkowe Kamienie', 'Middle Tiles', [68, 76]],
  [27, 24, 'Lower Tiles', '全小', 'Niższe Kamienie', 'Lower Tiles', [37, 76]],
  [28, 16, 'Pure Straight', '清龙', 'Czysty Strit', 'Pure Straight', [71, 72]],
  [29, 16, 'Three-Suited Terminal Chows', '三色双龙会', 'Trójrodzajowe Skrajne Chow', 'Three-Suited Term. Chows', [63, 70, 72, 76]],
  [30, 16, 'Pure Shifted Chows', '一色三步高', 'Czyste Kolejne Chow', 'Pure Shifted Chows', []],
  [31, 16, 'All Five', '全带五', 'Wszędzie Piątki', 'All Fives', [68, 76]],
  [32, 16, 'Triple Pung', '三同刻', 'Potrójny Pung', 'Triple Pung', [65]],
  [33, 16, 'Three Concealed Pungs', '三暗刻', 'Trzy Ukryte Pungi', 'Three Concealed Pungs', [66]],
  [34, 12, 'Lesser Honors and Knitted Tiles', '全不靠', 'Mniejsze Honory i Przeplatanka', 'Lesser Honours/Knitted Tiles', [51, 56, 62, 79]],
  [35, 12, 'Knitted Straight', '组合龙', 'Przeplatany Strit', 'Knitted Straight', []],
  [36, 12, 'Upper Four', '大于五', 'Wyższa Czwórka', 'Upper Four', [76]],
  [37, 12, 'Lower Four', '小于五', 'Niższa Czwórka', 'Lower Four', [76]],
  [38, 12, 'Big Three Winds', '三风刻', 'Duże Trzy Wiatry', 'Big Three Winds', []],
  [39, 8, 'Mixed Straight', '花龙', 'Zmiksowany Strit', 'Mixed Straight', []],
  [40, 8, 'Reversible Tiles', '推不倒', 'Odwracalne Kamienie', 'Reversible Tiles', [75]],
  [41, 8, 'Mixed Triple Chow', '三色三同顺', 'Zmiksowane Potrójne Chow', 'Mixed Triple Chow', [70]],
  [42, 8, 'Mixed Shifted Pungs', '三色三节高', 'Zmiksowane Kolejne Pungi', 'Mixed Shifted Pungs', []],
  [43, 8, 'Chicken Hand', '无番和', 'Bezwartościowa Ręka', 'Chicken Hand', []],
  [44, 8, 'Last Tile Draw', '妙手回春', 'Wygrana Ostatnim Kamieniem z Muru', 'Last Tile Draw', [80]],
  [45, 8, 'Last Tile Claim', '海底捞月', 'Wygrana Ostatnią Zrzutką', 'Last Tile Claim', []],
  [46, 8, 'Out with Replacement Tile', '杠上开花', 'Wygrana Dodatkowym Kamieniem', 'Out with Replacement Tile', [80]],
  [47, 8, 'Robbing the Kong', '抢杠和', 'Rabunek Konga', 'Robbing the Kong', [58]],
  [48, 6, 'All Pungs', '碰碰和', 'Same Pungi', 'All Pungs', []],
  [49, 6, 'Half Flush', '混一色', 'Półkolor', 'Half Flush', []],
  [50, 6, 'Mixed Shifted Chows', '三色三步高', 'Zmiksowane Kolejne Chow', 'Mixed Shifted Chows', []],
  [51, 6, 'All Types', '五门齐', 'Wszystkie Rodzaje', 'All Types', []],
  [52, 6, 'Melded Hand', '全求人', 'Zameldowana Ręka', 'Melded Hand', [79]],
  [53, 6, 'Two Concealed Kongs', '双暗杠', 'Dwa Ukryte Kongi', 'Two Concealed Kongs', [66, 67]],
  [54, 6, 'Two Dragon Pungs', '双箭刻', 'Dwa Pungi Smoków', 'Two Dragons', [59]],
  [55, 4, 'Outside Hand', '全带幺', 'Zewnętrzna Ręka', 'Outside Hand', []],
  [56, 4, 'Fully Concealed Hand', '不求人', 'Całkowicie Ukryta Ręka', 'Fully Concealed', [62, 80]],
  [57, 4, 'Two Melded Kongs', '双明杠', 'Dwa Zameldowane Kongi', 'Two Kongs', [74]],
  [58, 4, 'Last Tile', '和绝张', 'Ostatni Kamień', 'Last Tile', []],
  [59, 2, 'Dragon Pung', '箭刻', 'Pung Smoka', 'Dragon Pung', []],
  [60, 2, 'Prevalent Wind', '圈风刻', 'Wiatr Rundy', 'Prevalent Wind', []],
  [61, 2, 'Seat Wind', '门风刻', 'Wiatr Miejsca', 'Seat Wind', []],
  [62, 2, 'Concealed Hand', '门前清', 'Ukryta Ręka', 'Concealed Hand', []],
  [63, 2, 'All Chows', '平和', 'Same Chow', 'All Chows', [76]],
  [64, 2, 'Tile Hog', '四归一', 'Pętelka (Tile Hog)', 'Tile Hog', []],
  [65, 2, 'Double Pung', '双同刻', 'Podwójny Pung', 'Double Pung', []],
  [66, 2, 'Two Concealed Pungs', '双暗刻', 'Dwa Ukryte Pungi', 'Two Concealed Pungs', []],
  [67, 2, 'Concealed Kong', '暗杠', 'Ukryty Kong', 'Concealed Kong', []],
  [68, 2, 'All Simples', '断幺', 'Same Zwykłe', 'All Simples', [76]],
  [69, 1, 'Pure Double Chow', '一般高', 'Czyste Podwójne Chow', 'Pure Double Chow', []],
  [70, 1, 'Mixed Double Chow', '喜相逢', 'Zmiksowane Podwójne Chow', 'Mixed Double Chow', []],
  [71, 1, 'Short Straight', '连六', 'Krótki Strit', 'Short Straight', []],
  [72, 1, 'Two Terminal Chows', '老少副', 'Dwa Skrajne Chow', 'Terminal Chows', []],
  [73, 1, 'Pung of Terminals or Honors', '幺九刻', 'Pung Skrajnych lub Honorów', 'Pung Term./Honour', []],
  [74, 1, 'Melded Kong', '明杠', 'Zameldowany Kong', 'Melded Kong', []],
  [75, 1, 'One Voided Suit', '缺一门', 'Bez Jednej Rodziny', 'Voided Suit', []],
  [76, 1, 'No Honors', '无字', 'Bez Honorów', 'No Honours', []],
  [77, 1, 'Edge Wait', '独听・边张', 'Skrajne Czekanie', 'Edge Wait', []],
  [78, 1, 'Closed Wait', '独听・嵌张', 'Zamknięte Czekanie', 'Closed Wait', []],
  [79, 1, 'Single Wait', '独听・单钓', 'Pojedyncze Czekanie', 'Single Wait', []],
  [80, 1, 'Self-Drawn', '自摸', 'Wygrana z Muru', 'Self-Drawn', []],
  [81, 1, 'Flower Tiles', '花牌', 'Kwiaty', 'Flower Tile', []],
];

export const FANS: readonly FanDef[] = Object.freeze(
  ROWS.map(([id, points, en, zh, pl, sv, excludes]) =>
    Object.freeze({ id, points, names: Object.freeze({ en, zh, pl, sv }), excludes: Object.freeze(excludes) }),
  ),
);

export function fanById(id: number): FanDef {
  const f = FANS[id - 1];
  if (!f || f.id !== id) throw new RangeError(`no MCR fan ${id}`);
  return f;
}
