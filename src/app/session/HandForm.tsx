import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MIN_WIN_POINTS, isSheetError, minWinPoints, type Penalty, type SheetHand, type SheetRules } from '../../engine/sheet.ts';
import { sheetErrorMessage } from './i18n.ts';

export interface HandFormProps {
  players: string[];
  /** The hand to edit; a new typed hand when omitted. */
  initial?: SheetHand;
  /** 1-based hand number, for the heading. */
  handNumber: number;
  /** Called with the new hand; throws SheetError when the sheet refuses it. */
  onSubmit: (hand: SheetHand) => void;
  onCancel?: () => void;
  /** The table's ruleset: Fan Pays wins are typed in fans, with no 8-point minimum. */
  rules?: SheetRules;
}

interface PenaltyDraft { player: number; points: string; split: boolean }

/** Enter or edit one hand: a win (winner, self-drawn or discarder, points) or a draw, with penalties. */
export function HandForm({ players, initial, handNumber, onSubmit, onCancel, rules = 'mcr' }: HandFormProps) {
  const min = minWinPoints(rules);
  const { t } = useTranslation();
  const id = useId();
  const win = initial?.kind === 'win' ? initial : null;
  const [kind, setKind] = useState<'win' | 'draw'>(initial?.kind ?? 'win');
  const [winner, setWinner] = useState(win?.winner ?? 0);
  const [selfDrawn, setSelfDrawn] = useState(win?.selfDrawn ?? false);
  const [discarder, setDiscarder] = useState(win?.discarder ?? (win ? (win.winner + 1) % 4 : 1));
  const [points, setPoints] = useState(win ? String(win.points) : String(rules === 'fan-pays' ? min : MIN_WIN_POINTS));
  const [penalties, setPenalties] = useState<PenaltyDraft[]>(
    (initial?.penalties ?? []).map((p) => ({ player: p.player, points: String(p.points), split: p.split })));
  const [error, setError] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const pens: Penalty[] = penalties.map((p) => ({ player: p.player, points: Number(p.points), split: p.split }));
    let hand: SheetHand;
    if (kind === 'draw') {
      hand = { kind: 'draw', penalties: pens };
    } else {
      const pts = Number(points);
      // Changing a scored hand's points breaks its link to the scored hand.
      const keepsScore = win?.source === 'scored' && win.points === pts;
      // A Fan Pays hand's own amounts hold only while who won and who paid stay the same.
      const keepsAmounts = keepsScore && win?.amounts && win.winner === winner && win.selfDrawn === selfDrawn
        && (selfDrawn || win.discarder === discarder);
      hand = {
        kind: 'win',
        winner,
        selfDrawn,
        discarder: selfDrawn ? null : discarder,
        points: pts,
        source: keepsScore ? 'scored' : 'typed',
        ...(keepsScore && win?.link ? { link: win.link } : {}),
        ...(keepsAmounts && win?.amounts ? { amounts: [...win.amounts] } : {}),
        penalties: pens,
      };
    }
    try {
      onSubmit(hand);
      setError(null);
    } catch (err) {
      if (isSheetError(err)) setError(sheetErrorMessage(t, err, { rules }));
      else throw err;
    }
  };

  const playerOptions = players.map((name, p) => <option key={name} value={p}>{name}</option>);
  return (
    <form className="session-hand-form" onSubmit={submit} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`}>{initial ? t('session.editHand', { n: handNumber }) : t('session.addHand', { n: handNumber })}</h3>
      <fieldset>
        <legend>{t('session.result')}</legend>
        <label><input type="radio" name={`${id}-kind`} checked={kind === 'win'} onChange={() => setKind('win')} /> {t('session.win')}</label>
        <label><input type="radio" name={`${id}-kind`} checked={kind === 'draw'} onChange={() => setKind('draw')} /> {t('session.draw')}</label>
      </fieldset>
      {kind === 'win' && (
        <>
          <label>
            {t('session.winner')}
            <select value={winner} onChange={(e) => setWinner(Number(e.target.value))}>{playerOptions}</select>
          </label>
          <label>
            <input type="checkbox" checked={selfDrawn} onChange={(e) => setSelfDrawn(e.target.checked)} /> {t('session.selfDrawn')}
          </label>
          {!selfDrawn && (
            <label>
              {t('session.discarder')}
              <select value={discarder} onChange={(e) => setDiscarder(Number(e.target.value))}>{playerOptions}</select>
            </label>
          )}
          <label>
            {rules === 'fan-pays' ? t('session.fans') : t('session.points')}
            <input type="number" inputMode="numeric" min={min} step={1} value={points} onChange={(e) => setPoints(e.target.value)} />
          </label>
        </>
      )}
      <fieldset>
        <legend>{t('session.penalties')}</legend>
        {penalties.map((p, i) => (
          <div key={i} className="session-penalty">
            <label>
              {t('session.penaltyPlayer')}
              <select value={p.player} onChange={(e) => setPenalties(penalties.map((q, j) => (j === i ? { ...q, player: Number(e.target.value) } : q)))}>
                {playerOptions}
              </select>
            </label>
            <label>
              {t('session.penaltyPoints')}
              <input type="number" inputMode="numeric" min={1} step={1} value={p.points} onChange={(e) => setPenalties(penalties.map((q, j) => (j === i ? { ...q, points: e.target.value } : q)))} />
            </label>
            <label>
              <input type="checkbox" checked={p.split} onChange={(e) => setPenalties(penalties.map((q, j) => (j === i ? { ...q, split: e.target.checked } : q)))} />
              {t('session.penaltySplit')}
            </label>
            <button type="button" onClick={() => setPenalties(penalties.filter((_, j) => j !== i))}>{t('session.removePenalty')}</button>
          </div>
        ))}
        <button type="button" onClick={() => setPenalties([...penalties, { player: 0, points: '30', split: true }])}>{t('session.addPenalty')}</button>
      </fieldset>
      {error && <p role="alert" className="session-error">{error}</p>}
      <button type="submit">{initial ? t('session.save') : t('session.add')}</button>
      {onCancel && <button type="button" onClick={onCancel}>{t('session.cancel')}</button>}
    </form>
  );
}
