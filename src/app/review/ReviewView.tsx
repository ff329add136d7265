/**
 * Review: the photo with a box over each tile, labelled with the tile picture.
 * Tap to correct from the picker, remove false boxes, add missed tiles. Without
 * a photo the same view is the manual tile keyboard.
 */
import { useMemo, useState, type FormEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isMahjongError, parseHand, meldTiles, tileCode, type Hand, type Meld } from '../../engine/index.ts';
import { addTile, clearTiles, loadTiles, removeTile, restoreLeftOut, setCode } from '../model/commands.ts';
import type { Box, PlannedSet, SetClaim, TileItem, Work } from '../model/work.ts';
import { checkScore, checkTiles, hasErrors } from '../model/checks.ts';
import { kindOf, proposeSets, setsFor } from '../model/hand.ts';
import { useActiveRuleset } from '../ruleset/active.ts';
import { useAppStore, useSelect } from '../state/context.tsx';
import { TileFace } from '../tiles/TileFace.tsx';
import { tileName } from '../i18n/index.ts';
import { Sheet, TileGrid } from './TilePicker.tsx';
import { usePhotoUrl } from './usePhotoUrl.ts';
import { frameStyle, framePoint, inFrame, labelPlaces, photoStyle, tileFrame, wholeFrame } from './frame.ts';
import { needsCheck } from '../../vision/types.ts';
import { retakeAdvice } from '../../vision/postprocess.ts';

type Picking = { mode: 'change'; uid: string } | { mode: 'add'; box?: Box } | null;

function medianSize(tiles: TileItem[]): [number, number] {
  const boxes = tiles.filter((t) => t.box).map((t) => t.box!);
  if (!boxes.length) return [60, 80];
  const w = boxes.map((b) => Math.min(b[2], b[3])).sort((a, b) => a - b);
  const h = boxes.map((b) => Math.max(b[2], b[3])).sort((a, b) => a - b);
  return [w[w.length >> 1], h[h.length >> 1]];
}

/** How a typed meld was claimed (the claim digit of `[123p1]`), or nothing for a concealed kong. */
function claimOf(m: Meld): SetClaim | undefined {
  if (m.kind === 'kong' && m.concealed) return undefined;
  const claim: SetClaim = {};
  if (m.claimedFrom) claim.from = m.claimedFrom;
  if (m.kind === 'chow' && m.claimedIndex !== undefined) claim.index = m.claimedIndex;
  if (m.kind === 'kong' && m.promoted) claim.promoted = true;
  return Object.keys(claim).length ? claim : undefined;
}

/** Tiles, declared sets (the typed melds) and winning tile of a parsed notation, as manual-entry tiles. */
export function tilesFromHand(hand: Hand): { tiles: Omit<TileItem, 'uid'>[]; declared: (items: TileItem[]) => PlannedSet[]; winningIndex: number } {
  const tiles: Omit<TileItem, 'uid'>[] = [];
  const meldRanges: { start: number; len: number; concealedKong: boolean; claim?: SetClaim }[] = [];
  for (const m of hand.melds) {
    const ids = meldTiles(m);
    const claim = claimOf(m);
    meldRanges.push({ start: tiles.length, len: ids.length, concealedKong: m.kind === 'kong' && m.concealed, ...(claim ? { claim } : {}) });
    ids.forEach((id) => tiles.push({ code: tileCode(id) }));
  }
  hand.concealed.forEach((id) => tiles.push({ code: tileCode(id) }));
  const winningIndex = tiles.length;
  tiles.push({ code: tileCode(hand.winningTile) });
  (hand.flowers ?? []).forEach((id) => tiles.push({ code: tileCode(id) }));
  const declared = (items: TileItem[]): PlannedSet[] => meldRanges.map((r) => {
    const its = items.slice(r.start, r.start + r.len);
    return { uids: its.map((t) => t.uid), kind: kindOf(its), declared: true, concealedKong: r.concealedKong, ...(r.claim ? { claim: r.claim } : {}) };
  });
  return { tiles, declared, winningIndex };
}

