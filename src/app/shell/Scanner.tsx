/** The scanner flow: steps, undo/redo, and the current step's view. */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { emptyWork, STEPS, type Step, type Work } from '../model/work.ts';
import { checkTiles, hasErrors } from '../model/checks.ts';
import { scoreWork, setsFor } from '../model/hand.ts';
import { useActiveRuleset, type RulesetId } from '../ruleset/active.ts';
import { RulesetPicker } from '../ruleset/RulesetPicker.tsx';
import { useAppStore, useSelect } from '../state/context.tsx';
import { prunePhotos } from '../state/store.ts';
import { CaptureView } from '../capture/CaptureView.tsx';
import { ReviewView } from '../review/ReviewView.tsx';
import { SetsView } from '../sets/SetsView.tsx';
import { ConditionsView } from '../conditions/ConditionsView.tsx';
import { ResultView } from '../result/ResultView.tsx';

/** A notice; `undoTo`: it offers Undo, which also goes back to that step (Start over). */
type Msg = { key: string; values?: Record<string, string | number>; undoTo?: Step; at?: Work };

/** The furthest step the work allows (derived, never stored). */
function reachable(work: ReturnType<typeof useSelect<import('../model/work.ts').Work>>, ruleset: RulesetId): number {
  if (work.source === null) return 0;
  if (hasErrors(checkTiles(work.tiles, setsFor(ruleset)))) return 1;
  if (work.sets === null) return 2;
  return scoreWork(work, ruleset).built.ok ? 4 : 2;
}

export function Scanner() {
  const { t } = useTranslation();
  const store = useAppStore();
  const step = useSelect((s) => s.step);
  const work = useSelect((s) => s.history.present);
  const canUndo = useSelect((s) => s.history.past.length > 0);
  const canRedo = useSelect((s) => s.history.future.length > 0);
  const announce = useSelect((s) => s.announce);
  const [notice, setNotice] = useState<Msg | null>(null);
  const ruleset = useActiveRuleset();
  const max = useMemo(() => reachable(work, ruleset), [work, ruleset]);
  const go = (s: Step) => { store.goto(s); setNotice((n) => (s === 'review' ? n : null)); };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement | null;
      if (el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA')) return;
      if (!(e.ctrlKey || e.metaKey)) return;
      const k = e.key.toLowerCase();
      if (k === 'z' && !e.shiftKey) { e.preventDefault(); store.undo(); }
      else if ((k === 'z' && e.shiftKey) || k === 'y') { e.preventDefault(); store.redo(); }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);

  useEffect(() => { document.getElementById('main')?.focus({ preventScroll: false }); }, [step]);
  // once the player starts the next hand (or undoes Start over some other way), "Started over" is stale
  useEffect(() => { setNotice((n) => (n?.at && n.at !== work ? null : n)); }, [work]);

  // Start over is a step of the history like any correction, so that a stray tap is undone
  // with Undo; the photo stays stored while undo can reach it (prunePhotos).
  const startOver = () => {
    const from = step;
    // tile ids go on counting, so that no tile of the new hand shares an id with one undo can reach
    // (a hand's link to the score sheet is found by its tiles' ids: session/sheetMark.ts, sheetMarkOf)
    store.run({ label: { key: 'cmd.startOver' }, perform: (w) => ({ ...emptyWork(), nextUid: w.nextUid }) });
    store.goto('capture');
    // the notice's Undo stands only while the empty work Start over made is on screen
    setNotice({ key: 'status.startedOver', undoTo: from, at: store.get().history.present });
    void prunePhotos(store.get().history);
  };
  const undoStartOver = (to: Step) => {
    store.undo();
    store.goto(to);
    setNotice(null);
  };

  let view;
  switch (step) {
    case 'capture':
      view = <CaptureView notify={setNotice} onDone={() => go('review')} onManual={() => { store.run({ label: { key: 'cmd.clear' }, perform: (w) => ({ ...w, source: 'manual', photo: null, tiles: w.source === 'manual' ? w.tiles : [], sets: w.source === 'manual' ? w.sets : null }) }); go('review'); }} />;
      break;
    case 'review': view = <ReviewView onNext={() => go('sets')} />; break;
    case 'sets': view = <SetsView onNext={() => go('conditions')} />; break;
    case 'conditions': view = <ConditionsView onNext={() => go('result')} />; break;
    case 'result': view = <ResultView />; break;
  }

  return (
    <div className="scanner">
      <nav className="steps" aria-label={t('step.label')}>
        <ol>
          {STEPS.map((s, i) => (
            <li key={s}>
              <button
                type="button"
                className={s === step ? 'current' : ''}
                aria-current={s === step ? 'step' : undefined}
                disabled={i > max && s !== step}
                onClick={() => go(s)}
                data-step={s}
              >
                <span className="num" aria-hidden="true">{i + 1}</span> {t(`step.${s}`)}
              </button>
            </li>
          ))}
        </ol>
      </nav>
      <div className="toolbar">
        <button type="button" className="btn ghost" onClick={() => store.undo()} disabled={!canUndo} aria-keyshortcuts="Control+Z">↶ {t('common.undo')}</button>
        <button type="button" className="btn ghost" onClick={() => store.redo()} disabled={!canRedo} aria-keyshortcuts="Control+Shift+Z">↷ {t('common.redo')}</button>
        <span className="spacer" />
        {work.source !== null && <button type="button" className="btn ghost" onClick={startOver}>{t('common.startOver')}</button>}
      </div>
      <RulesetPicker />
      <p className="visually-hidden" aria-live="polite">{announce === 'undo' ? t('common.undo') : announce === 'redo' ? t('common.redo') : ''}</p>
      {notice && (
        <div className={`notice ${notice.key.startsWith('err.') ? 'warn' : 'info'}`} role="alert" data-testid="notice">
          <div>
            {t(notice.key, notice.values)}
            {notice.values?.detail && <details><summary>{t('common.details')}</summary>{String(notice.values.detail)}</details>}
          </div>
          {notice.undoTo && <button type="button" className="btn small" onClick={() => undoStartOver(notice.undoTo!)}>{t('common.undo')}</button>}
          <button type="button" className="btn ghost small" onClick={() => setNotice(null)} aria-label={t('common.close')}>×</button>
        </div>
      )}
      <main id="main" tabIndex={-1}>{view}</main>
    </div>
  );
}
