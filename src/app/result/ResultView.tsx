/**
 * Result: everything here is derived from the corrected hand by the engine at
 * render time; nothing is stored.
 */
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  getRuleset, tileCode, WINDS,
  type FanNames, type FanPaysContext, type FanPaysResult, type NotCountedFan, type Payments, type ScoreResult,
} from '../../engine/index.ts';
import { idsOf, scoreWork, setsFor, whatIfFor } from '../model/hand.ts';
import { checkTiles } from '../model/checks.ts';
import { useActiveRuleset } from '../ruleset/active.ts';
import { useSelect } from '../state/context.tsx';
import { TileFace } from '../tiles/TileFace.tsx';
import { tileName } from '../i18n/index.ts';
import { relativeSeat } from '../conditions/ConditionsView.tsx';
import { useTeachOnResult } from '../tileset/teach.ts';

/** The share panel pulls in the QR encoder, so it loads on demand. */
const AddToTable = lazy(() => import('./AddToTable.tsx'));
const ShareHand = lazy(() => import('../share/ShareHand.tsx').then((m) => ({ default: m.ShareHand })));

export const fanName = (names: FanNames, lang: string): string => names[lang as keyof FanNames] || names.en;

/** A fan of the result's own ruleset by its number (MCR 1..81, card 002 entries 1..65). */
function rulesetFanNames(ruleset: string, id: number): FanNames | null {
  try { return getRuleset(ruleset).fans.find((f) => f.id === id)?.names ?? null; } catch { return null; }
}

const signedAmount = (n: number): string => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

const isFanPays = (r: ScoreResult): r is FanPaysResult => r.ruleset === 'fan-pays' && 'netPayments' in r;

function NotCounted({ f, lang, ruleset, unit }: { f: NotCountedFan; lang: string; ruleset: string; unit: 'result' | 'fp' }) {
  const { t } = useTranslation();
  let why: string;
  // MCR's rule references in the player's language; the Fan Pays card is quoted as printed
  let citation = f.reason.citation;
  if (f.reason.kind === 'excluded') {
    const names = rulesetFanNames(ruleset, f.reason.byFan);
    const by = names ? fanName(names, lang) : `#${f.reason.byFan}`;
    why = t('reason.excluded', { fan: by });
    if (ruleset === 'mcr') citation = t('cite.excluded', { fan: by, n: f.reason.byFan });
  } else {
    why = t(`reason.${f.reason.kind}`);
    if (ruleset === 'mcr' && f.reason.kind !== 'lower-alternative') citation = t(`cite.${f.reason.kind}`);
  }
  return (
    <li data-fan={f.id}>
      <span className="fan-name">{fanName(f.names, lang)}</span> <span className="fan-pts">({t(`${unit}.fanPoints`, { points: f.points, count: f.points })})</span>
      <div className="why">{why}. <small>{t('result.rule', { citation })}</small></div>
    </li>
  );
}

