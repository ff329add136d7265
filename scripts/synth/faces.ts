/**
 * Tile faces drawn in code: one SVG "sheet" per glyph style, rendered once by
 * sharp/librsvg, then cut into per-code glyph cells (RGBA on transparent).
 * Design space of one cell: 300 x 400.
 */
import { type Rng, chance, int, pick, uni, weighted } from './rng.ts';

export const TRAIN_FONTS = [
  'Noto Serif CJK TC:700', 'Noto Serif CJK TC:400', 'Noto Serif CJK SC:700', 'Noto Serif CJK JP:700',
  'Noto Sans CJK TC:700', 'Noto Sans CJK SC:400', 'AR PL UKai TW:400', 'AR PL UKai CN:400', 'AR PL UKai HK:400',
];
export const HOLDOUT_FONTS = ['WenQuanYi Zen Hei:400', 'AR PL UMing TW:400', 'AR PL UMing CN:400'];
/**
 * More CJK families (kai, song/ming, fangsong, hei, yuan, Japanese mincho/gothic) for
 * `--extra-fonts`: real tiles are painted in many calligraphic styles, and the
 * classifier must read numerals it has never seen in these exact shapes. Debian
 * packages: fonts-cwtex-*, fonts-cns11643-kai/sung, fonts-arphic-{b,g}kai00mp,
 * fonts-arphic-{bsmi00lp,gbsn00lp}, fonts-lxgw-wenkai, fonts-hanazono,
 * fonts-ipafont-mincho, fonts-ipaexfont-gothic, fonts-takao-gothic. None of them is
 * a holdout font.
 */
export const EXTRA_TRAIN_FONTS = [
  'cwTeXKai:400', 'cwTeXMing:400', 'cwTeXFangSong:400', 'cwTeXHeiBold:700', 'cwTeXYen:400',
  'TW-Kai:400', 'TW-Sung:400', 'AR PL KaitiM Big5:400', 'AR PL KaitiM GB:400', 'AR PL Mingti2L Big5:400',
  'AR PL SungtiL GB:400', 'LXGW WenKai:400', 'HanaMinA:400', 'IPAMincho:400', 'IPAexGothic:400', 'TakaoGothic:400',
];

export interface GlyphStyle {
  numFont: string;
  charFont: string;
  numWeight: number;
  charWeight: number;
  textStroke: number;
  numColor: string;
  wanColor: string;
  wan: string;
  arabicMain: boolean;
  index: null | 'tl' | 'tr' | 'bl';
  indexColor: string;
  blue: string;
  green: string;
  red: string;
  black: string;
  dotStyle: 'rings' | 'concentric' | 'petal' | 'solid' | 'spoke';
  stickStyle: 'segmented' | 'capsule' | 'double';
  birdStyle: 'bird' | 'peacock' | 'char' | 'stick';
  windColor: string;
  windLetter: boolean;
  white: 'blank' | 'frame' | 'frameChar' | 'double' | 'corners';
  whiteColor: string;
  flowerColor: string;
  seasonColor: string;
  flowerLayout: 'corner' | 'big' | 'side';
  flowerNum: 'arabic' | 'cn';
  flowerNumBox: 'none' | 'circle' | 'square';
  backPattern: 'none' | 'diamond' | 'circle' | 'stripes' | 'dots';
  seed: number;
  /** Generator 1.4.0 `--extra-styles` designs; absent otherwise. */
  extra?: ExtraStyle;
}

/**
 * More flower, season and bird designs (`--extra-styles`). Each set draws its own plants and
 * scenes, so what must carry over is the character and the numeral: the picture is either the
 * plant or season the tile is named for (plum blossom, orchid, chrysanthemum, bamboo; a spring
 * flower, the summer sun or lotus, an autumn leaf or moon, a winter snowflake or pine), drawn
 * filled or as line art, or an unrelated doodle; characters and numerals move around the face.
 */
export interface ExtraStyle {
  motif: number; // chance that a flower or season shows its own plant or scene rather than a doodle
  lineArt: boolean; // plant drawn as black outlines (as in line-art sets), not filled colour
  layout: 'corner' | 'big' | 'side' | 'column' | 'topNum' | 'noNum';
  charCorner: 0 | 1 | 2 | 3; // corner of the character in the corner layout
  numColor: 'group' | 'black' | 'red';
  bird: 'bird' | 'peacock' | 'outline' | 'sparrow' | 'crane' | 'char' | 'stick';
  /** Generator 1.5.0 (`--decoy-flowers`): chance that a flower or season shows the plant or scene
   * of a random flower or season instead of its own, so that only the character and the numeral
   * tell the eight apart (sets paint their flowers too differently for the picture to carry over). */
  decoy?: number;
  /** Generator 1.6.0 (`--ink`): the set is printed in one ink, as line-art sets are (Unicode-font
   * style): flowers and seasons with a small character in a corner, often no numeral, and a dense
   * line-art plant; the bird 1s as an upright ink bird on a perch. Absent for the other sets. */
  ink?: InkStyle;
  /** Generator 1.7.0 (`--birds`): the 1s is a procedural bird (birdProc): pose, body, head, beak,
   * crest, wing, tail and perch drawn from wide ranges, filled, outlined or in one ink, so that
   * the classifier learns "a bird" rather than the few bird designs it has seen. */
  procBird?: boolean;
  /** Generator 1.15.0 (`--ornaments`): chance that a flower or season shows a procedural ornament
   * (ornament: branches, blades, flower heads, rays, scrolls, stars in any mix, outlined or
   * filled) that has nothing to do with its name. Held-out sets draw plants never seen in training
   * (the Noto Symbols 2 glyphs' dense orchid and chrysanthemum were read as the spring), so the
   * readers must learn that an unknown drawing says nothing, and read the character and numeral. */
  ornament?: number;
}

export interface InkStyle {
  color: string; // the one ink of the faces it applies to
  charSize: number; // flower character size in the 300x400 design space (the 1.4.0 corner layout: 92)
  charCorner: 0 | 1 | 2 | 3;
  inset: number; // character centre distance from the face edge
  num: 'none' | 'beside' | 'corner'; // numeral: none, under the character, or in the opposite corner
  numColor: string;
  stroke: number; // plant line width
  filled: boolean; // plant filled in ink rather than outlined
  layers: 1 | 2 | 3; // overlapping plant drawings (line-art sets draw dense ornaments)
  bird: boolean; // the 1s is drawn as the upright ink bird
}

const BLUES = ['#1f3f9c', '#163a8a', '#2050b8', '#0e2d6e', '#2a4fa0', '#1b2f7a', '#244a8c'];
const GREENS = ['#1d7a35', '#167040', '#2a8a3a', '#0f6a4a', '#357a1f', '#1a6b2b', '#2e8b57'];
const REDS = ['#c41e24', '#b0141c', '#d42a2a', '#a8101a', '#cc2a1e', '#b81d3a', '#d0301a'];
const BLACKS = ['#111', '#1a1a1a', '#222a33', '#2b2020', '#101828'];

/** Which generator designs a drawn set may use (the --extra-styles, --decoy-flowers[/--decoy-always], --ink, --birds and --ornaments flags). */
export interface StyleFlags {
  extra?: boolean;
  decoy?: boolean | 'always';
  ink?: boolean;
  birds?: boolean;
  ornaments?: boolean;
}

/** Decoy, ink, bird and ornament designs apply only with `extra` (generator 1.4.0 designs). */
export function sampleGlyphStyle(r: Rng, fonts: string[], { extra = false, decoy = false, ink = false, birds = false, ornaments = false }: StyleFlags = {}): GlyphStyle {
  const f1 = pick(r, fonts);
  const f2 = chance(r, 0.7) ? f1 : pick(r, fonts);
  const [numFont, nw] = f1.split(':');
  const [charFont, cw] = f2.split(':');
  const blue = pick(r, BLUES);
  const green = pick(r, GREENS);
  const red = pick(r, REDS);
  const black = pick(r, BLACKS);
  const swapGroupColors = chance(r, 0.5);
  const st: GlyphStyle = {
    numFont, charFont, numWeight: Number(nw), charWeight: Number(cw),
    textStroke: weighted(r, [[0, 3], [2, 2], [4, 2], [7, 1]] as const),
    numColor: weighted(r, [[blue, 5], [black, 4], [green, 1], [red, 0.5]] as const),
    wanColor: red,
    wan: chance(r, 0.1) ? '万' : '萬',
    arabicMain: chance(r, 0.08),
    index: weighted(r, [[null, 6], ['tl', 2], ['tr', 1], ['bl', 1]] as const),
    indexColor: chance(r, 0.5) ? black : red,
    blue, green, red, black,
    dotStyle: pick(r, ['rings', 'concentric', 'petal', 'solid', 'spoke'] as const),
    stickStyle: pick(r, ['segmented', 'capsule', 'double'] as const),
    birdStyle: weighted(r, [['bird', 4], ['peacock', 4], ['char', 1], ['stick', 1]] as const),
    windColor: weighted(r, [[black, 5], [blue, 4], [green, 1]] as const),
    windLetter: chance(r, 0.25),
    white: weighted(r, [['blank', 2], ['frame', 3], ['frameChar', 2], ['double', 2], ['corners', 1]] as const),
    whiteColor: weighted(r, [[blue, 6], [black, 2], [green, 1]] as const),
    flowerColor: swapGroupColors ? blue : red,
    seasonColor: swapGroupColors ? red : pick(r, [blue, green, black]),
    flowerLayout: weighted(r, [['corner', 5], ['big', 2], ['side', 2]] as const),
    flowerNum: chance(r, 0.75) ? 'arabic' : 'cn',
    flowerNumBox: weighted(r, [['none', 4], ['circle', 1.5], ['square', 1]] as const),
    backPattern: weighted(r, [['none', 5], ['diamond', 1], ['circle', 1], ['stripes', 1], ['dots', 1]] as const),
    seed: Math.floor(r() * 1e9),
  };
  if (extra) {
    st.extra = {
      motif: pick(r, [0.3, 0.6, 0.9]),
      lineArt: chance(r, 0.3),
      layout: weighted(r, [['corner', 4], ['big', 1.5], ['side', 1.5], ['column', 1.5], ['topNum', 1.5], ['noNum', 1]] as const),
      charCorner: int(r, 0, 3) as 0 | 1 | 2 | 3,
      numColor: weighted(r, [['group', 4], ['black', 1], ['red', 1]] as const),
      bird: weighted(r, [['bird', 2], ['peacock', 2], ['outline', 3], ['sparrow', 3], ['crane', 2], ['char', 1], ['stick', 1]] as const),
    };
    // drawn last, so that without --decoy-flowers the draws are those of 1.4.0
    if (decoy) st.extra.decoy = pick(r, [0.3, 0.5, 0.7]);
    if (decoy === 'always') st.extra.decoy = 1;
    // drawn after the 1.5.0 draws, so that without --ink the output is that of 1.5.0
    if (ink && chance(r, 0.65)) {
      const color = weighted(r, [[black, 6], [blue, 1], [green, 1], [red, 1]] as const);
      st.extra.ink = {
        color,
        charSize: uni(r, 42, 84),
        charCorner: int(r, 0, 3) as 0 | 1 | 2 | 3,
        inset: uni(r, 30, 52),
        num: weighted(r, [['none', 4], ['beside', 2], ['corner', 2]] as const),
        numColor: chance(r, 0.7) ? color : red,
        stroke: uni(r, 2.5, 6),
        filled: chance(r, 0.3),
        layers: weighted(r, [[1, 3], [2, 2], [3, 1]] as const),
        bird: chance(r, 0.7),
      };
    }
    // drawn after the 1.6.0 draws, so that without --birds the output is that of 1.6.0
    if (birds && chance(r, 0.75)) st.extra.procBird = true;
    // drawn after the 1.7.0 draws, so that without --ornaments the output is that of 1.7.0
    if (ornaments) st.extra.ornament = pick(r, [0.4, 0.7, 1]);
  }
  return st;
}

