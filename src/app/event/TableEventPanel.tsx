/**
 * The table's link to a club event, on the score sheet: join with the table's code; once joined,
 * the event and table, the sync state in plain words (all sent, N waiting, offline, not sent and
 * why), send now, the photo option (off by default), changes the server refused, and leave.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { HandCheck } from './api.ts';
import { formatCode } from './api.ts';
import { downloadText, sheetFileName } from '../session/download.ts';
import { eventErrorMessage, useEventT } from './i18n.ts';
import type { EventSync, SyncState } from './sync.ts';
import { useEventSync } from './useEventSync.ts';
import './event.css';

/** The join form: a code typed (or given by a `#/join/CODE` link). */
export function JoinForm({ sync, handsOnSheet, initialCode = '', auto = false, onJoined, onCancel }: {
  sync: EventSync;
  handsOnSheet: number;
  initialCode?: string;
  /** Join straight away with `initialCode` (a scanned QR code). */
  auto?: boolean;
  onJoined?: () => void;
  onCancel?: () => void;
}) {
  const { t } = useEventT();
  const [code, setCode] = useState(initialCode);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const join = async (c: string) => {
    setBusy(true);
    setError(null);
    try {
      await sync.join(c);
      onJoined?.();
    } catch (e) {
      setError(eventErrorMessage(t, e));
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    // a QR code opened on a phone with an unsent sheet of another table asks first (the form shows why)
    // once, for the code the page was opened with
    if (auto && initialCode && handsOnSheet === 0) void join(initialCode);
  }, []);
  const submit = (e: FormEvent) => { e.preventDefault(); void join(code); };
  return (
    <form className="event-join" onSubmit={submit} aria-busy={busy} aria-label={t('event.join.title')}>
      <label>
        {t('event.join.code')}
        <input
          value={code} onChange={(e) => setCode(e.target.value)} required autoComplete="off" autoCapitalize="characters"
          spellCheck={false} inputMode="text" placeholder="K7QW-3MPX" aria-describedby="event-code-help"
        />
      </label>
      <small id="event-code-help">{t('event.join.codeHelp')}</small>
      {handsOnSheet > 0 && <p className="event-warn">{t('event.join.replaces', { count: handsOnSheet })}</p>}
      <p className="event-note">{t('event.join.privacy')}</p>
      {busy && <p role="status">{t('event.join.joining', { code: formatCode(code) })}</p>}
      {error && <p role="alert" className="event-error" data-testid="join-error">{error}</p>}
      <div className="event-row">
        <button type="submit" disabled={busy}>{t('event.join.submit')}</button>
        {onCancel && <button type="button" onClick={onCancel}>{t('event.join.cancel')}</button>}
      </div>
    </form>
  );
}

/** The sync state in words, for the status line. */
export function syncText(t: ReturnType<typeof useEventT>['t'], s: SyncState, nowMs: number): { text: string; tone: 'ok' | 'wait' | 'bad' } {
  const waiting = s.link?.queue.length ?? 0;
  if (s.phase === 'offline') return { text: t('event.table.offline', { count: waiting }), tone: 'wait' };
  if (s.phase === 'error' && s.error && (waiting > 0 || s.error.code === 'TOKEN_INVALID')) {
    const retry = s.retryAt ? ` ${t('event.table.retryIn', { s: Math.max(1, Math.ceil((s.retryAt - nowMs) / 1000)) })}` : '';
    return { text: `${t('event.table.error', { reason: eventErrorMessage(t, s.error) })}${retry}`, tone: 'bad' };
  }
  if (waiting > 0) return { text: s.phase === 'sending' ? t('event.table.sending') : t('event.table.waiting', { count: waiting }), tone: 'wait' };
  return { text: t('event.table.synced'), tone: 'ok' };
}

