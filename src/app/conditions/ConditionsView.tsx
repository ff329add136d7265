/** Conditions: each one a single tap, with defaults, and no contradictory combination possible. */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { WINDS, type Wind } from '../../engine/index.ts';
import { setConditions } from '../model/commands.ts';
import { flowerCount } from '../model/hand.ts';
import type { Conditions } from '../model/work.ts';
import { useAppStore, useSelect } from '../state/context.tsx';

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

export function ConditionsView({ onNext }: { onNext: () => void }) {
  const { t } = useTranslation();
  const store = useAppStore();
  const work = useSelect((s) => s.history.present);
  const c = work.conditions;
  const set = (patch: Partial<Conditions>) => store.run(setConditions(patch));
  const flowers = flowerCount(work);
  const others = WINDS.filter((w) => w !== c.seatWind);

  const toggle = (k: 'lastOfKind' | 'lastTileOfWall' | 'replacementTile' | 'robbingKong', note?: string) => (
    <button key={k} type="button" className="toggle" role="switch" aria-checked={c[k]} data-cond={k} onClick={() => set({ [k]: !c[k] })}>
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
          render={(w) => `${t(`wind.${w}`)} (${t(`seat.${relativeSeat(c.seatWind, w)}`)})`}
        />
      )}
      <Seg label={t('cond.seatWind')} options={WINDS} value={c.seatWind} onChange={(w) => set({ seatWind: w })} render={(w) => t(`wind.${w}`)} />
      <Seg label={t('cond.prevalentWind')} options={WINDS} value={c.prevalentWind} onChange={(w) => set({ prevalentWind: w })} render={(w) => t(`wind.${w}`)} />
      <fieldset className="field toggles">
        <legend className="field-label">{t('cond.special')}</legend>
        {toggle('lastOfKind')}
        {toggle('lastTileOfWall')}
        {toggle('replacementTile', t('cond.selfDrawnOnly'))}
        {toggle('robbingKong', t('cond.discardOnly'))}
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
      <div className="nav-actions">
        <button type="button" className="btn primary" onClick={onNext}>{t('common.next')}</button>
      </div>
    </section>
  );
}