const CN = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

function text(s: string, cx: number, cy: number, size: number, font: string, weight: number, fill: string,
  stroke = 0, sx = 1, sy = 1): string {
  // CJK glyph body sits roughly between baseline-0.88em and baseline+0.12em
  const by = 0.36 * size;
  const st = stroke > 0 ? ` stroke="${fill}" stroke-width="${stroke}" stroke-linejoin="round"` : '';
  return `<g transform="translate(${cx.toFixed(1)},${cy.toFixed(1)}) scale(${sx.toFixed(3)},${sy.toFixed(3)})"><text x="0" y="${by.toFixed(1)}" font-family="${font}" font-weight="${weight}" font-size="${size.toFixed(1)}" text-anchor="middle" fill="${fill}"${st}>${s}</text></g>`;
}

function circleDot(r: Rng, st: GlyphStyle, cx: number, cy: number, rad: number, main: string, accent: string): string {
  const c = (rr: number, fill: string, stroke = 'none', sw = 0) =>
    `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${Math.max(0.5, rr).toFixed(1)}" fill="${fill}" stroke="${stroke}" stroke-width="${sw.toFixed(1)}"/>`;
  switch (st.dotStyle) {
    case 'rings':
      return c(rad * 0.86, 'none', main, rad * 0.22) + c(rad * 0.45, accent) + c(rad * 0.16, '#fff');
    case 'concentric':
      return c(rad * 0.9, 'none', main, rad * 0.14) + c(rad * 0.58, 'none', accent, rad * 0.13) + c(rad * 0.25, main);
    case 'petal': {
      let s = c(rad * 0.9, 'none', main, rad * 0.15);
      for (let k = 0; k < 8; k++) {
        const a = (k / 8) * Math.PI * 2;
        s += `<circle cx="${(cx + Math.cos(a) * rad * 0.52).toFixed(1)}" cy="${(cy + Math.sin(a) * rad * 0.52).toFixed(1)}" r="${(rad * 0.14).toFixed(1)}" fill="${accent}"/>`;
      }
      return s + c(rad * 0.2, main);
    }
    case 'solid':
      return c(rad * 0.95, main) + c(rad * 0.62, 'none', '#fff', rad * 0.1) + c(rad * 0.3, accent);
    case 'spoke': {
      let s = c(rad * 0.9, 'none', main, rad * 0.16);
      for (let k = 0; k < 6; k++) {
        const a = (k / 6) * Math.PI + r() * 0;
        s += `<line x1="${(cx - Math.cos(a) * rad * 0.7).toFixed(1)}" y1="${(cy - Math.sin(a) * rad * 0.7).toFixed(1)}" x2="${(cx + Math.cos(a) * rad * 0.7).toFixed(1)}" y2="${(cy + Math.sin(a) * rad * 0.7).toFixed(1)}" stroke="${accent}" stroke-width="${(rad * 0.09).toFixed(1)}"/>`;
      }
      return s + c(rad * 0.22, main);
    }
  }
}

function dots(r: Rng, st: GlyphStyle, n: number): string {
  const B = st.blue, G = st.green, R = st.red;
  type D = [number, number, number, string, string];
  let ds: D[] = [];
  switch (n) {
    case 1: {
      const v = st.seed % 3;
      if (v === 1) {
        // sun / flower: petals around rings
        let s = '';
        for (let i = 0; i < 12; i++) {
          const a = (i / 12) * Math.PI * 2;
          s += `<ellipse cx="${(150 + Math.cos(a) * 95).toFixed(1)}" cy="${(200 + Math.sin(a) * 95).toFixed(1)}" rx="30" ry="16" transform="rotate(${((a * 180) / Math.PI).toFixed(1)} ${(150 + Math.cos(a) * 95).toFixed(1)} ${(200 + Math.sin(a) * 95).toFixed(1)})" fill="${i % 2 ? G : B}"/>`;
        }
        return s + `<circle cx="150" cy="200" r="70" fill="none" stroke="${R}" stroke-width="14"/><circle cx="150" cy="200" r="45" fill="${B}"/><circle cx="150" cy="200" r="22" fill="#fff"/><circle cx="150" cy="200" r="10" fill="${R}"/>`;
      }
      if (v === 2) {
        // simple concentric rings
        return `<circle cx="150" cy="200" r="120" fill="none" stroke="${B}" stroke-width="18"/><circle cx="150" cy="200" r="88" fill="none" stroke="${G}" stroke-width="14"/><circle cx="150" cy="200" r="58" fill="none" stroke="${R}" stroke-width="14"/><circle cx="150" cy="200" r="28" fill="${B}"/>`;
      }
      // big patterned circle
      let s = `<circle cx="150" cy="200" r="122" fill="none" stroke="${G}" stroke-width="14"/>`;
      s += `<circle cx="150" cy="200" r="100" fill="none" stroke="${B}" stroke-width="6"/>`;
      const k = int(r, 8, 16);
      for (let i = 0; i < k; i++) {
        const a = (i / k) * Math.PI * 2;
        s += `<circle cx="${(150 + Math.cos(a) * 78).toFixed(1)}" cy="${(200 + Math.sin(a) * 78).toFixed(1)}" r="${(110 / k + 4).toFixed(1)}" fill="${i % 2 ? R : B}"/>`;
      }
      s += `<circle cx="150" cy="200" r="52" fill="${R}"/><circle cx="150" cy="200" r="36" fill="none" stroke="#fff" stroke-width="6"/><circle cx="150" cy="200" r="14" fill="${G}"/>`;
      return s;
    }
    case 2: ds = [[150, 108, 74, G, B], [150, 292, 74, B, R]]; break;
    case 3: ds = [[72, 76, 58, B, R], [150, 200, 58, R, G], [228, 324, 58, G, B]]; break;
    case 4: ds = [[86, 116, 64, B, R], [214, 116, 64, G, R], [86, 284, 64, G, R], [214, 284, 64, B, R]]; break;
    case 5: ds = [[80, 88, 54, B, R], [220, 88, 54, G, R], [150, 200, 54, R, G], [80, 312, 54, G, R], [220, 312, 54, B, R]]; break;
    case 6: ds = [[86, 72, 52, G, R], [214, 72, 52, G, R], [86, 214, 52, R, B], [214, 214, 52, R, B], [86, 330, 52, R, B], [214, 330, 52, R, B]]; break;
    case 7: ds = [[62, 56, 42, G, R], [150, 100, 42, G, R], [238, 144, 42, G, R], [88, 238, 44, R, B], [212, 238, 44, R, B], [88, 340, 44, R, B], [212, 340, 44, R, B]]; break;
    case 8: for (const y of [60, 153, 247, 340]) for (const x of [88, 212]) ds.push([x, y, 45, B, R]); break;
    case 9: [[75, B], [200, R], [325, G]].forEach(([y, c]) => { for (const x of [60, 150, 240]) ds.push([x, y as number, 44, c as string, c === R ? B : R]); }); break;
  }
  return ds.map(([x, y, rad, m, a]) => circleDot(r, st, x, y, rad, m, a)).join('');
}

function stick(st: GlyphStyle, cx: number, cy: number, len: number, w: number, ang: number, color: string): string {
  const h = len / 2;
  let s = `<g transform="translate(${cx.toFixed(1)},${cy.toFixed(1)}) rotate(${ang.toFixed(1)})">`;
  if (st.stickStyle === 'double') {
    s += `<rect x="${-w / 2}" y="${-h}" width="${w * 0.42}" height="${len}" rx="${w * 0.2}" fill="${color}"/>`;
    s += `<rect x="${w * 0.08}" y="${-h}" width="${w * 0.42}" height="${len}" rx="${w * 0.2}" fill="${color}"/>`;
    s += `<rect x="${-w * 0.6}" y="${-w * 0.12}" width="${w * 1.2}" height="${w * 0.24}" rx="${w * 0.1}" fill="${color}"/>`;
  } else {
    s += `<rect x="${-w / 2}" y="${-h}" width="${w}" height="${len}" rx="${w * 0.45}" fill="${color}"/>`;
    s += `<line x1="0" y1="${-h + w * 0.5}" x2="0" y2="${h - w * 0.5}" stroke="#fff" stroke-width="${(w * 0.16).toFixed(1)}" stroke-opacity="0.85"/>`;
    if (st.stickStyle === 'segmented') {
      s += `<rect x="${-w * 0.62}" y="${-w * 0.14}" width="${w * 1.24}" height="${w * 0.28}" rx="${w * 0.12}" fill="${color}"/>`;
      s += `<rect x="${-w * 0.62}" y="${-h - 2}" width="${w * 1.24}" height="${w * 0.26}" rx="${w * 0.12}" fill="${color}"/>`;
      s += `<rect x="${-w * 0.62}" y="${h - w * 0.26 + 2}" width="${w * 1.24}" height="${w * 0.26}" rx="${w * 0.12}" fill="${color}"/>`;
    } else {
      s += `<line x1="${-w / 2}" y1="0" x2="${w / 2}" y2="0" stroke="#fff" stroke-width="${(w * 0.12).toFixed(1)}"/>`;
    }
  }
  return s + '</g>';
}