export function TableEventPanel({ handsOnSheet }: { handsOnSheet: number }) {
  const { t } = useEventT();
  const { sync, state } = useEventSync();
  const [joining, setJoining] = useState(false);
  const [leaveError, setLeaveError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!state.retryAt) return;
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [state.retryAt]);

  if (!state.loaded) return null;
  const link = state.link;
  if (!link) {
    return (
      <section className="event-panel" aria-label={t('event.join.title')}>
        {notice && <p role="status">{notice}</p>}
        {joining && <p className="event-heading"><strong>{t('event.join.title')}</strong></p>}
        {joining
          ? <JoinForm sync={sync} handsOnSheet={handsOnSheet} onJoined={() => setJoining(false)} onCancel={() => setJoining(false)} />
          : <button type="button" onClick={() => { setJoining(true); setNotice(null); }}>{t('event.join.button')}</button>}
      </section>
    );
  }
  const { join } = link;
  const status = syncText(t, state, now);
  const leave = (force: boolean) => {
    try {
      sync.leave({ force });
      setLeaveError(null);
      setNotice(t('event.table.left'));
    } catch (e) {
      setLeaveError(eventErrorMessage(t, e));
    }
  };
  return (
    <section className="event-panel joined" aria-label={t('event.join.title')}>
      <p className="event-heading"><strong>{t('event.table.heading', { event: join.eventName, session: join.session, table: join.table })}</strong></p>
      <p className={`event-sync ${status.tone}`} role="status" aria-live="polite" data-testid="sync-status">{status.text}</p>
      {state.hidden > 0 && <p role="alert" className="event-error">{t('event.table.hidden', { count: state.hidden })}</p>}
      {link.refused.map((r) => (
        <p key={r.op.opId} role="alert" className="event-error" data-testid="refused">
          {t('event.table.refused', { hand: r.op.kind === 'put' && r.op.hand.kind === 'win' ? `${link.join.players[r.op.hand.winner]} ${r.op.hand.points}` : r.op.kind, message: r.message })}
        </p>
      ))}
      <div className="event-row">
        {(link.queue.length > 0 || state.phase === 'error') && state.error?.code !== 'TOKEN_INVALID' && (
          <button type="button" onClick={() => void sync.sync()}>{t('event.table.sendNow')}</button>
        )}
        {state.error?.code === 'TOKEN_INVALID' && (
          <button type="button" onClick={() => { void sync.join(join.code).catch((e: unknown) => setLeaveError(eventErrorMessage(t, e))); }}>{t('event.join.again')}</button>
        )}
        <button type="button" onClick={() => leave(false)}>{t('event.table.leave')}</button>
        {leaveError && link.queue.length > 0 && <button type="button" onClick={() => leave(true)}>{t('event.table.leaveForce')}</button>}
      </div>
      {leaveError && <p role="alert" className="event-error">{leaveError}</p>}
      {link.before && (
        <p>
          <button
            type="button"
            onClick={() => downloadText(sheetFileName([link.before!.meta?.tournament, link.before!.meta?.table, 'before-event'], 'json'), `${JSON.stringify(link.before, null, 2)}\n`, 'application/json')}
          >{t('event.table.before', { count: link.before.hands.length })}</button>
        </p>
      )}
      <label className="event-check">
        <input type="checkbox" checked={link.sendPhotos} onChange={(e) => sync.setSendPhotos(e.target.checked)} />
        {t('event.table.photos')}
      </label>
      <small>{t('event.table.photosHelp')}</small>
    </section>
  );
}

/** The server's check of one hand, beside it on the sheet. */
export function HandCheckBadge({ check }: { check: HandCheck | null }) {
  const { t } = useEventT();
  if (!check) return <span className="event-badge pending" data-testid="hand-check">{t('event.table.check.pending')}</span>;
  const server = check.status === 'flagged' && check.serverPoints !== undefined ? ` (${t('event.table.check.server', { points: check.serverPoints })})` : '';
  return (
    <span className={`event-badge ${check.status}`} title={t(`event.table.checkTitle.${check.status}`)} data-testid="hand-check">
      {t(`event.table.check.${check.status}`)}{server}
    </span>
  );
}

/** The event's checks of the sheet's hands (null for a hand not yet sent), or null when no event is joined. */
export function useHandChecks(): (HandCheck | null)[] | null {
  const { state } = useEventSync();
  return state.link ? state.view?.checks ?? [] : null;
}

/** True while this table is joined to an event. */
export function useJoined(): boolean {
  return useEventSync().state.link !== null;
}
