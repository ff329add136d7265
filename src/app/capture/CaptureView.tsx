/**
 * Capture: the rear camera with a frame guide, or a photo from the device, or
 * the manual path. Recognition runs in the worker; this view only shows progress.
 */
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { loadTiles } from '../model/commands.ts';
import { isFlowerCode, type LeftOutItem, type TileItem } from '../model/work.ts';
import { useAppStore, useSelect } from '../state/context.tsx';
import { prunePhotos, savePhoto } from '../state/store.ts';
import { checkPhoto, displaySize } from './photo.ts';
import { recognizer, RecognitionError, type RecognizerStatus, type ScanProgress } from './recognizer.ts';
import { tileSetForScan } from '../tileset/teach.ts';
import type { ScanResult } from '../../vision/types.ts';

type Msg = { key: string; values?: Record<string, string | number> };

/** Recognition output as review tiles: groups are kept only where they mean a declared set. */
export function tilesFromScan(r: ScanResult): Omit<TileItem, 'uid'>[] {
  const groupOf = new Map<number, number>();
  (r.groups ?? []).forEach((g, gi) => {
    if (g.kind === 'meld' || g.kind === 'concealed-kong') g.tiles.forEach((i) => groupOf.set(i, gi));
  });
  return r.tiles.map((t, i) => {
    const item: Omit<TileItem, 'uid'> = { code: t.code, box: t.box, score: t.score };
    if (t.sideways) item.sideways = true;
    if (t.alternatives?.length) item.alternatives = t.alternatives.map((a) => a.code);
    if (isFlowerCode(t.code)) {
      // some flower or season: its own score and its next guesses' among the eight (at least this sure)
      item.flowerScore = Math.min(1, t.score + (t.alternatives ?? []).filter((a) => isFlowerCode(a.code)).reduce((sum, a) => sum + a.score, 0));
    }
    const g = groupOf.get(i);
    if (g !== undefined) item.group = g;
    return item;
  });
}

/** The detections recognition left out, kept with the work so that the player can add one back. */
export function leftOutFromScan(r: ScanResult): LeftOutItem[] {
  return (r.leftOut ?? []).map((d) => ({ code: d.code, box: [...d.box], score: d.score }));
}

/** What the player is told after a scan: how many tiles were found, and whether the photo was read
 * turned (taken from the side of the table or from across it), which explains a reading order that
 * does not follow the photo as it is shown. */
export function foundMessage(r: ScanResult, n: number): Msg {
  if (!n) return { key: 'err.noTiles' };
  return { key: r.turned === 2 ? 'status.foundAcross' : r.turned ? 'status.foundSide' : 'status.found', values: { n } };
}

export function useRecognizerStatus(): RecognizerStatus {
  const [s, setS] = useState<RecognizerStatus>(() => recognizer().current);
  useEffect(() => recognizer().subscribe(setS), []);
  return s;
}

