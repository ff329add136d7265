/**
 * The score CLI for card 002 (`--rules fan-pays`): extra win-context flags,
 * a readable breakdown with payments, and --json / --all / --what-if.
 */
import {
  allFanPaysReadings, FLOWER_BASE, formatHand, isMahjongError, parseHand, parseWaitingHand, scoreFanPays, fanPaysWaits, tileCode,
  type FanPaysContext, type FanPaysResult, type Payments, type WinContext, type Wind,
} from '../engine/index.ts';
import { errorJson, fanPaysResultToBatch } from './batch.ts';

export const FAN_PAYS_HELP = `
Fan Pays (--rules fan-pays): 16-tile hands, 17 tiles with the winning tile; flowers as digits + f (e.g. 13f)
  --dealer E|S|W|N        seat of the dealer (default E)
  --dealer-streak N       hands the dealer has won in a row before this one (default 0)
  --flower-wall           won on a tile picked from the flower wall (self-drawn)
  --first-discard         won on the dealer's first discard (Terrestrial Blessing)
  --first-draw            won on the first tile picked from the wall (Heavenly Blessing)
  --dealer-opens          the dealer opened with Mahjong in hand
  --first-dealer-discard  the winner claimed the dealer's first discard for a melded set
  --secret-kong SEAT      another player declared a concealed kong (repeat per kong)
  --seat-flowers SEAT=NN  flowers another seat holds, e.g. S=57 (repeatable)
  --fan-value N           value of one fan in payments (default 1)
`;

export const FAN_PAYS_OPTIONS = {
  dealer: { type: 'string' }, 'dealer-streak': { type: 'string' }, 'flower-wall': { type: 'boolean' },
  'first-discard': { type: 'boolean' }, 'first-draw': { type: 'boolean' }, 'dealer-opens': { type: 'boolean' },
  'first-dealer-discard': { type: 'boolean' }, 'secret-kong': { type: 'string', multiple: true },
  'seat-flowers': { type: 'string', multiple: true }, 'fan-value': { type: 'string' },
} as const;

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

const SEATS: Wind[] = ['E', 'S', 'W', 'N'];

function seatOf(v: string, what: string, fail: (m: string) => never): Wind {
  const u = v.toUpperCase();
  if (!SEATS.includes(u as Wind)) fail(`${what} must be one of E, S, W, N (got "${v}")`);
  return u as Wind;
}

/** The Fan Pays fields of the context, from the flags. */
export function fanPaysFlags(o: Values, fail: (m: string) => never): Omit<FanPaysContext, keyof WinContext> {
  const num = (name: string, dflt: number, check: (n: number) => boolean, what: string) => {
    const v = o[name];
    if (v === undefined) return dflt;
    const n = Number(v);
    if (!check(n)) fail(`--${name} must be ${what}`);
    return n;
  };
  const flowersBySeat: Partial<Record<Wind, number[]>> = {};
  for (const spec of (o['seat-flowers'] as string[] | undefined) ?? []) {
    const m = /^([ESWNeswn])=([1-8]+)f?$/.exec(spec);
    if (!m) fail(`--seat-flowers takes SEAT=DIGITS such as S=57 (got "${spec}")`);
    flowersBySeat[seatOf(m[1]!, '--seat-flowers', fail)] = [...m[2]!].map((d) => FLOWER_BASE + Number(d) - 1);
  }
  return {
    dealer: o.dealer === undefined ? 'E' : seatOf(String(o.dealer), '--dealer', fail),
    dealerStreak: num('dealer-streak', 0, (n) => Number.isInteger(n) && n >= 0, 'a whole number, 0 or more'),
    flowerWallWin: !!o['flower-wall'], firstDiscardWin: !!o['first-discard'], firstDrawWin: !!o['first-draw'],
    dealerOpensWithMj: !!o['dealer-opens'], claimedFirstDealerDiscard: !!o['first-dealer-discard'],
    secretKongs: ((o['secret-kong'] as string[] | undefined) ?? []).map((s) => seatOf(s, '--secret-kong', fail)),
    flowersBySeat,
    fanValue: num('fan-value', 1, (n) => Number.isFinite(n) && n > 0, 'a positive number'),
  };
}

