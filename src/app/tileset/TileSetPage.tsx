/**
 * "Your tile set": what the scanner learnt of the club's own set from the hands the player
 * confirmed: examples per kind with their crops (remove one), the learning switch, reset, and
 * export/import as a file so that every phone at the club reads the same set.
 */
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { tileName } from '../i18n/index.ts';
import { TileFace } from '../tiles/TileFace.tsx';
import { countsByKind, emptyProfile, mergeProfiles, parseProfile, ProfileError, removeExample, serializeProfile, type Profile } from '../../vision/profile/format.ts';
import { learningEnabled, loadTileSet, onTileSetChange, resetTileSet, saveTileSet, setLearningEnabled } from './store.ts';
import { tilesetResources } from './i18n.ts';
import i18next from 'i18next';
import './tileset.css';

for (const [lng, bundle] of Object.entries(tilesetResources)) i18next.addResourceBundle(lng, 'translation', bundle, true, false);

type Msg = { key: string; values?: Record<string, string | number> } | null;

export function TileSetPage() {
  const { t } = useTranslation();
  const [profile, setProfile] = useState<Profile | null>(null);
  const [learning, setLearning] = useState(true);
  const [msg, setMsg] = useState<Msg>(null);
  const [confirmReset, setConfirmReset] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    let live = true;
    const load = () => { void Promise.all([loadTileSet(), learningEnabled()]).then(([p, l]) => { if (live) { setProfile(p); setLearning(l); } }); };
    load();
    const off = onTileSetChange(load);
    return () => { live = false; off(); };
  }, []);

  if (!profile) return <p>…</p>;
  const counts = countsByKind(profile);

  const exportFile = () => {
    const blob = new Blob([serializeProfile(profile)], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `tile-set-${new Date().toISOString().slice(0, 10)}.json`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };

  const importFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0];
    e.target.value = '';
    if (!f) return;
    try {
      const incoming = parseProfile(await f.text());
      const merged = mergeProfiles(profile, incoming);
      await saveTileSet(merged);
      setMsg({ key: 'tileset.imported', values: { count: incoming.examples.length } });
    } catch (err) {
      setMsg({ key: err instanceof ProfileError ? `tileset.err.${err.code}` : 'tileset.err.not-json', values: { detail: (err as Error).message } });
    }
  };

  return (
    <section className="tileset" aria-labelledby="tileset-h">
      <h2 id="tileset-h">{t('tileset.title')}</h2>
      <p className="hint">{t('tileset.intro')}</p>
      <label className="check">
        <input type="checkbox" checked={learning} onChange={(e) => { setLearning(e.target.checked); void setLearningEnabled(e.target.checked); }} data-testid="learning-toggle" />
        {' '}{t('tileset.learning')}
      </label>
      <p data-testid="tileset-summary">{profile.examples.length ? t('tileset.summary', { count: profile.examples.length, kinds: counts.length }) : t('tileset.empty')}</p>
      {msg && <p className="notice info" role="status" data-testid="tileset-msg">{t(msg.key, msg.values)}</p>}
      <div className="row">
        <button type="button" className="btn" onClick={exportFile} disabled={!profile.examples.length} data-testid="tileset-export">{t('tileset.export')}</button>
        <button type="button" className="btn" onClick={() => fileRef.current?.click()} data-testid="tileset-import">{t('tileset.import')}</button>
        <input ref={fileRef} type="file" accept="application/json,.json" hidden onChange={(e) => void importFile(e)} data-testid="tileset-import-file" />
        {!confirmReset
          ? <button type="button" className="btn ghost" onClick={() => setConfirmReset(true)} disabled={!profile.examples.length} data-testid="tileset-reset">{t('tileset.reset')}</button>
          : <button type="button" className="btn danger" onClick={() => { setConfirmReset(false); void resetTileSet().then(() => setProfile(emptyProfile())); }} data-testid="tileset-reset-confirm">{t('tileset.resetConfirm')}</button>}
      </div>
      <p className="hint">{t('tileset.private')}</p>
      <ul className="tileset-kinds">
        {counts.map(({ code, count }) => (
          <li key={code} data-kind={code}>
            <div className="kind-head">
              <TileFace code={code} height={32} decorative />
              <span>{tileName(t, code)}</span>
              <span className="count" data-testid={`count-${code}`}>{t('tileset.examples', { count })}</span>
            </div>
            <ul className="crops">
              {profile.examples.filter((x) => x.code === code).map((x) => (
                <li key={x.id}>
                  {x.crop ? <img src={x.crop} alt={tileName(t, code)} width={36} height={48} /> : <span className="no-crop" aria-hidden="true">?</span>}
                  <button type="button" className="btn ghost small" aria-label={t('tileset.remove', { tile: tileName(t, code) })} onClick={() => void saveTileSet(removeExample(profile, x.id))}>×</button>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