export function ReviewView({ onNext }: { onNext: () => void }) {
  const { t } = useTranslation();
  const store = useAppStore();
  const work = useSelect((s) => s.history.present);
  const photoUrl = usePhotoUrl(work.photo?.key);
  const [picking, setPicking] = useState<Picking>(null);
  const [addMode, setAddMode] = useState(false);
  // the photo zoomed to the tiles (tileFrame), or the whole photo when the player asks
  const [whole, setWhole] = useState(false);
  const ruleset = useActiveRuleset();
  const issues = useMemo(() => checkTiles(work.tiles, setsFor(ruleset)), [work.tiles, ruleset]);
  const manual = !work.photo;
  const flowers = work.tiles.filter((x) => /^f/.test(x.code)).length;
  // how sure recognition is, as far as the ruleset's score can tell (checkScore: under MCR any flower will do)
  const sureOf = (tile: TileItem) => checkScore(tile, ruleset);
  const unsure = (tile: TileItem) => needsCheck(sureOf(tile));
  const retake = work.photo ? retakeAdvice(work.tiles.map(sureOf)) : null;
  // flowers read doubtfully as to which one, not marked because MCR scores them all alike
  const flowersAlike = ruleset === 'mcr' && work.tiles.some((x) => needsCheck(x.score) && !unsure(x));

  const indexOf = (uid: string) => work.tiles.findIndex((x) => x.uid === uid);
  const describe = (tile: TileItem, i: number) => {
    const base = t('review.tile', { n: i + 1, name: tileName(t, tile.code) });
    return unsure(tile) ? `${base}, ${t('review.unsure', { pct: Math.round(sureOf(tile)! * 100) })}` : base;
  };

  // the tiles decide the zoom; detections left out as no tile only when they lie near them
  const boxes = useMemo(() => work.tiles.flatMap((x) => (x.box ? [x.box] : [])), [work.tiles]);
  const leftOutBoxes = useMemo(() => (work.leftOut ?? []).map((d) => d.box), [work.leftOut]);
  const zoomed = useMemo(() => (work.photo ? tileFrame(work.photo, boxes, leftOutBoxes) : null), [work.photo, boxes, leftOutBoxes]);
  const canZoom = !!work.photo && !!zoomed && (zoomed.width < work.photo.width || zoomed.height < work.photo.height);
  const frame = work.photo ? (whole || !zoomed ? wholeFrame(work.photo) : zoomed) : null;
  // detections left out that the view does not show (the hint points to the whole photo)
  const outside = frame ? leftOutBoxes.filter((b) => !inFrame(b, frame)).length : 0;
  const places = useMemo(() => {
    const withBox = work.tiles.filter((x) => x.box);
    const p = labelPlaces(withBox.map((x) => x.box!));
    return new Map(withBox.map((x, i) => [x.uid, p[i]!]));
  }, [work.tiles]);

  const onPhotoClick = (e: MouseEvent<HTMLDivElement>) => {
    if (!addMode || !work.photo || !frame) return;
    const rect = e.currentTarget.getBoundingClientRect();
    const [x, y] = framePoint(frame, (e.clientX - rect.left) / rect.width, (e.clientY - rect.top) / rect.height);
    const [w, h] = medianSize(work.tiles);
    setAddMode(false);
    setPicking({ mode: 'add', box: [Math.max(0, x - w / 2), Math.max(0, y - h / 2), w, h] });
  };

  const pick = (code: string) => {
    if (!picking) return;
    if (picking.mode === 'change') store.run(setCode(picking.uid, code));
    else store.run(addTile(code, picking.box));
    setPicking(null);
  };

  const current = picking?.mode === 'change' ? work.tiles.find((x) => x.uid === picking.uid) : undefined;

  return (
    <section className="view review" aria-labelledby="review-h">
      <h2 id="review-h">{t('review.heading')}</h2>
      <p className="hint">{manual ? t('review.hintManual') : t('review.hintPhoto')}</p>

      {work.photo && frame && (
        <div
          className={`photo-wrap${addMode ? ' adding' : ''}`}
          style={{ aspectRatio: `${frame.width} / ${frame.height}` }}
          data-frame={[frame.x, frame.y, frame.width, frame.height].map((v) => Math.round(v)).join(',')}
          onClick={onPhotoClick}
          role="group"
          aria-label={t('review.photo')}
        >
          {photoUrl && <img src={photoUrl} alt="" className="photo" draggable={false} style={photoStyle(work.photo, frame)} />}
          {work.tiles.map((tile, i) => tile.box && (
            <button
              key={tile.uid}
              type="button"
              className={`tile-box${unsure(tile) ? ' unsure' : ''}`}
              data-uid={tile.uid}
              data-code={tile.code}
              style={frameStyle(tile.box, frame)}
              aria-label={describe(tile, i)}
              onClick={(e) => { e.stopPropagation(); if (!addMode) setPicking({ mode: 'change', uid: tile.uid }); }}
            >
              <span className={`tile-box-label ${places.get(tile.uid) ?? 'above'}`}><TileFace code={tile.code} height={26} decorative /></span>
            </button>
          ))}
          {(work.leftOut ?? []).map((d, i) => (
            <button
              key={`left-out-${i}`}
              type="button"
              className="left-out-box"
              data-code={d.code}
              style={frameStyle(d.box, frame)}
              aria-label={t('review.leftOutTile', { name: tileName(t, d.code) })}
              onClick={(e) => { e.stopPropagation(); if (!addMode) store.run(restoreLeftOut(i)); }}
            />
          ))}
        </div>
      )}
      {canZoom && (
        <button type="button" className="btn ghost small photo-zoom" onClick={() => setWhole((v) => !v)}>
          {whole ? t('review.zoomTiles') : t('review.showWhole')}
        </button>
      )}
      {retake && <p className="hint retake-hint" role="status">{t('review.retake', { unsure: retake.unsure, of: retake.of })}</p>}
      {work.photo && !!work.leftOut?.length && (
        <p className="hint left-out-hint">
          {t('review.leftOut', { count: work.leftOut.length })}
          {outside > 0 && ` ${t('review.leftOutOutside', { count: outside })}`}
        </p>
      )}
      {flowersAlike && <p className="hint flowers-alike-hint">{t('review.flowersAlike')}</p>}

      <div className="hand-strip-head">
        <h3>{t('review.hand')}</h3>
        <span className="count">{t('review.count', { n: work.tiles.length - flowers, f: flowers })}</span>
      </div>
      <ol className="hand-strip" aria-label={t('review.hand')}>
        {work.tiles.map((tile, i) => (
          <li key={tile.uid}>
            <button
              type="button"
              className={`strip-tile${unsure(tile) ? ' unsure' : ''}`}
              data-uid={tile.uid}
              data-code={tile.code}
              aria-label={describe(tile, i)}
              onClick={() => setPicking({ mode: 'change', uid: tile.uid })}
            >
              <TileFace code={tile.code} height={44} decorative />
            </button>
          </li>
        ))}
      </ol>

      <div className="row-actions">
        {work.photo && (
          <button type="button" className={`btn${addMode ? ' active' : ''}`} aria-pressed={addMode} onClick={() => setAddMode(!addMode)}>
            {t('review.add')}
          </button>
        )}
        {addMode && (
          <button type="button" className="btn" onClick={() => { setAddMode(false); setPicking({ mode: 'add' }); }}>{t('review.addAtEnd')}</button>
        )}
        {manual && work.tiles.length > 0 && (
          <button type="button" className="btn ghost" onClick={() => store.run(clearTiles())}>{t('review.clear')}</button>
        )}
      </div>
      {addMode && <p className="hint" role="status">{t('review.addHere')}</p>}

      {manual && (
        <>
          <h3>{t('review.keyboard')}</h3>
          <TileGrid label={t('review.keyboard')} onPick={(code) => store.run(addTile(code))} tileHeight={46} />
          <NotationForm />
        </>
      )}

      <ul className="issues" aria-live="polite">
        {issues.length === 0 ? (
          <li className="ok">{t('review.ok')}</li>
        ) : issues.map((iss) => (
          <li key={iss.key + JSON.stringify(iss.values)} className={iss.severity}>
            {t(iss.key, { ...iss.values, tile: iss.values?.tile ? tileName(t, String(iss.values.tile)) : undefined })}
          </li>
        ))}
      </ul>

      <div className="nav-actions">
        <button type="button" className="btn primary" disabled={hasErrors(issues)} onClick={onNext}>{t('common.next')}</button>
      </div>

      {picking && (
        <Sheet
          title={picking.mode === 'change' && current ? t('review.change', { n: indexOf(current.uid) + 1, name: tileName(t, current.code) }) : t('review.pickerTitle')}
          onClose={() => setPicking(null)}
        >
          {picking.mode === 'change' && current && (
            <button type="button" className="btn danger wide" onClick={() => { store.run(removeTile(current.uid)); setPicking(null); }}>
              {t('review.remove')}
            </button>
          )}
          {picking.mode === 'change' && current?.alternatives?.length ? (
            <div className="tile-likely" role="group" aria-label={t('review.likely')}>
              <span className="tile-likely-label" aria-hidden="true">{t('review.likely')}</span>
              {current.alternatives.filter((code) => code !== current.code).map((code) => (
                <button key={code} type="button" className="tile-key" data-code={code} aria-label={tileName(t, code)} onClick={() => pick(code)}>
                  <TileFace code={code} height={54} decorative />
                </button>
              ))}
            </div>
          ) : null}
          <TileGrid label={t('review.pickerTitle')} current={current?.code} onPick={pick} tileHeight={42} />
        </Sheet>
      )}
    </section>
  );
}

