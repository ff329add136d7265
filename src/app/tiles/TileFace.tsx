/**
 * Tile pictures drawn in code as SVG: ivory face, green back edge, and a face
 * for each of the 42 tiles plus the face-down tile. Our own design.
 */
import type { ReactElement } from 'react';

const BLUE = '#1d4ed8';
const GREEN = '#15803d';
const RED = '#b91c1c';
const INK = '#1e293b';
const CJK = '"Noto Serif CJK SC","Noto Sans CJK SC","Source Han Serif SC","Songti SC","PingFang SC","Microsoft YaHei","WenQuanYi Zen Hei",serif';

const NUMERALS = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const WIND_CHARS = ['東', '南', '西', '北'];
const WIND_LETTERS = ['E', 'S', 'W', 'N'];
const FLOWER_CHARS = ['梅', '蘭', '菊', '竹', '春', '夏', '秋', '冬'];

type Pt = [number, number];

const DOTS: Record<number, Pt[]> = {
  1: [[30, 40]],
  2: [[30, 23], [30, 57]],
  3: [[16, 18], [30, 40], [44, 62]],
  4: [[18, 24], [42, 24], [18, 56], [42, 56]],
  5: [[17, 20], [43, 20], [30, 40], [17, 60], [43, 60]],
  6: [[19, 17], [41, 17], [19, 44], [41, 44], [19, 63], [41, 63]],
  7: [[14, 13], [30, 21], [46, 29], [19, 47], [41, 47], [19, 65], [41, 65]],
  8: [[19, 13], [41, 13], [19, 31], [41, 31], [19, 49], [41, 49], [19, 67], [41, 67]],
  9: [[15, 17], [30, 17], [45, 17], [15, 40], [30, 40], [45, 40], [15, 63], [30, 63], [45, 63]],
};
const DOT_R: Record<number, number> = { 1: 17, 2: 10, 3: 8.5, 4: 9, 5: 8, 6: 7.5, 7: 6.5, 8: 7, 9: 6.8 };
const dotColor = (n: number, i: number): string => {
  if (n === 1) return RED;
  if (n === 5 && i === 2) return RED;
  if (n === 6) return i < 2 ? GREEN : RED;
  if (n === 7) return i < 3 ? GREEN : RED;
  if (n === 9) return [BLUE, RED, GREEN][Math.floor(i / 3)];
  return [BLUE, GREEN][i % 2];
};

function Dot({ at, r, color }: { at: Pt; r: number; color: string }): ReactElement {
  return (
    <g>
      <circle cx={at[0]} cy={at[1]} r={r} fill={color} />
      <circle cx={at[0]} cy={at[1]} r={r * 0.62} fill="#fbf8ef" />
      <circle cx={at[0]} cy={at[1]} r={r * 0.4} fill="none" stroke={color} strokeWidth={r * 0.12} />
      <circle cx={at[0]} cy={at[1]} r={r * 0.18} fill={color} />
    </g>
  );
}

const STICKS: Record<number, Pt[]> = {
  2: [[30, 24], [30, 56]],
  3: [[30, 24], [20, 56], [40, 56]],
  4: [[20, 24], [40, 24], [20, 56], [40, 56]],
  5: [[17, 24], [43, 24], [30, 40], [17, 56], [43, 56]],
  6: [[16, 24], [30, 24], [44, 24], [16, 56], [30, 56], [44, 56]],
  7: [[30, 14], [16, 40], [30, 40], [44, 40], [16, 64], [30, 64], [44, 64]],
  8: [[13, 24], [24, 24], [36, 24], [47, 24], [13, 56], [24, 56], [36, 56], [47, 56]],
  9: [[16, 16], [30, 16], [44, 16], [16, 40], [30, 40], [44, 40], [16, 64], [30, 64], [44, 64]],
};
const stickColor = (n: number, i: number): string => {
  if (n === 5 && i === 2) return RED;
  if (n === 7 && i === 0) return RED;
  if (n === 9) return [RED, BLUE, GREEN][i % 3];
  if (n === 8) return i % 4 === 0 || i % 4 === 3 ? GREEN : BLUE;
  return GREEN;
};

function Stick({ at, color, h }: { at: Pt; color: string; h: number }): ReactElement {
  const w = 6.5;
  return (
    <g>
      <rect x={at[0] - w / 2} y={at[1] - h / 2} width={w} height={h} rx={3} fill={color} />
      <line x1={at[0] - w / 2} x2={at[0] + w / 2} y1={at[1]} y2={at[1]} stroke="#fbf8ef" strokeWidth={1.3} />
      <line x1={at[0]} x2={at[0]} y1={at[1] - h / 2 + 2.5} y2={at[1] + h / 2 - 2.5} stroke="#fbf8ef" strokeWidth={0.9} opacity={0.7} />
    </g>
  );
}