export function CaptureView({ onDone, onManual, notify }: { onDone: () => void; onManual: () => void; notify: (m: Msg | null) => void }) {
  const { t } = useTranslation();
  const store = useAppStore();
  const work = useSelect((s) => s.history.present);
  const status = useRecognizerStatus();
  const [error, setError] = useState<Msg | null>(null);
  const [busy, setBusy] = useState<ScanProgress | null>(null);
  const [camera, setCamera] = useState<MediaStream | null>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  useEffect(() => { recognizer().start(); }, []);
  useEffect(() => {
    if (videoRef.current && camera) {
      videoRef.current.srcObject = camera;
      void videoRef.current.play().catch(() => undefined);
    }
    return () => camera?.getTracks().forEach((tr) => tr.stop());
  }, [camera]);

  const startCamera = async () => {
    setError(null);
    if (!navigator.mediaDevices?.getUserMedia) { setError({ key: 'err.noCamera' }); return; }
    try {
      const s = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: { ideal: 'environment' }, width: { ideal: 3840 }, height: { ideal: 2160 } },
        audio: false,
      });
      setCamera(s);
    } catch (e) {
      const name = (e as DOMException).name;
      if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') setError({ key: 'err.cameraDenied' });
      else if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError') setError({ key: 'err.noCamera' });
      else setError({ key: 'err.cameraFailed', values: { detail: name || String(e) } });
    }
  };

  const stopCamera = () => setCamera(null);

  const shoot = async () => {
    const v = videoRef.current;
    if (!v || !v.videoWidth) return;
    const c = document.createElement('canvas');
    c.width = v.videoWidth;
    c.height = v.videoHeight;
    c.getContext('2d')!.drawImage(v, 0, 0);
    const blob = await new Promise<Blob | null>((res) => c.toBlob(res, 'image/jpeg', 0.92));
    setCamera(null);
    if (blob) await handlePhoto(blob, 'camera.jpg');
  };

  const handlePhoto = async (blob: Blob, name: string) => {
    setError(null);
    notify(null);
    setBusy({ stage: 'decode', fraction: 0 });
    const check = await checkPhoto(blob, name);
    if (!check.ok) { setBusy(null); setError({ key: check.key, values: check.values }); return; }
    const url = URL.createObjectURL(blob);
    let size: { width: number; height: number };
    try {
      size = await displaySize(url);
    } catch {
      URL.revokeObjectURL(url);
      setBusy(null);
      setError({ key: 'err.unreadable' });
      return;
    }
    URL.revokeObjectURL(url);
    const key = `p${Date.now().toString(36)}`;
    try { await savePhoto(key, blob); } catch { notify({ key: 'err.storage' }); }
    const photo = { key, width: size.width, height: size.height, name };
    try {
      const result = await recognizer().scan(blob, (p) => setBusy(p), await tileSetForScan());
      const tiles = tilesFromScan(result);
      const w = result.width || size.width, h = result.height || size.height;
      store.run(loadTiles(tiles, 'photo', { ...photo, width: w, height: h }, { leftOut: leftOutFromScan(result) }));
      notify(foundMessage(result, tiles.length));
    } catch (e) {
      const err = e instanceof RecognitionError ? e : new RecognitionError('inference-failed', String((e as Error)?.message ?? e));
      store.run(loadTiles([], 'photo', photo));
      if (err.code === 'not-an-image' || err.code === 'unsupported-format') notify({ key: 'err.notImage', values: { name } });
      else if (err.code === 'too-large') notify({ key: 'err.tooLarge', values: { mp: '?', max: 50 } });
      else if (err.code === 'truncated' || err.code === 'decode-failed' || err.code === 'empty-file') notify({ key: 'err.unreadable' });
      else if (err.code === 'model-load-failed') notify({ key: 'err.modelFailed', values: { detail: err.message } });
      else notify({ key: 'err.recognition', values: { detail: err.message } });
    }
    setBusy(null);
    // the photo this one replaces is kept only while undo can reach it
    void prunePhotos(store.get().history);
    onDone();
  };

  const onFile = (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0];
    e.target.value = '';
    if (f) void handlePhoto(f, f.name);
  };

  const statusText = busy
    ? busy.stage === 'decode' ? t('status.decoding') : t('status.recognising')
    : status.phase === 'loading' ? t('status.loadingModel')
      : status.phase === 'ready' ? t('status.ready')
        : status.phase === 'failed' ? t('err.modelFailed') : '';

  return (
    <section className="view capture" aria-labelledby="capture-h">
      <h2 id="capture-h">{t('capture.heading')}</h2>
      <p className="hint">{t('capture.hint')}</p>

      {camera ? (
        <div className="camera">
          <video ref={videoRef} playsInline muted aria-label={t('capture.video')} />
          <div className="frame-guide" aria-hidden="true"><span>{t('capture.guide')}</span></div>
          <div className="row-actions">
            <button type="button" className="btn primary" onClick={() => void shoot()}>{t('capture.shoot')}</button>
            <button type="button" className="btn ghost" onClick={stopCamera}>{t('capture.stopCamera')}</button>
          </div>
        </div>
      ) : (
        <div className="capture-actions">
          <button type="button" className="btn primary big" disabled={!!busy} onClick={() => void startCamera()}>{t('capture.startCamera')}</button>
          <button type="button" className="btn big" disabled={!!busy} onClick={() => fileRef.current?.click()}>{t('capture.pick')}</button>
          <input ref={fileRef} type="file" accept="image/*" className="visually-hidden" tabIndex={-1} aria-label={t('capture.pick')} onChange={onFile} data-testid="file-input" />
          <span className="or">{t('capture.or')}</span>
          <button type="button" className="btn big" disabled={!!busy} onClick={onManual}>{t('capture.manual')}</button>
          {work.tiles.length > 0 && (
            <button type="button" className="btn ghost" onClick={onDone}>{t('capture.resume', { n: work.tiles.length })}</button>
          )}
        </div>
      )}

      <div className={`recog-status ${status.phase}`} role="status" aria-live="polite" data-threads={status.phase === 'ready' ? status.threads : undefined}>
        {statusText}
        {!busy && status.phase === 'failed' && <details><summary>{t('common.details')}</summary>{status.message}</details>}
        {busy && <progress max={1} value={busy.fraction || undefined} aria-label={statusText} />}
      </div>
      {error && <p className="error" role="alert" data-testid="capture-error">{t(error.key, error.values)}</p>}
    </section>
  );
}
