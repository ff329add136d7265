/**
 * Sets: the engine-proposed grouping (layout hints + best decomposition). The
 * player marks melded sets and concealed kongs, and the winning tile.
 */
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { setConcealedKong, setDeclared, setSets, setWinning } from '../model/commands.ts';
import { proposeSets, scoreWork } from '../model/hand.ts';
import { useActiveRuleset } from '../ruleset/active.ts';
import { isFlowerCode, type TileItem } from '../model/work.ts';
import { useAppStore, useSelect } from '../state/context.tsx';
import { TileFace } from '../tiles/TileFace.tsx';
import { tileName } from '../i18n/index.ts';

export function SetsView({ onNext }: { onNext: () => void }) {
  const { t } = useTranslation();
  const store = useAppStore();
  const work = useSelect((s) => s.history.present);
  const ruleset = useActiveRuleset();

  useEffect(() => {
    if (work.sets === null && work.tiles.length) {
      const p = proposeSets(work, ruleset);
      store.run(setSets(p.sets, p.winningUid));
    }
  }, [work, store, ruleset]);

  const byUid = useMemo(() => new Map(work.tiles.map((x) => [x.uid, x])), [work.tiles]);
  const flowers = work.tiles.filter((x) => isFlowerCode(x.code));
  const scored = useMemo(() => (work.sets ? scoreWork(work, ruleset) : null), [work, ruleset]);
  const problem = scored && !scored.built.ok ? scored.built.problem : null;

  if (!work.tiles.length) return <section className="view"><p>{t('sets.none')}</p></section>;
  const sets = work.sets ?? [];

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
        <button type="button" className="btn ghost" onClick={() => { const p = proposeSets({ ...work, sets: null }, ruleset); store.run(setSets(p.sets, p.winningUid)); }}>
          {t('sets.regroup')}
        </button>
      </div>
      {problem && <p className="error" role="alert">{t(problem.key, problem.values)}</p>}
      <div className="nav-actions">
        <button type="button" className="btn primary" disabled={!!problem} onClick={onNext}>{t('common.next')}</button>
      </div>
    </section>
  );
}