function Bird(): ReactElement {
  return (
    <g>
      <path d="M30 34 C18 40 14 60 22 70 L30 64 L38 70 C46 60 42 40 30 34 Z" fill={GREEN} />
      <path d="M22 70 L18 76 M30 64 L30 76 M38 70 L42 76" stroke={BLUE} strokeWidth={2.4} strokeLinecap="round" />
      <ellipse cx={30} cy={50} rx={5} ry={9} fill={BLUE} />
      <circle cx={30} cy={25} r={7.5} fill={RED} />
      <circle cx={32} cy={23.5} r={1.6} fill="#fbf8ef" />
      <path d="M36.5 25 L43 27 L36.5 28.5 Z" fill="#b45309" />
      <path d="M26 17 L24 10 M30 17 L30 9 M34 17 L36 10" stroke={RED} strokeWidth={1.8} strokeLinecap="round" />
    </g>
  );
}

function Glyph({ ch, x = 30, y = 40, size = 40, color = INK }: { ch: string; x?: number; y?: number; size?: number; color?: string }): ReactElement {
  return (
    <text x={x} y={y} fontSize={size} fill={color} fontFamily={CJK} fontWeight={700} textAnchor="middle" dominantBaseline="central">{ch}</text>
  );
}

function Index({ text, color = INK }: { text: string; color?: string }): ReactElement {
  return <text x={7} y={11} fontSize={10} fill={color} fontFamily="system-ui,sans-serif" fontWeight={700}>{text}</text>;
}

function Face({ code }: { code: string }): ReactElement | null {
  const suit = code[1];
  const n = Number(code[0]);
  if (code[0] === 'f') {
    const i = Number(code[1]) - 1;
    const season = i >= 4;
    const col = season ? BLUE : RED;
    return (
      <g>
        <Index text={String((i % 4) + 1)} color={col} />
        <circle cx={46} cy={14} r={5} fill={season ? '#f59e0b' : '#ec4899'} opacity={0.85} />
        <path d="M10 70 C22 58 30 66 50 58" stroke={GREEN} strokeWidth={2.4} fill="none" strokeLinecap="round" />
        <Glyph ch={FLOWER_CHARS[i]} y={40} size={30} color={col} />
      </g>
    );
  }
  if (suit === 'm') {
    return (
      <g>
        <Index text={String(n)} />
        <Glyph ch={NUMERALS[n - 1]} y={24} size={24} color={INK} />
        <Glyph ch="萬" y={56} size={28} color={RED} />
      </g>
    );
  }
  if (suit === 'p') {
    return <g>{DOTS[n].map((at, i) => <Dot key={i} at={at} r={DOT_R[n]} color={dotColor(n, i)} />)}</g>;
  }
  if (suit === 's') {
    if (n === 1) return <Bird />;
    const h = n >= 7 ? 16 : 20;
    return <g>{STICKS[n].map((at, i) => <Stick key={i} at={at} h={h} color={stickColor(n, i)} />)}</g>;
  }
  if (suit === 'z') {
    if (n <= 4) {
      return (
        <g>
          <Index text={WIND_LETTERS[n - 1]} color={BLUE} />
          <Glyph ch={WIND_CHARS[n - 1]} y={43} size={36} color={INK} />
        </g>
      );
    }
    if (n === 5) {
      return (
        <g>
          <rect x={13} y={14} width={34} height={52} rx={3} fill="none" stroke={BLUE} strokeWidth={3.5} />
          <rect x={18} y={19} width={24} height={42} rx={2} fill="none" stroke={BLUE} strokeWidth={1.3} />
        </g>
      );
    }
    if (n === 6) return <Glyph ch="發" y={41} size={38} color={GREEN} />;
    if (n === 7) return <Glyph ch="中" y={41} size={40} color={RED} />;
  }
  return null;
}

export interface TileFaceProps {
  code: string;
  /** Height in CSS pixels; width follows the 3:4 tile shape. */
  height?: number;
  /** Text alternative. Omit (or pass decorative) when a surrounding control already names the tile. */
  label?: string;
  decorative?: boolean;
  className?: string;
}

export function TileFace({ code, height = 48, label, decorative, className }: TileFaceProps): ReactElement {
  const back = code === 'back';
  const a11y = decorative || !label
    ? { 'aria-hidden': true as const, focusable: 'false' as const }
    : { role: 'img', 'aria-label': label };
  return (
    <svg viewBox="0 0 60 84" width={(height * 60) / 84} height={height} className={className} data-tile={code} {...a11y}>
      <rect x={1.5} y={5} width={57} height={77.5} rx={8} fill={back ? '#14532d' : '#1f7a45'} />
      <rect x={1.5} y={1.5} width={57} height={78} rx={8} fill={back ? '#1f7a45' : '#fbf8ef'} stroke={back ? '#14532d' : '#cfc6ad'} strokeWidth={1.2} />
      {back ? (
        <rect x={9} y={9} width={42} height={62} rx={5} fill="none" stroke="#4ade80" strokeOpacity={0.45} strokeWidth={2} />
      ) : (
        <Face code={code} />
      )}
    </svg>
  );
}
