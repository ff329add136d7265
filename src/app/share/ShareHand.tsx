import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Hand, ScoreResult, WinContext } from '../../engine/index.ts';
import { handLink } from './link.ts';
import { qrSvg, svgDataUrl } from './qr.ts';

export interface ShareHandProps {
  hand: Hand;
  ctx: WinContext;
  result: Pick<ScoreResult, 'ruleset' | 'total'>;
  /** The app's address without fragment; defaults to the current page. */
  base?: string;
}

type QrState = { kind: 'loading' } | { kind: 'ready'; url: string } | { kind: 'failed'; message: string };

/** The hand link of a scored hand, with a copy button and its QR code. */
export function ShareHand({ hand, ctx, result, base }: ShareHandProps) {
  const { t } = useTranslation();
  const link = useMemo(() => handLink(hand, ctx, result, base), [hand, ctx, result, base]);
  const [qr, setQr] = useState<QrState>({ kind: 'loading' });
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    let live = true;
    setQr({ kind: 'loading' });
    qrSvg(link).then(
      (svg) => { if (live) setQr({ kind: 'ready', url: svgDataUrl(svg) }); },
      (e: unknown) => { if (live) setQr({ kind: 'failed', message: e instanceof Error ? e.message : String(e) }); },
    );
    return () => { live = false; };
  }, [link]);

  useEffect(() => setCopy('idle'), [link]);

  const onCopy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  };

  return (
    <section className="share-hand" aria-labelledby="share-hand-title">
      <h2 id="share-hand-title">{t('share.title')}</h2>
      <p>{t('share.explain')}</p>
      <label>
        {t('share.link')}
        <input type="text" readOnly value={link} onFocus={(e) => e.currentTarget.select()} data-testid="share-link" />
      </label>
      <div className="share-hand-actions">
        <button type="button" onClick={() => { void onCopy(); }}>{t('share.copy')}</button>
        <a href={link}>{t('share.open')}</a>
      </div>
      <p role="status" aria-live="polite">
        {copy === 'copied' ? t('share.copied') : copy === 'failed' ? t('share.copyFailed') : ''}
      </p>
      <div className="share-hand-qr">
        {qr.kind === 'loading' && <p>{t('share.qrLoading')}</p>}
        {qr.kind === 'failed' && <p role="alert">{t('share.qrFailed', { message: qr.message })}</p>}
        {qr.kind === 'ready' && <img src={qr.url} alt={t('share.qrAlt')} width={240} height={240} data-testid="share-qr" />}
      </div>
    </section>
  );
}
