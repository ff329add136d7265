/**
 * "Add to the score sheet" on the result screen, when a table is open (issue 5's session store).
 *
 * What it offers is derived from the sheet and the work, both saved, so a reload
 * or a trip to the Table tab shows the same: a hand already on the sheet says so
 * (and is not offered again); a hand changed after it was added offers to update
 * its sheet hand; new work is added as the next hand (see "Which sheet hand a
 * scanned hand went to" in ../session/sheetMark.ts).
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FanPaysContext, Hand, ScoreResult, WinContext } from '../../engine/index.ts';
import { sheetErrorMessage } from '../session/i18n.ts';
import { useAddToSheet } from '../session/useSession.ts';
import { handLink } from '../share/link.ts';

export default function AddToTable({ hand, ctx, result }: { hand: Hand; ctx: WinContext; result: ScoreResult }) {
  const { t } = useTranslation();
  const link = useMemo(() => handLink(hand, ctx, result), [hand, ctx, result]);
  const { place, put } = useAddToSheet(link);
  const [error, setError] = useState<string | null>(null);
  // Only to say "updated" rather than "added" right after an update.
  const [updated, setUpdated] = useState<number | null>(null);
  if (place.kind === 'none') return null;
  const { handNumber: n, playerBySeat, rules } = place.hand;
  const player = playerBySeat[ctx.seatWind];

  const submit = () => {
    // Fan Pays keeps the result's per-seat amounts (win and secret kongs); MCR derives them from the points.
    const net = 'netPayments' in result ? (result as { netPayments: ScoreResult['payments'] }).netPayments : null;
    const r = put({
      winnerSeat: ctx.seatWind, selfDrawn: ctx.selfDrawn, discarderSeat: ctx.discarder ?? null,
      points: result.total, link, ruleset: result.ruleset,
      ...(net ? { payments: net } : {}),
      // Fan Pays: the dealer the payments were worked out for
      ...(result.ruleset === 'fan-pays' ? { dealer: (ctx as FanPaysContext).dealer ?? 'E', dealerRun: (ctx as FanPaysContext).dealerStreak ?? 0 } : {}),
    });
    setError(r.ok ? null : sheetErrorMessage(t, r.error ?? { code: r.code }, { rules, scored: result.ruleset }));
    setUpdated(r.ok && place.kind === 'changed' ? r.handNumber : null);
  };

  // A link styled as a button: a full 44 px tap target (styles.css has no rule for a.btn).
  const viewSheet = <a className="btn ghost" href="#/table" style={{ display: 'inline-flex', alignItems: 'center', textDecoration: 'none' }}>{t('session.toSheet.view')}</a>;
  return (
    <div className="add-to-table" data-testid="add-to-table" data-state={place.kind}>
      {place.kind === 'changed' && <p className="small">{t('session.toSheet.changed', { n })}</p>}
      {place.kind === 'new' && place.lost !== null && <p className="small">{t('session.toSheet.gone', { n: place.lost })}</p>}
      {place.kind === 'changed'
        ? <button type="button" className="btn" onClick={submit}>{t('session.toSheet.update', { n, player })}</button>
        : (
          // Once added, the button stays (disabled) with the label of the hand it became.
          <button type="button" className="btn" onClick={submit} disabled={place.kind === 'added'}>
            {t('result.addToTable', { n, player })}
          </button>
        )}
      <p role="status" className="small">
        {place.kind === 'added' ? (updated === n ? t('session.toSheet.updated', { n }) : t('result.added', { n })) : ''}
      </p>
      {error && <p role="alert" className="small error">{error}</p>}
      {place.kind !== 'new' && viewSheet}
    </div>
  );
}