/** Generator 1.4.0 birds (`--extra-styles`): line-art, sparrow and crane designs. */
function birdExtra(r: Rng, st: GlyphStyle, kind: 'outline' | 'sparrow' | 'crane'): string {
  const G = st.green, R = st.red, B = st.blue;
  const flip = chance(r, 0.5) ? -1 : 1;
  const sx = uni(r, 0.85, 1.1), sy = uni(r, 0.85, 1.1);
  let s = `<g transform="translate(150,200) scale(${f1(flip * sx)},${f1(sy)}) rotate(${f1(uni(r, -12, 12))}) translate(-150,-200)">`;
  if (kind === 'outline') {
    // line art: body, head, tail and wing as black (or one-colour) outlines, a perch below
    const ink = pick(r, [st.black, st.black, G, B]);
    const sw = uni(r, 4, 8);
    s += `<g fill="none" stroke="${ink}" stroke-width="${f1(sw)}" stroke-linejoin="round" stroke-linecap="round">`;
    s += `<path d="M95,230 Q120,170 185,165 Q230,165 235,130 Q240,100 215,95 Q195,92 190,115 Q185,140 150,150 Q95,170 70,250 Q90,250 95,230 Z"/>`;
    s += `<path d="M120,200 Q150,180 175,200 Q150,215 120,200 Z"/>`;
    s += `<path d="M85,245 L40,${f1(uni(r, 300, 350))} M95,245 L70,${f1(uni(r, 320, 370))}"/>`;
    s += `<path d="M235,110 L262,118 L235,124"/><circle cx="218" cy="110" r="5"/>`;
    s += `<path d="M140,225 L135,285 M160,222 L165,285 M60,290 Q150,280 250,300"/>`;
    if (chance(r, 0.6)) for (let i = 0; i < 4; i++) s += `<path d="M${120 + i * 18},190 q6,-12 14,-4"/>`;
    s += '</g>';
  } else if (kind === 'sparrow') {
    // a round bird on a branch, filled
    const body = pick(r, [G, B, '#8a5a30']);
    s += `<path d="M30,300 Q150,270 280,310" stroke="#6a4020" stroke-width="10" fill="none" stroke-linecap="round"/>`;
    s += leafPair(G);
    s += `<ellipse cx="150" cy="220" rx="70" ry="55" fill="${body}"/><circle cx="205" cy="165" r="34" fill="${body}"/>`;
    s += `<path d="M90,230 L30,200 L50,250 Z" fill="${pick(r, [G, B, R])}"/><path d="M120,205 Q160,190 185,225 Q150,240 120,205 Z" fill="${pick(r, [R, B, G])}"/>`;
    s += `<circle cx="215" cy="158" r="6" fill="#fff"/><circle cx="216" cy="158" r="3" fill="#000"/><path d="M236,160 L262,168 L236,176 Z" fill="${R}"/>`;
    s += `<path d="M140,272 L135,298 M165,272 L170,298" stroke="${R}" stroke-width="6"/>`;
  } else {
    // crane: long neck and legs, red crown
    s += `<ellipse cx="140" cy="200" rx="75" ry="40" fill="${pick(r, ['#f4f4f4', B, G])}" stroke="${st.black}" stroke-width="4"/>`;
    s += `<path d="M70,190 L20,170 L40,215 Z" fill="${st.black}"/>`;
    s += `<path d="M200,185 Q240,120 215,60" stroke="${st.black}" stroke-width="12" fill="none" stroke-linecap="round"/>`;
    s += `<circle cx="215" cy="55" r="16" fill="${st.black}"/><circle cx="215" cy="44" r="8" fill="${R}"/><path d="M228,55 L275,70 L228,64 Z" fill="${st.black}"/>`;
    s += `<path d="M130,235 L120,360 M155,235 L170,360" stroke="${st.black}" stroke-width="6" fill="none"/>`;
  }
  return s + '</g>';
}

/**
 * Generator 1.6.0: an upright ornamental bird in one ink, as line-art sets draw it: a crested head
 * at the top, a teardrop body, long tail feathers sweeping down, a perch with curled ends.
 */
function birdInk(r: Rng, ink: InkStyle): string {
  const c = ink.color, sw = uni(r, 3, 8);
  const flip = chance(r, 0.5) ? -1 : 1;
  const hx = 150 + uni(r, -20, 20), hy = uni(r, 70, 110), hr = uni(r, 18, 28);
  const by = hy + uni(r, 70, 100), bw = uni(r, 32, 50), bh = uni(r, 50, 75);
  const ty = uni(r, 320, 375);
  let s = `<g transform="translate(150,200) scale(${flip},1) rotate(${f1(uni(r, -10, 10))}) translate(-150,-200)" stroke="${c}" stroke-width="${f1(sw)}" stroke-linecap="round" stroke-linejoin="round" fill="none">`;
  // head, eye, beak and crest
  s += `<circle cx="${f1(hx)}" cy="${f1(hy)}" r="${f1(hr)}" ${chance(r, 0.4) ? `fill="${c}"` : ''}/>`;
  s += `<circle cx="${f1(hx + hr * 0.35)}" cy="${f1(hy - hr * 0.2)}" r="${f1(hr * 0.18)}" fill="${c}"/>`;
  s += `<path d="M${f1(hx + hr * 0.9)},${f1(hy - 4)} L${f1(hx + hr * 1.9)},${f1(hy + 2)} L${f1(hx + hr * 0.9)},${f1(hy + 8)}"/>`;
  for (let i = 0, m = int(r, 2, 5); i < m; i++) s += `<path d="M${f1(hx - hr * 0.3)},${f1(hy - hr * 0.8)} q${f1(uni(r, -50, -10))},${f1(uni(r, -40, -15))} ${f1(uni(r, -60, -30))},${f1(uni(r, -20, 10))}"/>`;
  // body: a teardrop from the neck down to the tail root, with wing lines
  s += `<path d="M${f1(hx - hr * 0.6)},${f1(hy + hr * 0.7)} Q${f1(hx - bw * 1.3)},${f1(by)} ${f1(hx - 6)},${f1(by + bh)} Q${f1(hx + bw * 1.2)},${f1(by)} ${f1(hx + hr * 0.6)},${f1(hy + hr * 0.8)}"/>`;
  for (let i = 0, m = int(r, 2, 4); i < m; i++) s += `<path d="M${f1(hx - bw * 0.5 + i * 8)},${f1(by - bh * 0.3 + i * 10)} q${f1(bw * 0.6)},${f1(bh * 0.5)} ${f1(bw * 0.2)},${f1(bh * 0.9)}"/>`;
  // tail feathers down to the foot of the face
  for (let i = 0, m = int(r, 2, 5); i < m; i++) {
    const ex = hx - 6 + uni(r, -45, 45);
    s += `<path d="M${f1(hx - 6)},${f1(by + bh)} Q${f1(ex + uni(r, -30, 30))},${f1((by + bh + ty) / 2)} ${f1(ex)},${f1(ty)}"/>`;
  }
  // the perch across the body, curled at both ends
  const py = by + bh * uni(r, 0.3, 0.8), pl = uni(r, 55, 95);
  s += `<path d="M${f1(hx - pl)},${f1(py + 6)} L${f1(hx + pl)},${f1(py - 6)}"/>`;
  s += `<path d="M${f1(hx - pl)},${f1(py + 6)} q-14,-4 -10,-16 q8,-6 12,4"/><path d="M${f1(hx + pl)},${f1(py - 6)} q14,4 10,16 q-8,6 -12,-4"/>`;
  return s + '</g>';
}

/**
 * Generator 1.7.0 (`--birds`): a procedural bird. Sets draw the 1 of bamboo as every kind of bird
 * (sparrow, parrot, peacock, crane, phoenix, rooster), standing, perched or flying, in colour or
 * as line art; the parts and their proportions are drawn here from wide ranges so that no one
 * design is learned. Drawn in the 300x400 face space.
 */
