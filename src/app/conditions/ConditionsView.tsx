/** Conditions: each one a single tap, with defaults, and no contradictory combination possible. */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { isMahjongError, validateContext, WINDS, type Wind } from '../../engine/index.ts';
import { normalizeConditions, setConditions } from '../model/commands.ts';
import { buildHand, flowerCount, toContext } from '../model/hand.ts';
import { fanPaysConditions, type Conditions, type Work } from '../model/work.ts';
import { useActiveRuleset } from '../ruleset/active.ts';
import { useAppStore, useSelect } from '../state/context.tsx';
import { useAddToSheet } from '../session/useSession.ts';
import type { NextHandInfo } from '../session/seats.ts';

export function relativeSeat(seat: Wind, other: Wind): 'you' | 'left' | 'opposite' | 'right' {
  const d = (WINDS.indexOf(other) - WINDS.indexOf(seat) + 4) % 4;
  return (['you', 'right', 'opposite', 'left'] as const)[d];
}

function Seg<T extends string>({ label, options, value, onChange, render }: {
  label: string; options: readonly T[]; value: T | null; onChange: (v: T) => void; render: (v: T) => string;
}) {
  const id = useId();
  return (
    <div className="field">
      <span className="field-label" id={id}>{label}</span>
      <div className="seg" role="group" aria-labelledby={id}>
        {options.map((o) => (
          <button key={o} type="button" aria-pressed={value === o} onClick={() => onChange(o)}>{render(o)}</button>
        ))}
      </div>
    </div>
  );
}

/**
 * Whether the engine refuses this hand with condition `k` switched on (as the toggle would set it,
 * normalizeConditions) while it accepts it as it is: the last tile of its kind with another one
 * among the concealed tiles, robbing the kong of a tile the winner holds (validateContext). False
 * while the hand cannot be built yet.
 */
export function refusedWith(work: Work, k: keyof Conditions): boolean {
  const built = buildHand(work);
  if (!built.ok) return false;
  const valid = (c: Conditions) => {
    try {
      validateContext(toContext(c, flowerCount(work)), built.hand);
      return true;
    } catch (e) {
      if (isMahjongError(e)) return false;
      throw e;
    }
  };
  return valid(work.conditions) && !valid(normalizeConditions(work.conditions, { [k]: true }));
}

