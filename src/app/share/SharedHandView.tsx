import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FanNames, FanPaysContext, FanPaysResult, Hand, ScoreResult, WinContext } from '../../engine/index.ts';
import { decodeShareLink, isShareError, type ShareEngine, type SharedHand } from './codec.ts';
import { engineForShare } from './link.ts';

export interface SharedHandViewProps {
  /** What follows `#/h/` in the address (a whole link or fragment also works). */
  payload: string;
  /** Draws the tiles; the notation is shown as text when omitted. */
  renderHand?: (hand: Hand) => ReactNode;
  /** For tests; the real engine by default. */
  engine?: ShareEngine;
}

type Decoded = { ok: true; shared: SharedHand } | { ok: false; code: string; message: string };

function fanName(names: FanNames, language: string): string {
  const lng = language.slice(0, 2) as keyof FanNames;
  return names[lng] ?? names.en;
}

const WINDS = ['E', 'S', 'W', 'N'] as const;
const isFanPays = (r: ScoreResult): r is FanPaysResult => r.ruleset === 'fan-pays' && 'netPayments' in r;

function Conditions({ ctx, fanPays }: { ctx: WinContext; fanPays: boolean }) {
  const { t } = useTranslation();
  const wind = (w: string) => t(`share.wind.${w}`);
  const items: string[] = [
    `${t('share.seatWind')}: ${wind(ctx.seatWind)}`,
    `${t('share.prevalentWind')}: ${wind(ctx.prevalentWind)}`,
    ctx.selfDrawn ? t('share.selfDrawn') : ctx.discarder ? t('share.discardBy', { wind: wind(ctx.discarder) }) : t('share.discard'),
  ];
  if (ctx.lastOfKind) items.push(t('share.lastOfKind'));
  if (ctx.lastTileOfWall) items.push(t('share.lastTileOfWall'));
  if (ctx.replacementTile) items.push(t('share.replacementTile'));
  if (ctx.robbingKong) items.push(t('share.robbingKong'));
  if (ctx.flowers) items.push(t('share.flowers', { count: ctx.flowers }));
  if (fanPays) {
    const fp = ctx as FanPaysContext;
    items.push(t('share.fp.dealer', { wind: wind(fp.dealer ?? 'E') }));
    if (fp.dealerStreak) items.push(t('share.fp.dealerStreak', { count: fp.dealerStreak }));
    if (fp.flowerWallWin) items.push(t('share.fp.flowerWallWin'));
    if (fp.firstDiscardWin) items.push(t('share.fp.firstDiscardWin'));
    if (fp.firstDrawWin) items.push(t('share.fp.firstDrawWin'));
    if (fp.dealerOpensWithMj) items.push(t('share.fp.dealerOpensWithMj'));
    if (fp.claimedFirstDealerDiscard) items.push(t('share.fp.claimedFirstDealerDiscard'));
    if (fp.secretKongs?.length) items.push(t('share.fp.secretKongs', { seats: fp.secretKongs.map(wind).join(', ') }));
    if (fp.fanValue !== undefined && fp.fanValue !== 1) items.push(t('share.fp.fanValue', { value: fp.fanValue }));
  }
  return <ul className="shared-hand-conditions">{items.map((s) => <li key={s}>{s}</li>)}</ul>;
}

/**
 * A hand opened from a link: checked (checksum, then scored again by the engine),
 * then shown with its fans and total. A damaged or edited link shows an error
 * and no score.
 */
export function SharedHandView({ payload, renderHand, engine = engineForShare }: SharedHandViewProps) {
  const { t, i18n } = useTranslation();
  const decoded = useMemo<Decoded>(() => {
    try {
      return { ok: true, shared: decodeShareLink(payload, engine) };
    } catch (e) {
      if (isShareError(e)) return { ok: false, code: e.code, message: e.message };
      return { ok: false, code: 'INVALID_HAND', message: e instanceof Error ? e.message : String(e) };
    }
  }, [payload, engine]);

  if (!decoded.ok) {
    return (
      <section className="shared-hand shared-hand-error" role="alert">
        <h2>{t('share.error.title')}</h2>
        <p>{t(`share.error.${decoded.code}`)}</p>
        <p className="shared-hand-detail">{decoded.message}</p>
      </section>
    );
  }
  const { shared } = decoded;
  const { result } = shared;
  const fp = isFanPays(result) ? result : null;
  // Card 002 counts fans; MCR counts points.
  const amount = (count: number) => (fp ? t('share.fp.fanCount', { count }) : t('share.pointCount', { count }));
  const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');
  return (
    <section className="shared-hand" aria-labelledby="shared-hand-title">
      <h2 id="shared-hand-title">{t('share.sharedTitle')}</h2>
      <p className="shared-hand-rules" data-testid="shared-ruleset">{t('share.rules', { name: t(`share.ruleset.${shared.ruleset}`, { defaultValue: shared.ruleset }) })}</p>
      <h3>{t('share.hand')}</h3>
      {renderHand ? renderHand(shared.hand) : <p className="shared-hand-notation"><code>{shared.notation}</code></p>}
      <h3>{t('share.conditions')}</h3>
      <Conditions ctx={shared.ctx} fanPays={!!fp} />
      {!result.validWin && result.error && <p role="alert">{t('share.notValid', { message: result.error.message })}</p>}
      <h3>{t('share.fans')}</h3>
      <table className="shared-hand-fans">
        <tbody>
          {result.fans.map((f) => (
            <tr key={f.id}>
              <td>{fanName(f.names, i18n.language ?? 'en')}{f.count > 1 ? ` ×${f.count}` : ''}</td>
              <td>{amount(f.points * f.count)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{t('share.total')}</th>
            <td data-testid="shared-total">{amount(result.total)}</td>
          </tr>
        </tfoot>
      </table>
      {fp?.netPayments && (
        <>
          <h3>{t('share.fp.payments')}</h3>
          <ul className="shared-hand-payments" data-testid="shared-payments">
            {WINDS.map((w) => <li key={w} data-seat={w}>{t(`share.wind.${w}`)}: {signed(fp.netPayments![w])}</li>)}
          </ul>
        </>
      )}
      <p role="status">{fp ? t('share.fp.verified', { total: result.total }) : t('share.verified', { total: result.total })}</p>
    </section>
  );
}