function birdProc(r: Rng, st: GlyphStyle): string {
  const G = st.green, R = st.red, B = st.blue, K = st.black;
  const ink = st.extra?.ink?.color;
  const mode = ink ? weighted(r, [['line', 3], ['fill', 1]] as const) : weighted(r, [['fill', 4], ['line', 3], ['both', 3], ['silhouette', 1]] as const);
  const palette = ink ? [ink] : [G, B, R, '#8a5a30', '#c08a20', K];
  const col = () => pick(r, palette);
  const line = ink ?? (chance(r, 0.7) ? K : col());
  const sw = uni(r, 2.5, 8);
  const fillOf = (c: string) => (mode === 'line' ? 'none' : mode === 'silhouette' ? line : c);
  const strokeOf = mode === 'fill' ? 'none' : line;
  const shape = (d: string, c: string) => `<path d="${d}" fill="${fillOf(c)}" stroke="${strokeOf}" stroke-width="${f1(sw)}" stroke-linejoin="round" stroke-linecap="round"/>`;
  // a small filled part (leaf, beak): its own fill, outlined in the set's line mode
  const part = (d: string, fill: string, outline: string, w: number) => `<path d="${d}" fill="${mode === 'line' ? 'none' : fill}" stroke="${mode === 'fill' ? 'none' : outline}" stroke-width="${f1(w)}"/>`;
  const stroke = (d: string, c = line, w = sw) => `<path d="${d}" fill="none" stroke="${c}" stroke-width="${f1(w)}" stroke-linecap="round" stroke-linejoin="round"/>`;
  const pose = weighted(r, [['perched', 4], ['standing', 3], ['flying', 2]] as const);
  // body: an ellipse at (bx, by), long axis at angle ba (degrees, 0 = head to the right)
  const bx = uni(r, 120, 170), by = uni(r, 170, 240), rx = uni(r, 45, 85), ry = rx * uni(r, 0.45, 0.8);
  const ba = pose === 'perched' ? uni(r, -70, -25) : pose === 'standing' ? uni(r, -25, 5) : uni(r, -15, 15);
  const rad = (ba * Math.PI) / 180, ca = Math.cos(rad), sa = Math.sin(rad);
  const at = (u: number, v: number): [number, number] => [bx + u * ca - v * sa, by + u * sa + v * ca]; // body frame -> face
  const P = ([x, y]: [number, number]) => `${f1(x)},${f1(y)}`;
  let s = '';
  // perch or ground
  const perch = pose === 'perched' || (pose === 'standing' && chance(r, 0.4));
  const footY = by + ry * uni(r, 1.1, 1.6) + (pose === 'standing' ? uni(r, 20, 50) : 0);
  if (perch) {
    const bc = ink ?? pick(r, ['#6a4020', '#5a3a1a', K, G]);
    const y0 = footY + uni(r, -10, 10), y1 = footY + uni(r, -30, 30);
    s += stroke(`M${f1(uni(r, 10, 60))},${f1(y0)} Q150,${f1((y0 + y1) / 2 + uni(r, -20, 20))} ${f1(uni(r, 240, 290))},${f1(y1)}`, bc, uni(r, 5, 14));
    for (let i = 0, m = int(r, 0, 4); i < m; i++) {
      const lx = uni(r, 40, 260), ly = footY + uni(r, -10, 10), lc = ink ?? pick(r, [G, G, R, B]);
      const dx = uni(r, 15, 35) * (chance(r, 0.5) ? -1 : 1), dy = uni(r, -35, 20);
      s += part(`M${f1(lx)},${f1(ly)} Q${f1(lx + dx * 0.3)},${f1(ly + dy - 10)} ${f1(lx + dx)},${f1(ly + dy)} Q${f1(lx + dx * 0.7)},${f1(ly + dy + 10)} ${f1(lx)},${f1(ly)} Z`, lc, lc, sw * 0.7);
    }
  } else if (pose === 'standing' && chance(r, 0.5)) {
    s += stroke(`M${f1(uni(r, 20, 80))},${f1(footY)} L${f1(uni(r, 220, 280))},${f1(footY + uni(r, -8, 8))}`, ink ?? col(), uni(r, 3, 7));
  }
  // tail from the body's back end
  const tail = weighted(r, [['streamers', 3], ['fan', 2], ['wedge', 3], ['plumes', 2]] as const);
  const [tx, ty] = at(-rx * 0.85, 0);
  const tdir = Math.PI + rad + uni(r, -0.5, 0.5) + (pose === 'perched' ? 0.3 : 0);
  const tlen = tail === 'wedge' ? uni(r, 35, 70) : uni(r, 80, 170);
  const tc = col();
  const tips: [number, number][] = [];
  const nf = tail === 'wedge' ? 1 : int(r, 2, tail === 'fan' ? 9 : 5);
  for (let i = 0; i < nf; i++) {
    const a = tdir + (nf > 1 ? (i / (nf - 1) - 0.5) * (tail === 'fan' ? uni(r, 1.2, 2.2) : uni(r, 0.3, 0.9)) : 0);
    tips.push([Math.min(285, Math.max(15, tx + Math.cos(a) * tlen)), Math.min(390, Math.max(10, ty + Math.sin(a) * tlen))]);
  }
  if (tail === 'wedge') {
    const [ex, ey] = tips[0]!, px = -Math.sin(tdir) * uni(r, 12, 25), py = Math.cos(tdir) * uni(r, 12, 25);
    s += shape(`M${P(at(-rx * 0.6, -ry * 0.4))} L${f1(ex + px)},${f1(ey + py)} L${f1(ex - px)},${f1(ey - py)} L${P(at(-rx * 0.6, ry * 0.4))} Z`, tc);
  } else {
    for (const [ex, ey] of tips) {
      const bend = uni(r, -40, 40);
      s += stroke(`M${f1(tx)},${f1(ty)} Q${f1((tx + ex) / 2 + bend)},${f1((ty + ey) / 2 - bend * 0.5)} ${f1(ex)},${f1(ey)}`, mode === 'line' || mode === 'silhouette' ? line : tc, uni(r, 3, 9));
      if (tail === 'fan') s += `<ellipse cx="${f1(ex)}" cy="${f1(ey)}" rx="${f1(uni(r, 8, 16))}" ry="${f1(uni(r, 10, 20))}" fill="${fillOf(col())}" stroke="${strokeOf}" stroke-width="${f1(sw * 0.6)}"/>`;
      if (tail === 'plumes') s += `<path d="M${f1(ex)},${f1(ey)} q${f1(uni(r, -20, 20))},${f1(uni(r, -25, -5))} ${f1(uni(r, -12, 12))},${f1(uni(r, -30, -15))}" fill="none" stroke="${mode === 'fill' ? tc : line}" stroke-width="${f1(sw)}"/>`;
    }
  }
  // legs
  if (pose !== 'flying' || chance(r, 0.3)) {
    const lc = ink ?? pick(r, [R, K, '#c08a20']);
    for (const u of [-0.1, 0.2]) {
      const [lx, ly] = at(rx * u, ry * 0.8);
      const fx = lx + uni(r, -10, 10), fy = pose === 'flying' ? ly + 25 : Math.max(ly + 12, footY);
      s += stroke(`M${f1(lx)},${f1(ly)} L${f1(fx)},${f1(fy)} m-10,4 l10,-4 l12,3`, lc, uni(r, 2.5, 6));
    }
  }
  // body (a teardrop: round breast, pointed back)
  s += shape(`M${P(at(rx, 0))} C${P(at(rx, ry * 1.3))} ${P(at(-rx * 0.6, ry * 1.1))} ${P(at(-rx, 0))} C${P(at(-rx * 0.6, -ry * 1.1))} ${P(at(rx, -ry * 1.3))} ${P(at(rx, 0))} Z`, col());
  // wing: a leaf over the body, raised when flying
  if (pose === 'flying') {
    for (const side of chance(r, 0.6) ? [-1, 1] : [-1]) {
      const [wx, wy] = at(rx * 0.1, -ry * 0.3 * side);
      const wl = uni(r, 70, 120), wa = rad - Math.PI / 2 * side + uni(r, -0.5, 0.3);
      const ex = wx + Math.cos(wa) * wl, ey = wy + Math.sin(wa) * wl;
      s += shape(`M${f1(wx - 25 * ca)},${f1(wy - 25 * sa)} Q${f1(ex - 20)},${f1(ey + 10)} ${f1(ex)},${f1(ey)} Q${f1(ex + 25)},${f1(ey + 20)} ${f1(wx + 30 * ca)},${f1(wy + 30 * sa)} Z`, col());
    }
  } else {
    const wc = col();
    s += shape(`M${P(at(rx * 0.45, -ry * 0.3))} Q${P(at(-rx * 0.2, -ry * 0.9))} ${P(at(-rx * uni(r, 0.9, 1.3), ry * 0.1))} Q${P(at(0, ry * 0.6))} ${P(at(rx * 0.45, -ry * 0.3))} Z`, wc);
    if (chance(r, 0.6)) for (let i = 0, m = int(r, 2, 4); i < m; i++) s += stroke(`M${P(at(rx * (0.2 - i * 0.2), -ry * 0.3))} L${P(at(rx * (-0.3 - i * 0.2), ry * 0.2))}`, mode === 'fill' ? (ink ?? '#fff') : line, sw * 0.6);
  }
  // neck and head
  const hr = ry * uni(r, 0.45, 0.75);
  const neck = pose === 'perched' ? uni(r, 0.1, 0.5) : uni(r, 0.2, 1.2);
  const [nx, ny] = at(rx * 0.8, -ry * 0.5);
  const hx = Math.min(275 - hr, nx + Math.cos(rad - 0.9) * hr * (1 + neck * 2)), hy = Math.max(15 + hr, ny + Math.sin(rad - 0.9) * hr * (1 + neck * 2) - hr * neck);
  if (neck > 0.6) s += stroke(`M${f1(nx)},${f1(ny)} L${f1(hx)},${f1(hy)}`, mode === 'line' ? line : col(), hr * 0.9);
  const hc = col();
  s += `<circle cx="${f1(hx)}" cy="${f1(hy)}" r="${f1(hr)}" fill="${fillOf(hc)}" stroke="${strokeOf}" stroke-width="${f1(sw)}"/>`;
  // beak: short cone, long pointed, or hooked
  const beak = weighted(r, [['cone', 3], ['long', 2], ['hook', 2]] as const);
  const bl = hr * (beak === 'long' ? uni(r, 1.3, 2.4) : uni(r, 0.6, 1.1));
  const bc = ink ?? pick(r, [R, '#c08a20', K]);
  const bxx = hx + hr * 0.9;
  s += part(beak === 'hook'
    ? `M${f1(bxx)},${f1(hy - hr * 0.35)} Q${f1(bxx + bl)},${f1(hy - hr * 0.4)} ${f1(bxx + bl * 0.8)},${f1(hy + hr * 0.4)} L${f1(bxx)},${f1(hy + hr * 0.2)} Z`
    : `M${f1(bxx)},${f1(hy - hr * 0.3)} L${f1(bxx + bl)},${f1(hy + hr * 0.05)} L${f1(bxx)},${f1(hy + hr * 0.3)} Z`, bc, line, sw * 0.7);
  // eye
  const ec = mode === 'silhouette' ? '#fff' : ink ?? K;
  s += `<circle cx="${f1(hx + hr * 0.3)}" cy="${f1(hy - hr * 0.15)}" r="${f1(Math.max(2.5, hr * uni(r, 0.12, 0.22)))}" fill="${ec}"/>`;
  // crest or comb
  const crest = weighted(r, [['none', 3], ['feathers', 3], ['comb', 1]] as const);
  if (crest === 'feathers') {
    for (let i = 0, m = int(r, 1, 5); i < m; i++) s += stroke(`M${f1(hx - hr * 0.2)},${f1(hy - hr * 0.8)} q${f1(uni(r, -35, 5))},${f1(uni(r, -40, -15))} ${f1(uni(r, -55, -10))},${f1(uni(r, -45, -5))}`, ink ?? col(), sw * 0.8);
  } else if (crest === 'comb') {
    s += `<path d="M${f1(hx - hr * 0.5)},${f1(hy - hr * 0.7)} q${f1(hr * 0.2)},${f1(-hr * 0.9)} ${f1(hr * 0.4)},0 q${f1(hr * 0.2)},${f1(-hr * 0.9)} ${f1(hr * 0.4)},0 q${f1(hr * 0.2)},${f1(-hr * 0.8)} ${f1(hr * 0.4)},${f1(hr * 0.2)}" fill="${ink ?? R}" stroke="none"/>`;
  }
  const flip = chance(r, 0.5) ? -1 : 1;
  const sc = uni(r, 0.8, 1.05);
  return `<g transform="translate(150,200) scale(${f1(flip * sc)},${f1(sc)}) rotate(${f1(uni(r, -10, 10))}) translate(-150,-200)">${s}</g>`;
}

function leafPair(c: string): string {
  return `<path d="M70,290 Q50,260 70,240 Q85,265 70,290 Z" fill="${c}"/><path d="M240,300 Q270,280 275,255 Q245,265 240,300 Z" fill="${c}"/>`;
}