/** Paste or type a hand in MCR notation or MPSZ. */
export function NotationForm({ onLoaded }: { onLoaded?: () => void }) {
  const { t, i18n } = useTranslation();
  const store = useAppStore();
  const ruleset = useActiveRuleset();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    try {
      const hand = parseHand(text.trim());
      const { tiles, declared, winningIndex } = tilesFromHand(hand);
      // The whole grouping, as for a scanned or keyboard hand: the typed melds stay melded
      // and the concealed tiles are grouped as the engine reads them.
      const sets = (items: TileItem[], loaded: Work) => proposeSets({ ...loaded, sets: declared(items) }, ruleset).sets;
      store.run(loadTiles(tiles, 'manual', null, { sets, winningIndex }));
      setError(null);
      onLoaded?.();
    } catch (err) {
      if (isMahjongError(err)) {
        // the problem in the player's language; the parser's own detail (English) only in English,
        // without its position, which the message gives once
        const general = t(`engine.${err.code}`, { defaultValue: err.message });
        const detail = err.message.replace(/\s*\(at position \d+\)$/, '');
        const message = i18n.language.startsWith('en') && detail ? `${general} ${detail[0]!.toUpperCase()}${detail.slice(1)}` : general;
        setError(err.position !== undefined ? t('err.notation', { message, pos: err.position + 1 }) : message);
      } else setError(t('engine.MALFORMED_NOTATION'));
    }
  };
  return (
    <form className="notation" onSubmit={submit}>
      <label htmlFor="notation-input">{t('manual.paste')}</label>
      <div className="notation-row">
        <input
          id="notation-input"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="[123p1][345s2][999s3]78mEE6m"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          aria-describedby="notation-hint notation-error"
          aria-invalid={!!error}
        />
        <button type="submit" className="btn">{t('manual.apply')}</button>
      </div>
      <p id="notation-hint" className="hint small">{t('manual.pasteHint')}</p>
      <p id="notation-error" className="error" role="alert">{error}</p>
    </form>
  );
}

export type { Work };