export function ConditionsView({ onNext }: { onNext: () => void }) {
  const { t } = useTranslation();
  const store = useAppStore();
  const work = useSelect((s) => s.history.present);
  const c = work.conditions;
  const set = (patch: Partial<Conditions>) => store.run(setConditions(patch));
  const flowers = flowerCount(work);
  const others = WINDS.filter((w) => w !== c.seatWind);
  const fanPays = useActiveRuleset() === 'fan-pays';
  // With a table open, the sheet knows who sits where and the round of the next hand.
  const { next } = useAddToSheet();
  const seatName = (w: Wind) => (next ? ` · ${next.playerBySeat[w]}` : '');

  // conditions the hand rules out: the last tile of its kind (the other three in sight) with
  // another one concealed; robbing the kong (the robbed player held three) of a tile the winner holds
  const noLastOfKind = refusedWith(work, 'lastOfKind');
  const noRobbing = refusedWith(work, 'robbingKong');

  type ToggleKey = 'lastOfKind' | 'lastTileOfWall' | 'replacementTile' | 'robbingKong' | 'flowerWallWin' | 'firstDiscardWin' | 'firstDrawWin';
  const toggle = (k: ToggleKey, note?: string, disabled = false) => (
    <button key={k} type="button" className="toggle" role="switch" aria-checked={!!c[k]} data-cond={k} disabled={disabled && !c[k]} onClick={() => set({ [k]: !c[k] })}>
      <span className="knob" aria-hidden="true" />
      <span>{t(`cond.${k}`)}{note && <small> ({note})</small>}</span>
    </button>
  );

  return (
    <section className="view conditions" aria-labelledby="cond-h">
      <h2 id="cond-h">{t('cond.heading')}</h2>
      <Seg
        label={t('cond.howWon')}
        options={['self', 'discard'] as const}
        value={c.selfDrawn ? 'self' : 'discard'}
        onChange={(v) => set({ selfDrawn: v === 'self' })}
        render={(v) => (v === 'self' ? t('cond.selfDrawn') : t('cond.discard'))}
      />
      {!c.selfDrawn && (
        <Seg
          label={t('cond.discarder')}
          options={others}
          value={c.discarder}
          onChange={(w) => set({ discarder: w })}
          render={(w) => `${t(`wind.${w}`)} (${t(`seat.${relativeSeat(c.seatWind, w)}`)})${seatName(w)}`}
        />
      )}
      <Seg label={t('cond.seatWind')} options={WINDS} value={c.seatWind} onChange={(w) => set({ seatWind: w })} render={(w) => `${t(`wind.${w}`)}${seatName(w)}`} />
      <Seg label={t('cond.prevalentWind')} options={WINDS} value={c.prevalentWind} onChange={(w) => set({ prevalentWind: w })} render={(w) => t(`wind.${w}`)} />
      {next && next.prevalentWind !== c.prevalentWind && (
        <p className="hint" data-testid="table-wind-hint">
          {t('cond.tableWind', { hand: next.handNumber, wind: t(`wind.${next.prevalentWind}`) })}{' '}
          <button type="button" className="btn" onClick={() => set({ prevalentWind: next.prevalentWind })}>{t('cond.useTableWind')}</button>
        </p>
      )}
      <fieldset className="field toggles">
        <legend className="field-label">{t('cond.special')}</legend>
        {/* Card 002 has no "last tile of its kind" entry; only MCR asks. */}
        {!fanPays && toggle('lastOfKind', noLastOfKind ? t('cond.notLastOfKind') : undefined, noLastOfKind)}
        {toggle('lastTileOfWall')}
        {toggle('replacementTile', t('cond.selfDrawnOnly'))}
        {toggle('robbingKong', noRobbing ? t('cond.notRobbing') : t('cond.discardOnly'), noRobbing)}
      </fieldset>
      <div className="field">
        <span className="field-label" id="flowers-lbl">{t('cond.flowers')}</span>
        <div className="stepper" role="group" aria-labelledby="flowers-lbl">
          <button type="button" aria-label={t('cond.fewer')} disabled={flowers <= 0} onClick={() => set({ flowers: flowers - 1 })}>−</button>
          <output aria-live="polite" aria-labelledby="flowers-lbl">{flowers}</output>
          <button type="button" aria-label={t('cond.more')} disabled={flowers >= 8} onClick={() => set({ flowers: flowers + 1 })}>+</button>
          {c.flowers === null && <small>{t('cond.fromTiles')}</small>}
        </div>
      </div>
      {fanPays && <FanPaysFields c={c} set={set} table={next} />}
      <div className="nav-actions">
        <button type="button" className="btn primary" onClick={onNext}>{t('common.next')}</button>
      </div>
    </section>
  );
}

/** Stepper for a small whole number, with a text label and accessible buttons. */
function Stepper({ id, label, value, min, max, onChange, testId }: {
  id: string; label: string; value: number; min: number; max: number; onChange: (n: number) => void; testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <span className="field-label" id={id}>{label}</span>
      <div className="stepper" role="group" aria-labelledby={id} data-testid={testId}>
        <button type="button" aria-label={t('fp.less', { what: label })} disabled={value <= min} onClick={() => onChange(value - 1)}>−</button>
        <output aria-live="polite" aria-labelledby={id}>{value}</output>
        <button type="button" aria-label={t('fp.more', { what: label })} disabled={value >= max} onClick={() => onChange(value + 1)}>+</button>
      </div>
    </div>
  );
}

/**
 * The conditions card 002 asks about beyond MCR's: the dealer and their run of
 * wins, the flower wall, the two blessings, other players' secret kongs and the
 * value of one fan. Each has a default and takes one tap.
 */