function bird(r: Rng, st: GlyphStyle): string {
  const G = st.green, R = st.red, B = st.blue;
  if (st.extra?.procBird) return birdProc(r, st);
  if (st.extra?.ink?.bird) return birdInk(r, st.extra.ink);
  const eb = st.extra?.bird;
  if (eb === 'outline' || eb === 'sparrow' || eb === 'crane') return birdExtra(r, st, eb);
  if (st.extra && eb !== st.birdStyle) st = { ...st, birdStyle: eb! };
  if (st.birdStyle === 'char') {
    return text('幺', 150, 150, 200, st.charFont, st.charWeight, G, st.textStroke) + stick(st, 150, 310, 120, 34, 0, R);
  }
  if (st.birdStyle === 'stick') {
    return stick(st, 150, 200, 320, 70, 0, G) + `<circle cx="150" cy="200" r="18" fill="${R}"/>`;
  }
  const flip = chance(r, 0.5) ? -1 : 1;
  let s = `<g transform="translate(150,200) scale(${flip},1) translate(-150,-200)">`;
  if (st.birdStyle === 'peacock') {
    // tail fan of feathers
    const k = int(r, 7, 11);
    for (let i = 0; i < k; i++) {
      const a = Math.PI * (1.05 + (i / (k - 1)) * 0.9);
      const x = 150 + Math.cos(a) * 115, y = 190 + Math.sin(a) * 125;
      s += `<line x1="150" y1="200" x2="${x.toFixed(1)}" y2="${y.toFixed(1)}" stroke="${G}" stroke-width="5"/>`;
      s += `<ellipse cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" rx="20" ry="26" fill="${G}"/><circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="10" fill="${i % 2 ? R : B}"/>`;
    }
  } else {
    s += `<path d="M120,230 Q60,160 40,60 Q110,120 150,200 Z" fill="${G}"/><path d="M130,235 Q100,150 110,40 Q160,130 165,215 Z" fill="${B}"/>`;
  }
  // body, neck, head
  s += `<ellipse cx="165" cy="255" rx="62" ry="44" fill="${pick(r, [G, B])}"/>`;
  s += `<path d="M150,245 Q165,300 200,262 Z" fill="${R}"/>`;
  s += `<path d="M200,240 Q225,200 215,165" stroke="${G}" stroke-width="20" fill="none" stroke-linecap="round"/>`;
  s += `<circle cx="215" cy="160" r="20" fill="${B}"/><circle cx="221" cy="155" r="5" fill="#fff"/><path d="M232,158 L262,168 L232,172 Z" fill="${R}"/>`;
  s += `<path d="M212,142 l-6,-22 l10,16 l4,-20 l2,22" stroke="${R}" stroke-width="4" fill="none"/>`;
  s += `<path d="M150,295 L140,350 M180,295 L188,350 M128,350 h28 M178,350 h26" stroke="${R}" stroke-width="7" fill="none" stroke-linecap="round"/>`;
  return s + '</g>';
}

function bamboo(r: Rng, st: GlyphStyle, n: number): string {
  const G = st.green, R = st.red, B = st.blue;
  const alt = chance(r, 0.5) ? B : G;
  const S = (x: number, y: number, len: number, c: string, a = 0, w = 44) => stick(st, x, y, len, w, a, c);
  switch (n) {
    case 1: return bird(r, st);
    case 2: return S(150, 108, 150, G) + S(150, 292, 150, alt);
    case 3: return S(150, 108, 150, G) + S(88, 292, 150, alt) + S(212, 292, 150, alt);
    case 4: return S(95, 108, 150, G) + S(205, 108, 150, alt) + S(95, 292, 150, alt) + S(205, 292, 150, G);
    case 5: return S(75, 105, 150, G) + S(225, 105, 150, alt) + S(150, 200, 150, R) + S(75, 295, 150, alt) + S(225, 295, 150, G);
    case 6: return [70, 150, 230].map((x) => S(x, 108, 150, G, 0, 42) + S(x, 292, 150, alt, 0, 42)).join('');
    case 7: return S(150, 70, 100, R, 0, 38) + [70, 150, 230].map((x) => S(x, 192, 110, G, 0, 38) + S(x, 326, 110, alt, 0, 38)).join('');
    case 8: {
      const top = S(45, 108, 150, G, 0, 36) + S(113, 108, 158, G, 22, 36) + S(187, 108, 158, G, -22, 36) + S(255, 108, 150, G, 0, 36);
      const bot = S(45, 292, 150, alt, 0, 36) + S(113, 292, 158, alt, -22, 36) + S(187, 292, 158, alt, 22, 36) + S(255, 292, 150, alt, 0, 36);
      return top + bot;
    }
    case 9: {
      const rowsColored = chance(r, 0.4);
      let s = '';
      [75, 200, 325].forEach((y, ri) => [70, 150, 230].forEach((x, ci) => {
        const c = rowsColored ? [G, R, alt][ri] : ci === 1 ? R : ci === 0 ? G : alt;
        s += S(x, y, 108, c, 0, 38);
      }));
      return s;
    }
  }
  return '';
}

function chars(st: GlyphStyle, n: number): string {
  const num = st.arabicMain ? String(n) : CN[n - 1];
  const flat = n <= 3 && !st.arabicMain;
  const ns = flat ? 190 : 150;
  const numSvg = text(num, 150, flat ? 112 : 100, ns, st.numFont, st.numWeight, st.numColor, st.textStroke + (flat ? 4 : 0), flat ? 1.35 : 1.3, flat ? 1.0 : 1.05);
  const wanSvg = text(st.wan, 150, 285, 185, st.charFont, st.charWeight, st.wanColor, st.textStroke, 1.2, 1.0);
  return numSvg + wanSvg;
}

function indexMark(st: GlyphStyle, n: number): string {
  if (!st.index) return '';
  const [x, y] = st.index === 'tl' ? [28, 34] : st.index === 'tr' ? [272, 34] : [28, 372];
  return text(String(n), x, y, 52, 'Noto Sans CJK SC', 700, st.indexColor);
}

function winds(st: GlyphStyle, n: number): string {
  const ch = '東南西北'[n - 1];
  let s = text(ch, 150, 205, 260, st.charFont, st.charWeight, st.windColor, st.textStroke, 1.05, 1.2);
  if (st.windLetter) s += text('ESWN'[n - 1], 30, 36, 50, 'Noto Sans CJK SC', 700, st.red);
  return s;
}

function dragons(r: Rng, st: GlyphStyle, n: number): string {
  if (n === 7) return text('中', 150, 205, 280, st.charFont, st.charWeight, st.red, st.textStroke, 1.0, 1.25);
  if (n === 6) return text(chance(r, 0.92) ? '發' : '发', 150, 205, 260, st.charFont, st.charWeight, st.green, st.textStroke, 1.05, 1.25);
  const c = st.whiteColor;
  switch (st.white) {
    case 'blank': return '';
    case 'frame': return `<rect x="38" y="42" width="224" height="316" rx="6" fill="none" stroke="${c}" stroke-width="20"/>`;
    case 'frameChar': return `<rect x="38" y="42" width="224" height="316" rx="4" fill="none" stroke="${c}" stroke-width="14"/>` + text('白', 150, 200, 150, st.charFont, st.charWeight, c, st.textStroke);
    case 'double': return `<rect x="32" y="36" width="236" height="328" fill="none" stroke="${c}" stroke-width="14"/><rect x="70" y="74" width="160" height="252" fill="none" stroke="${c}" stroke-width="9"/>`;
    case 'corners': {
      let s = `<rect x="40" y="44" width="220" height="312" fill="none" stroke="${c}" stroke-width="10"/>`;
      for (const [x, y] of [[40, 44], [260, 44], [40, 356], [260, 356]]) s += `<rect x="${x - 18}" y="${y - 18}" width="36" height="36" fill="${c}"/>`;
      return s;
    }
  }
}

function doodle(r: Rng, st: GlyphStyle, code: string, x0: number, y0: number, w: number, h: number): string {
  const G = st.green, R = st.red, B = st.blue;
  const k = Number(code[1]);
  let s = '';
  const bx = x0 + w * uni(r, 0.2, 0.4), by = y0 + h;
  const tx = x0 + w * uni(r, 0.5, 0.9), ty = y0 + h * uni(r, 0.05, 0.3);
  const stemC = pick(r, ['#4a3020', G, '#333']);
  const sw = uni(r, 4, 10);
  s += `<path d="M${bx.toFixed(0)},${by.toFixed(0)} Q${(x0 + w * r()).toFixed(0)},${(y0 + h * 0.5).toFixed(0)} ${tx.toFixed(0)},${ty.toFixed(0)}" stroke="${stemC}" stroke-width="${sw.toFixed(1)}" fill="none" stroke-linecap="round"/>`;
  const nLeaves = int(r, 2, 6);
  for (let i = 0; i < nLeaves; i++) {
    const lx = x0 + w * uni(r, 0.1, 0.9), ly = y0 + h * uni(r, 0.2, 0.95);
    s += `<ellipse cx="${lx.toFixed(0)}" cy="${ly.toFixed(0)}" rx="${uni(r, 6, 12).toFixed(0)}" ry="${uni(r, 18, 34).toFixed(0)}" transform="rotate(${uni(r, -60, 60).toFixed(0)} ${lx.toFixed(0)} ${ly.toFixed(0)})" fill="${G}"/>`;
  }
  const isFlower = k <= 4;
  const blossom = isFlower ? pick(r, [R, '#e05080', B, '#d08020']) : pick(r, [R, B, '#e0a000', '#40a0d0']);
  const nB = int(r, 1, 5);
  for (let i = 0; i < nB; i++) {
    const cx = x0 + w * uni(r, 0.15, 0.85), cy = y0 + h * uni(r, 0.05, 0.7), rad = uni(r, 10, 26);
    const petals = int(r, 5, 12);
    for (let p = 0; p < petals; p++) {
      const a = (p / petals) * Math.PI * 2;
      s += `<circle cx="${(cx + Math.cos(a) * rad * 0.7).toFixed(1)}" cy="${(cy + Math.sin(a) * rad * 0.7).toFixed(1)}" r="${(rad * 0.45).toFixed(1)}" fill="${blossom}"/>`;
    }
    s += `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${(rad * 0.3).toFixed(1)}" fill="#e8c020"/>`;
  }
  if (!isFlower && chance(r, 0.6)) {
    // scene element: sun / moon / mountains / snowflake
    const e = pick(r, ['sun', 'mount', 'snow', 'hut']);
    const cx = x0 + w * uni(r, 0.2, 0.8), cy = y0 + h * uni(r, 0.1, 0.4);
    if (e === 'sun') s += `<circle cx="${cx.toFixed(0)}" cy="${cy.toFixed(0)}" r="22" fill="${R}" fill-opacity="0.85"/>`;
    if (e === 'mount') s += `<path d="M${x0},${y0 + h} L${x0 + w * 0.35},${y0 + h * 0.45} L${x0 + w * 0.6},${y0 + h * 0.8} L${x0 + w * 0.8},${y0 + h * 0.55} L${x0 + w},${y0 + h} Z" fill="${B}" fill-opacity="0.6"/>`;
    if (e === 'snow') for (let a = 0; a < 3; a++) s += `<line x1="${cx - 20}" y1="${cy}" x2="${cx + 20}" y2="${cy}" stroke="${B}" stroke-width="4" transform="rotate(${a * 60} ${cx} ${cy})"/>`;
    if (e === 'hut') s += `<path d="M${cx - 30},${cy + 30} h60 v-25 l-30,-22 l-30,22 z" fill="none" stroke="${st.black}" stroke-width="5"/>`;
  }
  return s;
}

const f1 = (v: number) => v.toFixed(1);

/**
 * Generator 1.15.0 (`--ornaments`): a procedural drawing unrelated to the tile's name, in the box
 * (x0, y0, w, h): one to three of a branching twig with blossoms, buds and leaves; a tuft of
 * blades; a many-petalled flower head on a stem; rays or a snowflake; scrolls; a star or leaf
 * polygon; sometimes hatching. Outlined in the set's ink (line-art sets) or filled in any colour.
 */
