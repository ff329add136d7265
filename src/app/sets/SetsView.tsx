/**
 * Sets: the proposed grouping (the player's declared sets, layout hints and the
 * engine's best reading). The player marks melded sets and concealed kongs and
 * the winning tile, and can pick another of the engine's readings.
 */
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { fillIn, setConcealedKong, setDeclared, setSets, setWinning } from '../model/commands.ts';
import { groupingIndex, groupings, needsSets, proposeSets, scoreWork } from '../model/hand.ts';
import { useActiveRuleset } from '../ruleset/active.ts';
import { isFlowerCode, type PlannedSet, type TileItem, type Work } from '../model/work.ts';
import { useAppStore, useSelect } from '../state/context.tsx';
import { TileFace } from '../tiles/TileFace.tsx';
import { tileName } from '../i18n/index.ts';

const sameSets = (a: PlannedSet[] | null, b: PlannedSet[]): boolean => JSON.stringify(a) === JSON.stringify(b);

export function SetsView({ onNext }: { onNext: () => void }) {
  const { t } = useTranslation();
  const store = useAppStore();
  const stored = useSelect((s) => s.history.present);
  const ruleset = useActiveRuleset();

  // Sets for tiles that have none yet (never grouped, or added or corrected since) are
  // proposed, shown at once and filled into the present snapshot, not recorded as a
  // step of the player's: undo walks back through the player's own steps.
  const proposal = useMemo(() => (needsSets(stored) ? proposeSets(stored, ruleset) : null), [stored, ruleset]);
  const work: Work = useMemo(() => (proposal ? { ...stored, ...proposal } : stored), [stored, proposal]);
  useEffect(() => {
    if (!proposal) return;
    const h = store.get().history;
    if (h.present === stored) store.replace({ history: fillIn(h, setSets(proposal.sets, proposal.winningUid)) });
  }, [proposal, stored, store]);

  const byUid = useMemo(() => new Map(work.tiles.map((x) => [x.uid, x])), [work.tiles]);
  const flowers = work.tiles.filter((x) => isFlowerCode(x.code));
  const scored = useMemo(() => (work.sets ? scoreWork(work, ruleset) : null), [work, ruleset]);
  const problem = scored && !scored.built.ok ? scored.built.problem : null;
  const readings = useMemo(() => groupings(work, ruleset), [work, ruleset]);
  const shownReading = groupingIndex(work, readings);
  const another = readings.length > (shownReading >= 0 ? 1 : 0) ? readings[(shownReading + 1) % readings.length] : null;

  if (!work.tiles.length) return <section className="view"><p>{t('sets.none')}</p></section>;
  const sets = work.sets ?? [];
  const regroup = () => {
    const p = proposeSets(work, ruleset);
    if (!sameSets(work.sets, p.sets) || p.winningUid !== work.winningUid) store.run(setSets(p.sets, p.winningUid));
  };

  const tileButton = (tile: TileItem, inDeclared: boolean) => {
    const name = tileName(t, tile.code);
    const winning = work.winningUid === tile.uid;
    if (inDeclared || tile.code === 'back') {
      return <span className="set-tile" key={tile.uid}><TileFace code={tile.code} height={46} label={name} /></span>;
    }
    return (
      <button
        key={tile.uid}
        type="button"
        className={`set-tile pick${winning ? ' winning' : ''}`}
        data-uid={tile.uid}
        data-code={tile.code}
        aria-pressed={winning}
        aria-label={winning ? t('sets.isWinning', { name }) : t('sets.markWinning', { name })}
        onClick={() => store.run(setWinning(tile.uid))}
      >
        <TileFace code={tile.code} height={46} decorative />
        {winning && <span className="win-tag" aria-hidden="true">★</span>}
      </button>
    );
  };

  return (
    <section className="view sets" aria-labelledby="sets-h">
      <h2 id="sets-h">{t('sets.heading')}</h2>
      <p className="hint">{t('sets.hint')}</p>
      <ol className="set-list">
        {sets.map((s, i) => {
          const tiles = s.uids.map((u) => byUid.get(u)).filter((x): x is TileItem => !!x);
          const canDeclare = s.kind === 'chow' || s.kind === 'pung' || s.kind === 'kong';
          const label = t('sets.set', { n: i + 1, kind: t(`sets.${s.kind}`) });
          return (
            <li key={s.uids.join(',')} className={`set-card${s.declared ? ' declared' : ''}`} aria-label={label} data-kind={s.kind}>
              <div className="set-head">
                <span className="set-title">{label}</span>
                {canDeclare && (
                  <div className="seg" role="group" aria-label={label}>
                    <button type="button" aria-pressed={s.declared && !s.concealedKong} onClick={() => store.run(setDeclared(i, true))}>{t('sets.melded')}</button>
                    <button type="button" aria-pressed={!s.declared} onClick={() => store.run(setDeclared(i, false))}>{t('sets.concealed')}</button>
                    {s.kind === 'kong' && (
                      <button type="button" aria-pressed={!!s.concealedKong} onClick={() => store.run(setConcealedKong(i, !s.concealedKong))}>{t('sets.concealedKong')}</button>
                    )}
                  </div>
                )}
              </div>
              <div className="set-tiles">{tiles.map((x) => tileButton(x, s.declared))}</div>
            </li>
          );
        })}
      </ol>
      {flowers.length > 0 && (
        <div className="flowers-row">
          <span>{t('sets.flowers')}</span>
          {flowers.map((f) => <TileFace key={f.uid} code={f.code} height={40} label={tileName(t, f.code)} />)}
        </div>
      )}
      <div className="row-actions">
        <button type="button" className="btn ghost" onClick={regroup}>
          {t('sets.regroup')}
        </button>
        {another && (
          <button type="button" className="btn ghost" onClick={() => store.run(setSets(another.sets, another.winningUid))}>
            {t('sets.another')}
          </button>
        )}
        {shownReading >= 0 && readings.length > 1 && (
          <span className="hint small" role="status">{t('sets.groupingOf', { n: shownReading + 1, count: readings.length })}</span>
        )}
      </div>
      {problem && <p className="error" role="alert">{t(problem.key, problem.values)}</p>}
      <div className="nav-actions">
        <button type="button" className="btn primary" disabled={!!problem} onClick={onNext}>{t('common.next')}</button>
      </div>
    </section>
  );
}