const signed = (n: number) => `${n > 0 ? '+' : ''}${n}`;
const payLine = (p: Payments) => SEATS.map((w) => `${w} ${signed(p[w])}`).join('   ');

export function describeFanPays(r: FanPaysResult): string {
  if (r.error) return `Not a valid win: ${r.error.message}`;
  const lines: string[] = [];
  for (const f of r.fans) {
    const pts = f.points * f.count;
    lines.push(`  ${String(f.id).padStart(2)}  ${f.names.en.padEnd(30)} ${f.names.zh.padEnd(6, '\u3000')} ${f.count > 1 ? `${f.points} x ${f.count}` : ''}`.trimEnd().padEnd(56) + String(pts).padStart(4));
  }
  lines.push(`  ${'Total (fans)'.padEnd(52)}${String(r.total).padStart(4)}`);
  if (r.notCounted.length) {
    lines.push('', 'Not counted:');
    for (const n of r.notCounted) lines.push(`  ${String(n.id).padStart(2)}  ${n.message}`);
  }
  if (r.decomposition) {
    const sets = r.decomposition.sets.map((s) => {
      const t = s.kind === 'chow' ? [s.tile, s.tile + 1, s.tile + 2].map(tileCode).join('') : Array(s.kind === 'kong' ? 4 : s.kind === 'pair' ? 2 : 3).fill(tileCode(s.tile)).join('');
      return `${s.kind}${s.declared ? (s.concealed ? '(concealed)' : '(melded)') : ''} ${t}`;
    });
    lines.push('', `Read as (${r.decomposition.kind}): ${sets.join(' | ')}`);
  }
  if (r.waits.length) lines.push(`Waits before the win: ${r.waits.map(tileCode).join(' ')}`);
  lines.push('', `Payments (one fan = ${r.fanValue}):`);
  lines.push(r.payments ? `  Win          ${payLine(r.payments)}` : '  Win          name the discarder (--discarder) or use --self-drawn');
  if (SEATS.some((w) => r.secretKongPayments[w] !== 0)) lines.push(`  Secret kong  ${payLine(r.secretKongPayments)}`);
  if (r.netPayments && SEATS.some((w) => r.secretKongPayments[w] !== 0)) lines.push(`  Net          ${payLine(r.netPayments)}`);
  return lines.join('\n');
}

/** Runs one non-batch Fan Pays command. Returns the process exit message on bad input. */
export function runFanPays(text: string, ctx: FanPaysContext, mode: { json: boolean; all: boolean; whatIf: boolean }, out: (s: string) => void, fail: (m: string) => never): void {
  try {
    if (mode.whatIf) {
      const hand = parseWaitingHand(text);
      const list = fanPaysWaits(hand).map((tile) => ({ tile, result: scoreFanPays({ ...hand, winningTile: tile }, ctx) }));
      if (mode.json) { out(JSON.stringify(list.map((w) => ({ tile: tileCode(w.tile), ...fanPaysResultToBatch(null, w.result) }))) + '\n'); return; }
      if (!list.length) { out(`${formatHand(hand)} is not waiting on any tile.\n`); return; }
      for (const w of list) out(`Win on ${tileCode(w.tile)}: ${w.result.validWin ? `${w.result.total} fans` : w.result.error!.message}\n   ${w.result.fans.map((f) => `${f.names.en} ${f.points}${f.count > 1 ? 'x' + f.count : ''}`).join(', ')}\n`);
      return;
    }
    const hand = parseHand(text);
    if (mode.all) {
      const list = allFanPaysReadings(hand, ctx);
      if (mode.json) { out(JSON.stringify(list.map((r) => ({ decomposition: r.decomposition, ...fanPaysResultToBatch(null, r) }))) + '\n'); return; }
      list.forEach((r, i) => out(`#${i + 1}\n${describeFanPays(r)}\n\n`));
      return;
    }
    const r = scoreFanPays(hand, ctx);
    if (mode.json) out(JSON.stringify({ hand: formatHand(hand), ...r }) + '\n');
    else if (!r.error) out(`${formatHand(hand)}   (Fan Pays)\n\n${describeFanPays(r)}\n`);
    if (r.error) fail(r.error.message);
  } catch (e) {
    if (isMahjongError(e)) {
      if (mode.json) out(JSON.stringify(errorJson(text, e)) + '\n');
      fail(e.message);
    }
    throw e;
  }
}