function ornament(r: Rng, st: GlyphStyle, x0: number, y0: number, w: number, h: number): string {
  const line = !!st.extra?.lineArt;
  const ink = st.black;
  const palette = [st.green, st.red, st.blue, ink, '#d08020', '#e05080', '#6a4020', '#8a40a0'];
  const sw = uni(r, 2, 7);
  const X = (u: number) => x0 + w * u, Y = (v: number) => y0 + h * v;
  const paint = (c: string) => (line || chance(r, 0.25) ? `fill="none" stroke="${line ? ink : c}" stroke-width="${f1(sw)}" stroke-linejoin="round"` : `fill="${c}"`);
  const strokeOf = (c: string, k = 1) => `stroke="${line ? ink : c}" stroke-width="${f1(sw * k)}" fill="none" stroke-linecap="round"`;
  const col = () => pick(r, palette);
  let s = '';
  const petals = (cx: number, cy: number, rad: number, n: number, c: string, ring = 1) => {
    let b = '';
    const off = uni(r, 0, Math.PI);
    for (let k = 0; k < ring; k++) {
      const rr = rad * (1 - k * 0.3);
      for (let p = 0; p < n; p++) {
        const a = off + (p / n) * Math.PI * 2 + k * 0.4;
        const px = cx + Math.cos(a) * rr * 0.55, py = cy + Math.sin(a) * rr * 0.55;
        b += `<ellipse cx="${f1(px)}" cy="${f1(py)}" rx="${f1(rr * uni(r, 0.3, 0.5))}" ry="${f1(rr * uni(r, 0.12, 0.3))}" transform="rotate(${f1((a * 180) / Math.PI)} ${f1(px)} ${f1(py)})" ${paint(c)}/>`;
      }
    }
    return b + (chance(r, 0.7) ? `<circle cx="${f1(cx)}" cy="${f1(cy)}" r="${f1(rad * uni(r, 0.12, 0.3))}" ${paint(col())}/>` : '');
  };
  const leaf = (cx: number, cy: number, len: number, ang: number, c: string) => {
    const wd = len * uni(r, 0.12, 0.35);
    return `<path d="M0,0 Q${f1(len * 0.5)},${f1(-wd)} ${f1(len)},0 Q${f1(len * 0.5)},${f1(wd)} 0,0 Z" transform="translate(${f1(cx)},${f1(cy)}) rotate(${f1(ang)})" ${paint(c)}/>`
      + (chance(r, 0.4) ? `<line x1="0" y1="0" x2="${f1(len * 0.9)}" y2="0" transform="translate(${f1(cx)},${f1(cy)}) rotate(${f1(ang)})" ${strokeOf(ink, 0.4)}/>` : '');
  };
  const branch = (x: number, y: number, ang: number, len: number, depth: number, c: string): string => {
    const ex = x + Math.cos(ang) * len, ey = y + Math.sin(ang) * len;
    const bend = uni(r, -0.35, 0.35) * len;
    const qx = (x + ex) / 2 - Math.sin(ang) * bend, qy = (y + ey) / 2 + Math.cos(ang) * bend;
    let b = `<path d="M${f1(x)},${f1(y)} Q${f1(qx)},${f1(qy)} ${f1(ex)},${f1(ey)}" ${strokeOf(c, depth * 0.45 + 0.5)}/>`;
    if (depth > 0) {
      for (let k = 0, n = int(r, 1, 3); k < n; k++) b += branch(ex, ey, ang + uni(r, -0.9, 0.9), len * uni(r, 0.45, 0.8), depth - 1, c);
    }
    const tip = weighted(r, [['blossom', 3], ['bud', 2], ['leaf', 3], ['none', 1]] as const);
    if (tip === 'blossom') b += petals(ex, ey, uni(r, 10, 28), int(r, 4, 9), col());
    else if (tip === 'bud') b += `<circle cx="${f1(ex)}" cy="${f1(ey)}" r="${f1(uni(r, 4, 10))}" ${paint(col())}/>`;
    else if (tip === 'leaf') b += leaf(ex, ey, uni(r, 18, 45), (ang * 180) / Math.PI + uni(r, -50, 50), st.green);
    return b;
  };
  for (let i = 0, n = weighted(r, [[1, 3], [2, 2], [3, 1]] as const); i < n; i++) {
    const kind = weighted(r, [['branch', 3], ['blades', 2], ['head', 2], ['radial', 1], ['scroll', 1], ['star', 1]] as const);
    const bx = X(uni(r, 0.2, 0.8)), by = Y(uni(r, 0.75, 1));
    if (kind === 'branch') {
      s += branch(bx, by, -Math.PI / 2 + uni(r, -0.6, 0.6), h * uni(r, 0.25, 0.45), int(r, 1, 3), pick(r, ['#4a3020', st.green, ink]));
    } else if (kind === 'blades') {
      const c = st.green;
      for (let k = 0, n2 = int(r, 3, 9); k < n2; k++) {
        const a = -Math.PI / 2 + uni(r, -1.1, 1.1), len = h * uni(r, 0.3, 0.8);
        const tx = bx + Math.cos(a) * len, ty = by + Math.sin(a) * len;
        const cx = bx + Math.cos(a) * len * 0.5 + uni(r, -40, 40), cy = by + Math.sin(a) * len * 0.5;
        const wd = uni(r, 4, 12);
        s += `<path d="M${f1(bx - wd)},${f1(by)} Q${f1(cx)},${f1(cy)} ${f1(tx)},${f1(ty)} Q${f1(cx + wd)},${f1(cy + wd)} ${f1(bx + wd)},${f1(by)} Z" ${paint(c)}/>`;
      }
      for (let k = 0, n2 = int(r, 0, 3); k < n2; k++) s += petals(X(uni(r, 0.2, 0.8)), Y(uni(r, 0.1, 0.5)), uni(r, 12, 30), int(r, 3, 7), col());
    } else if (kind === 'head') {
      const cx = X(uni(r, 0.3, 0.7)), cy = Y(uni(r, 0.2, 0.5)), rad = Math.min(w, h) * uni(r, 0.15, 0.35);
      s += `<path d="M${f1(cx)},${f1(cy)} Q${f1(cx + uni(r, -40, 40))},${f1((cy + by) / 2)} ${f1(bx)},${f1(by)}" ${strokeOf(st.green)}/>`;
      for (let k = 0, n2 = int(r, 0, 3); k < n2; k++) s += leaf(X(uni(r, 0.3, 0.7)), Y(uni(r, 0.55, 0.9)), uni(r, 25, 55), uni(r, -170, -10), st.green);
      s += petals(cx, cy, rad, int(r, 8, 24), col(), int(r, 1, 3));
    } else if (kind === 'radial') {
      const cx = X(uni(r, 0.3, 0.7)), cy = Y(uni(r, 0.2, 0.6)), rad = Math.min(w, h) * uni(r, 0.12, 0.3), c = col();
      const n2 = int(r, 5, 16);
      if (chance(r, 0.5)) s += `<circle cx="${f1(cx)}" cy="${f1(cy)}" r="${f1(rad * 0.5)}" ${paint(c)}/>`;
      for (let k = 0; k < n2; k++) {
        const a = (k / n2) * Math.PI * 2, i0 = chance(r, 0.5) ? 0 : 0.65, i1 = uni(r, 1, 1.5);
        s += `<line x1="${f1(cx + Math.cos(a) * rad * i0)}" y1="${f1(cy + Math.sin(a) * rad * i0)}" x2="${f1(cx + Math.cos(a) * rad * i1)}" y2="${f1(cy + Math.sin(a) * rad * i1)}" ${strokeOf(c, 0.8)}/>`;
      }
    } else if (kind === 'scroll') {
      let x = X(uni(r, 0, 0.3));
      const y = Y(uni(r, 0.2, 0.9));
      let d = `M${f1(x)},${f1(y)} `;
      for (let k = 0, n2 = int(r, 2, 5); k < n2; k++) {
        const rad = uni(r, 10, 30);
        x += rad * 2;
        d += `A${f1(rad)},${f1(rad * uni(r, 0.6, 1.2))} 0 0 ${k % 2} ${f1(x)},${f1(y + uni(r, -10, 10))} `;
      }
      s += `<path d="${d}" ${strokeOf(col())}/>`;
    } else {
      const cx = X(uni(r, 0.3, 0.7)), cy = Y(uni(r, 0.25, 0.65)), rad = Math.min(w, h) * uni(r, 0.15, 0.35);
      const n2 = int(r, 5, 12), inner = uni(r, 0.3, 0.7);
      let d = '';
      for (let k = 0; k < n2 * 2; k++) {
        const a = -Math.PI / 2 + (k / (n2 * 2)) * Math.PI * 2, rr = k % 2 ? rad * inner : rad;
        d += `${k ? 'L' : 'M'}${f1(cx + Math.cos(a) * rr)},${f1(cy + Math.sin(a) * rr)} `;
      }
      s += `<path d="${d}Z" ${paint(col())}/>`;
    }
  }
  if (chance(r, 0.2)) {
    // hatching, as dense line-art glyphs shade their drawings
    const c = line ? ink : col();
    for (let k = 0, n2 = int(r, 4, 12); k < n2; k++) {
      const hx = X(uni(r, 0.1, 0.9)), hy = Y(uni(r, 0.1, 0.9)), len = uni(r, 8, 30), a = uni(r, 0, Math.PI);
      s += `<line x1="${f1(hx)}" y1="${f1(hy)}" x2="${f1(hx + Math.cos(a) * len)}" y2="${f1(hy + Math.sin(a) * len)}" stroke="${c}" stroke-width="${f1(sw * 0.5)}"/>`;
    }
  }
  return s;
}

