/** "Add to the score sheet" on the result screen, when a table is open (issue 5's session store). */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Hand, ScoreResult, WinContext } from '../../engine/index.ts';
import { useAddToSheet } from '../session/useSession.ts';
import { handLink } from '../share/link.ts';

export default function AddToTable({ hand, ctx, result }: { hand: Hand; ctx: WinContext; result: ScoreResult }) {
  const { t } = useTranslation();
  const { available, next, addScoredHand } = useAddToSheet();
  // The label of the hand as it was added: afterwards `next` already names the hand after it.
  const [done, setDone] = useState<{ label: string; message: string } | null>(null);
  if (!done && (!available || !next)) return null;
  const label = done?.label ?? t('result.addToTable', { n: next!.handNumber, player: next!.playerBySeat[ctx.seatWind] });
  const add = () => {
    // Fan Pays keeps the result's per-seat amounts (win and secret kongs); MCR derives them from the points.
    const net = 'netPayments' in result ? (result as { netPayments: ScoreResult['payments'] }).netPayments : null;
    const r = addScoredHand({
      winnerSeat: ctx.seatWind, selfDrawn: ctx.selfDrawn, discarderSeat: ctx.discarder ?? null,
      points: result.total, link: handLink(hand, ctx, result), ruleset: result.ruleset,
      ...(net ? { payments: net } : {}),
    });
    setDone({ label, message: r.ok ? t('result.added', { n: r.handNumber }) : r.message });
  };
  return (
    <div className="add-to-table">
      <button type="button" className="btn" onClick={add} disabled={!!done}>
        {label}
      </button>
      <p role="status" className="small">{done?.message}</p>
    </div>
  );
}