function FanPaysFields({ c, set, table }: { c: Conditions; set: (patch: Partial<Conditions>) => void; table: NextHandInfo | null }) {
  const { t } = useTranslation();
  const uid = useId();
  const f = fanPaysConditions(c);
  const winnerIsDealer = f.dealer === c.seatWind;
  const kongs = (w: (typeof WINDS)[number]) => f.secretKongs.filter((x) => x === w).length;
  const setKongs = (w: (typeof WINDS)[number], n: number) =>
    set({ secretKongs: [...f.secretKongs.filter((x) => x !== w), ...Array.from({ length: n }, () => w)].sort((a, b) => WINDS.indexOf(a) - WINDS.indexOf(b)) });
  const blessing = (k: 'flowerWallWin' | 'firstDiscardWin' | 'firstDrawWin', disabled: boolean, note: string) => (
    <button type="button" className="toggle" role="switch" aria-checked={f[k]} data-cond={k} disabled={disabled} onClick={() => set({ [k]: !f[k] })}>
      <span className="knob" aria-hidden="true" />
      <span>{t(`fp.${k}`)} <small>({note})</small></span>
    </button>
  );
  return (
    <fieldset className="field fan-pays-fields" data-testid="fan-pays-conditions">
      <legend className="field-label fp-legend">{t('fp.conditions')}</legend>
      <Seg
        label={t('fp.dealer')}
        options={WINDS}
        value={f.dealer}
        onChange={(w) => set({ dealer: w })}
        render={(w) => `${t(`wind.${w}`)}${w === c.seatWind ? ` (${t('seat.you')})` : ''}`}
      />
      <Stepper id={`${uid}-streak`} label={t('fp.dealerStreak')} value={f.dealerStreak} min={0} max={99} onChange={(n) => set({ dealerStreak: n })} testId="dealer-streak" />
      {/* with a table open: the dealer is East, and the sheet knows their run of wins */}
      {table && table.rules === 'fan-pays' && (f.dealer !== 'E' || f.dealerStreak !== table.dealerRun) && (
        <p className="hint" data-testid="table-dealer-hint">
          {t('fp.tableDealer', { hand: table.handNumber, dealer: table.dealer, n: table.dealerRun, count: table.dealerRun })}{' '}
          <button type="button" className="btn" onClick={() => set({ dealer: 'E', dealerStreak: table.dealerRun })}>{t('cond.useTableWind')}</button>
        </p>
      )}
      <div className="toggles">
        {blessing('flowerWallWin', false, t('cond.selfDrawnOnly'))}
        {blessing('firstDiscardWin', winnerIsDealer, winnerIsDealer ? t('fp.notDealer') : t('fp.onDealerDiscard'))}
        {blessing('firstDrawWin', winnerIsDealer, winnerIsDealer ? t('fp.notDealer') : t('cond.selfDrawnOnly'))}
      </div>
      <div className="field">
        <span className="field-label" id={`${uid}-kongs`}>{t('fp.secretKongs')}</span>
        <span className="small">{t('fp.secretKongsHint')}</span>
        <div className="kong-seats" role="group" aria-labelledby={`${uid}-kongs`}>
          {WINDS.filter((w) => w !== c.seatWind).map((w) => (
            <div key={w} className="kong-seat" data-seat={w}>
              <span>{t(`wind.${w}`)}</span>
              <div className="stepper small">
                <button type="button" aria-label={t('fp.kongLess', { seat: t(`wind.${w}`) })} disabled={kongs(w) <= 0} onClick={() => setKongs(w, kongs(w) - 1)}>−</button>
                <output aria-label={t('fp.kongCount', { seat: t(`wind.${w}`) })}>{kongs(w)}</output>
                <button type="button" aria-label={t('fp.kongMore', { seat: t(`wind.${w}`) })} disabled={kongs(w) >= 4} onClick={() => setKongs(w, kongs(w) + 1)}>+</button>
              </div>
            </div>
          ))}
        </div>
      </div>
      <label className="field fan-value">
        <span className="field-label">{t('fp.fanValue')}</span>
        <input
          type="number" inputMode="decimal" min={0.01} step="any" defaultValue={f.fanValue} key={f.fanValue}
          onBlur={(e) => { const v = Number(e.target.value); if (Number.isFinite(v) && v > 0) set({ fanValue: v }); else e.target.value = String(f.fanValue); }}
        />
      </label>
    </fieldset>
  );
}