/** The plant or scene a flower or season tile is named for, in the box (x0, y0, w, h). */
function motif(r: Rng, st: GlyphStyle, code: string, x0: number, y0: number, w: number, h: number): string {
  const line = !!st.extra?.lineArt;
  const ink = st.black;
  const R = st.red;
  const fill = (c: string) => (line ? `fill="none" stroke="${ink}" stroke-width="4"` : `fill="${c}"`);
  const stroke = (c: string, wd: number) => `stroke="${line ? ink : c}" stroke-width="${f1(wd)}" fill="none" stroke-linecap="round"`;
  const X = (u: number) => x0 + w * u, Y = (v: number) => y0 + h * v;
  let s = '';
  const blossom = (cx: number, cy: number, rad: number, petals: number, c: string, thin = false) => {
    let b = '';
    for (let p = 0; p < petals; p++) {
      const a = (p / petals) * Math.PI * 2 + 0.3;
      if (thin) b += `<line x1="${f1(cx)}" y1="${f1(cy)}" x2="${f1(cx + Math.cos(a) * rad)}" y2="${f1(cy + Math.sin(a) * rad)}" ${stroke(c, Math.max(3, rad * 0.16))}/>`;
      else b += `<ellipse cx="${f1(cx + Math.cos(a) * rad * 0.55)}" cy="${f1(cy + Math.sin(a) * rad * 0.55)}" rx="${f1(rad * 0.42)}" ry="${f1(rad * 0.32)}" transform="rotate(${f1((a * 180) / Math.PI)} ${f1(cx + Math.cos(a) * rad * 0.55)} ${f1(cy + Math.sin(a) * rad * 0.55)})" ${fill(c)}/>`;
    }
    return b + `<circle cx="${f1(cx)}" cy="${f1(cy)}" r="${f1(rad * 0.22)}" ${fill('#e0b020')}/>`;
  };
  const leaf = (cx: number, cy: number, len: number, ang: number, c: string) =>
    `<path d="M0,0 Q${f1(len * 0.5)},${f1(-len * 0.22)} ${f1(len)},0 Q${f1(len * 0.5)},${f1(len * 0.22)} 0,0 Z" transform="translate(${f1(cx)},${f1(cy)}) rotate(${f1(ang)})" ${fill(c)}/>`;
  const k = Number(code[1]);
  const pinkish = pick(r, [R, '#e05080', '#d04070', '#f07090']);
  switch (k) {
    case 1: { // plum: a crooked dark branch with five-petal blossoms
      const pts = [[uni(r, 0.1, 0.3), 1], [uni(r, 0.3, 0.6), uni(r, 0.55, 0.7)], [uni(r, 0.4, 0.8), uni(r, 0.3, 0.45)], [uni(r, 0.5, 0.9), uni(r, 0.05, 0.2)]];
      s += `<path d="M${pts.map(([u, v]) => `${f1(X(u))},${f1(Y(v))}`).join(' L')}" ${stroke('#4a3020', uni(r, 6, 12))} stroke-linejoin="round"/>`;
      for (let i = 0, n = int(r, 3, 7); i < n; i++) {
        const [u, v] = pts[int(r, 1, 3)];
        s += blossom(X(u + uni(r, -0.15, 0.15)), Y(v + uni(r, -0.1, 0.1)), uni(r, 14, 26), 5, pinkish);
      }
      break;
    }
    case 2: { // orchid: long thin arching leaves and small flowers
      for (let i = 0, n = int(r, 3, 6); i < n; i++) {
        const bx = X(uni(r, 0.35, 0.6)), tx = X(uni(r, 0, 1)), ty = Y(uni(r, 0.05, 0.5));
        s += `<path d="M${f1(bx)},${f1(Y(1))} Q${f1((bx + tx) / 2 + uni(r, -40, 40))},${f1(Y(0.3))} ${f1(tx)},${f1(ty)}" ${stroke(st.green, uni(r, 4, 9))}/>`;
      }
      for (let i = 0, n = int(r, 1, 3); i < n; i++) s += blossom(X(uni(r, 0.2, 0.8)), Y(uni(r, 0.15, 0.5)), uni(r, 14, 22), 3, pick(r, [pinkish, st.blue, '#9050a0']));
      break;
    }
    case 3: { // chrysanthemum: heads of many thin petals on a leafy stem
      const n = int(r, 1, 3);
      for (let i = 0; i < n; i++) {
        const cx = X(uni(r, 0.25, 0.75)), cy = Y(uni(r, 0.15, 0.5)), rad = uni(r, 26, 46);
        s += `<path d="M${f1(cx)},${f1(cy)} Q${f1(cx + uni(r, -30, 30))},${f1(Y(0.75))} ${f1(X(0.5))},${f1(Y(1))}" ${stroke(st.green, 6)}/>`;
        s += leaf(X(uni(r, 0.3, 0.7)), Y(uni(r, 0.6, 0.85)), uni(r, 30, 50), uni(r, -160, -20), st.green);
        s += blossom(cx, cy, rad, int(r, 16, 28), pick(r, ['#e0a000', R, '#e07020', '#d0b000']), true);
      }
      break;
    }
    case 4: { // bamboo: jointed stalks with pointed leaves
      for (let i = 0, n = int(r, 1, 3); i < n; i++) {
        const x = X(uni(r, 0.2, 0.8)), sw = uni(r, 10, 18);
        for (let v = 0; v < 1; v += 0.25) s += `<rect x="${f1(x - sw / 2)}" y="${f1(Y(v) + 3)}" width="${f1(sw)}" height="${f1(h * 0.25 - 6)}" rx="4" ${fill(st.green)}/>`;
        for (let j = 0, m = int(r, 2, 5); j < m; j++) s += leaf(x, Y(uni(r, 0.1, 0.8)), uni(r, 35, 60), pick(r, [uni(r, -60, -10), uni(r, -170, -120)]), st.green);
      }
      break;
    }
    case 5: { // spring: a tulip or blossom with leaves
      const cx = X(uni(r, 0.35, 0.65)), cy = Y(uni(r, 0.2, 0.4));
      s += `<path d="M${f1(cx)},${f1(cy)} L${f1(cx + uni(r, -15, 15))},${f1(Y(1))}" ${stroke(st.green, 6)}/>`;
      s += leaf(cx, Y(0.8), uni(r, 40, 60), uni(r, -70, -30), st.green) + leaf(cx, Y(0.75), uni(r, 40, 60), uni(r, -150, -110), st.green);
      s += chance(r, 0.5)
        ? `<path d="M${f1(cx - 24)},${f1(cy - 20)} L${f1(cx - 24)},${f1(cy + 10)} Q${f1(cx)},${f1(cy + 34)} ${f1(cx + 24)},${f1(cy + 10)} L${f1(cx + 24)},${f1(cy - 20)} L${f1(cx + 12)},${f1(cy - 6)} L${f1(cx)},${f1(cy - 26)} L${f1(cx - 12)},${f1(cy - 6)} Z" ${fill(pinkish)}/>`
        : blossom(cx, cy, uni(r, 20, 30), int(r, 5, 8), pinkish);
      break;
    }
    case 6: { // summer: the sun or a lotus
      const cx = X(0.5), cy = Y(uni(r, 0.3, 0.5));
      if (chance(r, 0.5)) {
        const rad = uni(r, 24, 36);
        s += `<circle cx="${f1(cx)}" cy="${f1(cy)}" r="${f1(rad)}" ${fill(R)}/>`;
        for (let p = 0, n = int(r, 8, 14); p < n; p++) {
          const a = (p / n) * Math.PI * 2;
          s += `<line x1="${f1(cx + Math.cos(a) * rad * 1.3)}" y1="${f1(cy + Math.sin(a) * rad * 1.3)}" x2="${f1(cx + Math.cos(a) * rad * 1.9)}" y2="${f1(cy + Math.sin(a) * rad * 1.9)}" ${stroke(R, 5)}/>`;
        }
      } else {
        for (let p = -2; p <= 2; p++) s += `<path d="M${f1(cx)},${f1(cy + 30)} Q${f1(cx + p * 22 - 18)},${f1(cy - 10)} ${f1(cx + p * 14)},${f1(cy - 40 + Math.abs(p) * 12)} Q${f1(cx + p * 22 + 18)},${f1(cy - 10)} ${f1(cx)},${f1(cy + 30)} Z" ${fill(pinkish)}/>`;
        s += `<ellipse cx="${f1(cx)}" cy="${f1(Y(0.85))}" rx="${f1(w * 0.4)}" ry="${f1(h * 0.07)}" ${fill(st.green)}/>`;
      }
      break;
    }
    case 7: { // autumn: a pointed leaf or a moon over grass
      const cx = X(0.5), cy = Y(uni(r, 0.35, 0.5)), rad = uni(r, 40, 60);
      if (chance(r, 0.6)) {
        let d = '';
        for (let p = 0; p < 10; p++) {
          const a = -Math.PI / 2 + (p / 10) * Math.PI * 2, rr = p % 2 ? rad * 0.45 : rad;
          d += `${p ? 'L' : 'M'}${f1(cx + Math.cos(a) * rr)},${f1(cy + Math.sin(a) * rr)} `;
        }
        s += `<path d="${d}Z" ${fill(pick(r, ['#d05010', R, '#e09010']))}/><line x1="${f1(cx)}" y1="${f1(cy)}" x2="${f1(cx)}" y2="${f1(cy + rad * 1.4)}" ${stroke('#6a4020', 5)}/>`;
      } else {
        s += `<circle cx="${f1(cx)}" cy="${f1(cy - 20)}" r="${f1(rad * 0.6)}" ${fill('#e0b020')}/>`;
        for (let i = 0; i < 7; i++) s += leaf(X(uni(r, 0.1, 0.9)), Y(1), uni(r, 40, 70), uni(r, -120, -60), st.green);
      }
      break;
    }
    default: { // winter: a snowflake or a pine
      const cx = X(0.5), cy = Y(uni(r, 0.35, 0.5)), rad = uni(r, 40, 60);
      if (chance(r, 0.55)) {
        for (let a = 0; a < 3; a++) {
          s += `<line x1="${f1(cx - rad)}" y1="${f1(cy)}" x2="${f1(cx + rad)}" y2="${f1(cy)}" ${stroke(st.blue, 7)} transform="rotate(${a * 60} ${f1(cx)} ${f1(cy)})"/>`;
          for (const sg of [-1, 1]) s += `<path d="M${f1(cx + sg * rad * 0.6)},${f1(cy - 14)} L${f1(cx + sg * rad * 0.8)},${f1(cy)} L${f1(cx + sg * rad * 0.6)},${f1(cy + 14)}" ${stroke(st.blue, 5)} transform="rotate(${a * 60} ${f1(cx)} ${f1(cy)})"/>`;
        }
      } else {
        for (let t = 0; t < 3; t++) s += `<path d="M${f1(cx)},${f1(Y(0.05 + t * 0.22))} L${f1(cx - 30 - t * 18)},${f1(Y(0.35 + t * 0.22))} L${f1(cx + 30 + t * 18)},${f1(Y(0.35 + t * 0.22))} Z" ${fill(st.green)}/>`;
        s += `<rect x="${f1(cx - 8)}" y="${f1(Y(0.8))}" width="16" height="${f1(h * 0.2)}" ${fill('#6a4020')}/>`;
      }
    }
  }
  return s;
}