export function ResultView() {
  const { t, i18n } = useTranslation();
  const lang = (i18n.language ?? 'en').slice(0, 2);
  const work = useSelect((s) => s.history.present);
  useTeachOnResult(work);
  const ruleset = useActiveRuleset();
  const { built, result, ctx } = useMemo(() => scoreWork(work, ruleset), [work, ruleset]);

  const alternatives = useMemo(() => (built.ok && ctx ? whatIfFor(ruleset, built.hand, ctx) : []), [built, ctx, ruleset]);

  if (!built.ok || !ctx) {
    return (
      <section className="view result" aria-labelledby="result-h">
        <h2 id="result-h">{t('result.heading')}</h2>
        <p className="error" role="alert">{built.ok ? t('hand.engineUnavailable') : t(built.problem.key, built.problem.values)}</p>
      </section>
    );
  }
  const r = result as ScoreResult;
  const ok = r.validWin;
  const invalidShape = r.error && r.error.code !== 'BELOW_MINIMUM';
  if (invalidShape) {
    // Not a win under this ruleset (most often a 14-tile MCR hand shown under Fan Pays, which needs
    // 17): say what is wrong in the player's words, with the engine's own wording under Details.
    const count = checkTiles(work.tiles, setsFor(ruleset)).find((i) => i.severity === 'error');
    // the win conditions, not the tiles, are what cannot be (last tile of its kind with copies in the hand)
    const conditionsWrong = !count && (r.error!.code === 'CONTRADICTORY_CONDITIONS' || r.error!.code === 'INVALID_CONTEXT');
    return (
      <section className="view result" aria-labelledby="result-h">
        <h2 id="result-h">{t('result.heading')}</h2>
        <div className="total-card bad" role="status" data-testid="total" data-ruleset={r.ruleset}>
          <div className="minimum">
            {`${t('result.invalid')}: ${count ? t(count.key, count.values) : t(`engine.${r.error!.code}`, { defaultValue: r.error!.message })} ${t(conditionsWrong ? 'result.backToConditions' : 'result.backToTiles')}`}
          </div>
        </div>
        <details className="small"><summary>{t('common.details')}</summary>{r.error!.message}</details>
      </section>
    );
  }
  const fp = isFanPays(r) ? r : null;
  // Card 002 counts fans and pays per fan; MCR counts points.
  const unit = fp ? 'fp' : 'result';
  const kongPay = fp && WINDS.some((w) => fp.secretKongPayments[w] !== 0) ? fp.secretKongPayments : null;
  const shown: Payments | null = fp ? fp.netPayments : r.payments;
  const dealer = fp ? ((ctx as FanPaysContext).dealer ?? 'E') : null;

  return (
    <section className="view result" aria-labelledby="result-h">
      <h2 id="result-h">{t('result.heading')}</h2>
      <div className={`total-card ${ok ? 'ok' : 'bad'}`} role="status" data-testid="total" data-ruleset={r.ruleset}>
        <div className="total-label">{fp ? t('fp.totalLabel') : t('result.totalLabel')}</div>
        <div className="total-value">{t(`${unit}.total`, { count: r.total })}</div>
        {!fp && r.total !== r.totalWithoutFlowers && <div className="total-sub">{t('result.withoutFlowers', { n: r.totalWithoutFlowers })}</div>}
        <div className="minimum">
          {fp ? t('fp.noMinimum', { value: fp.fanValue })
            : ok ? t('result.minimumOk') : t('result.minimumFail', { n: r.totalWithoutFlowers, count: r.totalWithoutFlowers })}
        </div>
      </div>

      {r.decomposition && (
        <div className="decomp" aria-label={t('result.decomposition')}>
          <span className="small">{t('result.decomposition')}</span>
          <div className="decomp-sets">
            {r.decomposition.sets.map((s, i) => (
              <span key={i} className={`decomp-set${s.declared ? ' declared' : ''}`}>
                {idsOf(s).map((id, j) => <TileFace key={j} code={tileCode(id)} height={30} label={tileName(t, tileCode(id))} />)}
              </span>
            ))}
          </div>
        </div>
      )}

      <h3>{t('result.fans')}</h3>
      <table className="fans" data-testid="fans">
        <tbody>
          {r.fans.map((f) => (
            <tr key={f.id} data-fan={f.id}>
              <th scope="row"><span className="fan-name">{fanName(f.names, lang)}</span></th>
              <td className="fan-pts">{f.count > 1
                ? (fp ? t('fp.fanTimes', { count: f.points, n: f.count }) : t('result.fanTimes', { points: f.points, count: f.count }))
                : t(`${unit}.fanPoints`, { points: f.points, count: f.points })}</td>
              <td className="fan-sum">{f.points * f.count}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr><th scope="row">{t('result.totalLabel')}</th><td /><td className="fan-sum">{r.total}</td></tr>
        </tfoot>
      </table>

      <h3>{t('result.notCounted')}</h3>
      {r.notCounted.length ? (
        <ul className="not-counted">{r.notCounted.map((f, i) => <NotCounted key={`${f.id}-${i}`} f={f} lang={lang} ruleset={r.ruleset} unit={unit} />)}</ul>
      ) : <p className="small">{t('result.noneNotCounted')}</p>}

      <h3>{t('result.payments')}</h3>
      {shown ? (
        <>
          {fp && <p className="small">{t('fp.paymentsHint', { value: fp.fanValue })}</p>}
          <ul className="payments" data-testid="payments">
            {WINDS.map((w) => {
              const v = shown[w];
              const rel = relativeSeat(ctx.seatWind, w);
              const dealerTag = dealer === w ? t('fp.dealerTag') : '';
              const tag = [rel === 'you' ? t('result.winner') : !ctx.selfDrawn && ctx.discarder === w ? t('result.discarder') : '', dealerTag].filter(Boolean).join(', ');
              return (
                <li key={w} className={v > 0 ? 'plus' : v < 0 ? 'minus' : 'even'} data-seat={w}>
                  <span className="seat">{t(`wind.${w}`)} <small>({t(`seat.${rel}`)}{tag ? `, ${tag}` : ''})</small></span>
                  <span className="amount">
                    {v > 0 ? t('result.receives', { n: v }) : v < 0 ? t('result.pays', { n: -v }) : '0'}
                    {kongPay && fp?.payments && (
                      <small className="pay-parts">{t('fp.parts', { win: signedAmount(fp.payments[w]), kongs: signedAmount(kongPay[w]) })}</small>
                    )}
                  </span>
                </li>
              );
            })}
          </ul>
          {fp && fp.dealerPenalty > 0 && <p className="small">{t('fp.dealerPenaltyNote', { count: fp.dealerPenalty })}</p>}
        </>
      ) : <p className="small">{t('result.invalid')}</p>}

      <h3>{t('result.whatIf')}</h3>
      {alternatives.length > 1 || (alternatives.length === 1 && alternatives[0].tile !== built.hand.winningTile) ? (
        <>
          <p className="small">{t('result.whatIfHint')}</p>
          <ul className="what-if" data-testid="what-if">
            {alternatives.map((a) => (
              <li key={a.tile} className={a.tile === built.hand.winningTile ? 'current' : ''}>
                <TileFace code={tileCode(a.tile)} height={38} label={tileName(t, tileCode(a.tile))} />
                <span>
                  {t(fp ? 'fp.total' : 'result.whatIfPoints', { count: a.result.total })}
                  {!a.result.validWin && <small> · {a.result.error?.code === 'BELOW_MINIMUM' ? t('result.whatIfBelow') : t('result.invalid')}</small>}
                  {a.tile === built.hand.winningTile && <small> · {t('sets.winning')}</small>}
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : <p className="small">{t('result.whatIfNone')}</p>}

      {ok && (
        <Suspense fallback={null}>
          <AddToTable hand={built.hand} ctx={ctx} result={r} />
          <ShareHand hand={built.hand} ctx={ctx} result={r} />
        </Suspense>
      )}
    </section>
  );
}