/** Generator 1.4.0 flower and season faces (`--extra-styles`). */
function flowerExtra(r: Rng, st: GlyphStyle, ex: ExtraStyle, code: string): string {
  if (ex.ink) return flowerInk(r, st, ex, ex.ink, code);
  const k = Number(code[1]);
  const isF = k <= 4;
  const ch = '梅蘭菊竹春夏秋冬'[k - 1];
  const n = isF ? k : k - 4;
  const col = isF ? st.flowerColor : st.seasonColor;
  const numCol = ex.numColor === 'group' ? col : ex.numColor === 'black' ? st.black : st.red;
  const numStr = st.flowerNum === 'arabic' ? String(n) : CN[n - 1];
  const shown = ex.decoy && chance(r, ex.decoy) ? `f${int(r, 1, 8)}` : code;
  const pic = (x0: number, y0: number, w: number, h: number) =>
    ex.ornament && chance(r, ex.ornament) ? ornament(r, st, x0, y0, w, h) : chance(r, ex.motif) ? motif(r, st, shown, x0, y0, w, h) : doodle(r, st, shown, x0, y0, w, h);
  const box = (x: number, y: number, size: number) =>
    st.flowerNumBox === 'circle' ? `<circle cx="${x}" cy="${y}" r="${size * 0.62}" fill="none" stroke="${numCol}" stroke-width="5"/>`
      : st.flowerNumBox === 'square' ? `<rect x="${x - size * 0.6}" y="${y - size * 0.6}" width="${size * 1.2}" height="${size * 1.2}" fill="none" stroke="${numCol}" stroke-width="5"/>` : '';
  const num = (x: number, y: number, size: number) => box(x, y, size) + text(numStr, x, y, st.flowerNumBox === 'none' ? size * 1.1 : size * 0.8, st.numFont, 700, numCol, 3);
  const corners: [number, number][] = [[62, 62], [238, 62], [62, 338], [238, 338]];
  switch (ex.layout) {
    case 'big':
      return pic(30, 40, 240, 330).replace(/<(circle|ellipse|path|line|rect)/g, '<$1 opacity="0.5"') + text(ch, 150, 215, 190, st.charFont, st.charWeight, col, st.textStroke)
        + num(...corners[(ex.charCorner + 1) % 4], 64);
    case 'side':
      return pic(110, 60, 175, 310) + text(ch, 62, 110, 100, st.charFont, st.charWeight, col, st.textStroke / 2) + num(62, 320, 80);
    case 'column':
      // character and numeral stacked down one side
      return pic(ex.charCorner % 2 ? 20 : 110, 40, 170, 330) + text(ch, ex.charCorner % 2 ? 240 : 60, 100, 90, st.charFont, st.charWeight, col, st.textStroke / 2)
        + num(ex.charCorner % 2 ? 240 : 60, 210, 72);
    case 'topNum':
      // a large numeral at the top, the character at the bottom, the picture between
      return num(150, 70, 90) + pic(50, 120, 200, 180) + text(ch, 150, 340, 80, st.charFont, st.charWeight, col, st.textStroke / 2);
    case 'noNum':
      // some sets print no numeral: only the character identifies the tile
      return pic(40, 110, 220, 270) + text(ch, ...corners[ex.charCorner < 2 ? ex.charCorner : ex.charCorner - 2], 96, st.charFont, st.charWeight, col, st.textStroke / 2);
    default: {
      const [cx, cy] = corners[ex.charCorner];
      const [nx, ny] = corners[ex.charCorner ^ 1];
      const top = cy < 200;
      return pic(50, top ? 110 : 30, 200, 260) + text(ch, cx, cy, 92, st.charFont, st.charWeight, col, st.textStroke / 2) + num(nx, ny, 76);
    }
  }
}

/**
 * Generator 1.6.0 ink flowers: everything in one ink; a dense line-art (or ink-filled) plant over
 * most of the face, often another flower's (`decoy`); a small character in a corner; a small
 * numeral or none. The character is all that tells the eight apart when there is no numeral.
 */
function flowerInk(r: Rng, st: GlyphStyle, ex: ExtraStyle, ink: InkStyle, code: string): string {
  const k = Number(code[1]);
  const ch = '梅蘭菊竹春夏秋冬'[k - 1];
  const n = k <= 4 ? k : k - 4;
  const numStr = st.flowerNum === 'arabic' ? String(n) : CN[n - 1];
  const left = ink.charCorner % 2 === 0, top = ink.charCorner < 2;
  const cx = left ? ink.inset : 300 - ink.inset, cy = top ? ink.inset + 4 : 400 - ink.inset - 4;
  const lst: GlyphStyle = {
    ...st, black: ink.color, green: ink.color, blue: ink.color, red: ink.color,
    extra: { ...ex, lineArt: !ink.filled },
  };
  let s = '';
  for (let i = 0; i < ink.layers; i++) {
    const shown = ex.decoy && chance(r, ex.decoy) ? `f${int(r, 1, 8)}` : code;
    const x0 = uni(r, 20, 70), y0 = top ? uni(r, 60, 110) : uni(r, 20, 50);
    const w = uni(r, 190, 260 - x0 + 20), h = uni(r, 250, 330);
    const part = ex.ornament && chance(r, ex.ornament) ? ornament(r, lst, x0, y0, w, h) : chance(r, 0.75) ? motif(r, lst, shown, x0, y0, w, h) : doodle(r, lst, shown, x0, y0, w, h);
    // one ink: the doodle's and motif's own stem, petal and centre colours become the ink too
    s += part.replace(/stroke-width="4"/g, `stroke-width="${f1(ink.stroke)}"`).replace(/#(?!fff\b)[0-9a-fA-F]{3,6}\b/g, ink.color);
  }
  // a white halo keeps the character legible over the plant, as printed sets do
  s += text(ch, cx, cy, ink.charSize, st.charFont, st.charWeight, '#fff', 10) + text(ch, cx, cy, ink.charSize, st.charFont, st.charWeight, ink.color, 0);
  if (ink.num === 'beside') s += text(numStr, cx, cy + (top ? 1 : -1) * ink.charSize * 0.95, ink.charSize * 0.7, st.numFont, 700, ink.numColor, 2);
  else if (ink.num === 'corner') s += text(numStr, 300 - cx, cy, ink.charSize * 0.8, st.numFont, 700, ink.numColor, 2);
  return s;
}

function flower(r: Rng, st: GlyphStyle, code: string): string {
  if (st.extra) return flowerExtra(r, st, st.extra, code);
  const k = Number(code[1]);
  const isF = k <= 4;
  const ch = '梅蘭菊竹春夏秋冬'[k - 1];
  const n = isF ? k : k - 4;
  const col = isF ? st.flowerColor : st.seasonColor;
  const numStr = st.flowerNum === 'arabic' ? String(n) : CN[n - 1];
  const corner = int(r, 0, 3);
  let s = '';
  const box = (x: number, y: number, size: number) =>
    st.flowerNumBox === 'circle' ? `<circle cx="${x}" cy="${y}" r="${size * 0.62}" fill="none" stroke="${col}" stroke-width="5"/>`
      : st.flowerNumBox === 'square' ? `<rect x="${x - size * 0.6}" y="${y - size * 0.6}" width="${size * 1.2}" height="${size * 1.2}" fill="none" stroke="${col}" stroke-width="5"/>` : '';
  if (st.flowerLayout === 'big') {
    s += doodle(r, st, code, 30, 40, 240, 330).replace(/<(circle|ellipse|path|line)/g, '<$1 opacity="0.55"');
    s += text(ch, 150, 215, 200, st.charFont, st.charWeight, col, st.textStroke);
    const [x, y] = [[40, 48], [260, 48], [40, 360], [260, 360]][corner];
    s += box(x, y, 64) + text(numStr, x, y, st.flowerNumBox === 'none' ? 64 : 50, st.numFont, 700, col, 2);
  } else if (st.flowerLayout === 'side') {
    s += doodle(r, st, code, 110, 60, 175, 310);
    s += text(ch, 62, 110, 100, st.charFont, st.charWeight, col, st.textStroke / 2);
    s += box(62, 320, 80) + text(numStr, 62, 320, st.flowerNumBox === 'none' ? 90 : 64, st.numFont, 700, col, 3);
  } else {
    s += doodle(r, st, code, 50, 110, 220, 270);
    const left = corner % 2 === 0;
    s += text(ch, left ? 62 : 238, 62, 96, st.charFont, st.charWeight, col, st.textStroke / 2);
    s += box(left ? 240 : 60, 62, 76) + text(numStr, left ? 240 : 60, 62, st.flowerNumBox === 'none' ? 84 : 60, st.numFont, 700, col, 3);
  }
  return s;
}

function backPattern(st: GlyphStyle): string {
  const c = 'rgba(255,255,255,0.22)';
  switch (st.backPattern) {
    case 'none': return '';
    case 'diamond': {
      let s = '';
      for (let y = 0; y < 400; y += 50) for (let x = (y / 50) % 2 ? 25 : 0; x < 300; x += 50) s += `<path d="M${x},${y - 14} l14,14 l-14,14 l-14,-14 z" fill="${c}"/>`;
      return s;
    }
    case 'circle': return `<circle cx="150" cy="200" r="90" fill="none" stroke="${c}" stroke-width="12"/><circle cx="150" cy="200" r="50" fill="${c}"/>`;
    case 'stripes': {
      let s = '';
      for (let x = -400; x < 300; x += 40) s += `<line x1="${x}" y1="0" x2="${x + 400}" y2="400" stroke="${c}" stroke-width="10"/>`;
      return s;
    }
    case 'dots': {
      let s = '';
      for (let y = 20; y < 400; y += 40) for (let x = 20; x < 300; x += 40) s += `<circle cx="${x}" cy="${y}" r="5" fill="${c}"/>`;
      return s;
    }
  }
}

/** SVG inner content for one code in the 300x400 design space. */
export function faceSvg(r: Rng, st: GlyphStyle, code: string): string {
  if (code === 'back') return backPattern(st);
  if (code[0] === 'f') return flower(r, st, code);
  const n = Number(code[0]);
  switch (code[1]) {
    case 'm': return chars(st, n) + (st.arabicMain ? '' : indexMark(st, n));
    case 'p': return dots(r, st, n) + indexMark(st, n);
    case 's': return bamboo(r, st, n) + indexMark(st, n);
    case 'z': return n <= 4 ? winds(st, n) : dragons(r, st, n);
  }
  throw new Error(`bad code ${code}`);
}

/** Build one SVG sheet with all codes; returns the svg and each code's cell rect. */
export function sheetSvg(r: Rng, st: GlyphStyle, codes: readonly string[], cw: number, ch: number, glyphScale: number):
  { svg: string; cols: number } {
  const cols = 8;
  const rows = Math.ceil(codes.length / cols);
  let body = '';
  codes.forEach((code, i) => {
    const x = (i % cols) * cw, y = Math.floor(i / cols) * ch;
    const inner = faceSvg(r, st, code);
    const s = glyphScale;
    body += `<svg x="${x}" y="${y}" width="${cw}" height="${ch}" viewBox="0 0 300 400" preserveAspectRatio="none"><g transform="translate(${150 * (1 - s)},${200 * (1 - s)}) scale(${s})">${inner}</g></svg>`;
  });
  return { svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${cols * cw}" height="${rows * ch}">${body}</svg>`, cols };
}
