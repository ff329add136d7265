/**
 * `#/event/<id>`: the director's view: each session's tables with their join code and a QR code
 * of this app's `#/join/CODE` address, live standings, the referee's list of flagged hands (both
 * readings, the photo only if the table sent one) with their resolution, and the exports.
 */
import { useCallback, useEffect, useState } from 'react';
import { qrSvg, svgDataUrl } from '../share/qr.ts';
import { downloadText } from '../session/download.ts';
import { createApi, formatCode, type EventInfo, type Flag, type TableInfo } from './api.ts';
import { directorKey, forgetEvent } from './director.ts';
import { eventErrorMessage, useEventT } from './i18n.ts';
import { StandingsTable, useStandings } from './StandingsPage.tsx';
import './event.css';

/** The address a table's QR code opens: this app, on this origin, at `#/join/CODE`. */
export function joinUrl(code: string, here: Pick<Location, 'origin' | 'pathname'> = location): string {
  return `${here.origin}${here.pathname}#/join/${formatCode(code)}`;
}

function TableCard({ table }: { table: TableInfo }) {
  const { t } = useEventT();
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void qrSvg(joinUrl(table.code)).then((svg) => { if (live) setQr(svgDataUrl(svg)); });
    return () => { live = false; };
  }, [table.code]);
  return (
    <li data-testid={`table-${table.session}-${table.table}`}>
      <strong>{t('event.director.table', { n: table.table })}</strong>
      <div className="event-code" data-testid="table-code">{formatCode(table.code)}</div>
      {qr && <img src={qr} alt={t('event.director.qrAlt', { table: table.table, session: table.session })} width={160} height={160} />}
      <div className="event-players">{table.players.join(' · ')}</div>
    </li>
  );
}

function FlagItem({ flag, players, onResolve }: { flag: Flag; players: string[] | undefined; onResolve: (f: Flag, how: 'accept-server' | 'accept-table') => void }) {
  const { t } = useEventT();
  const link = flag.hand.kind === 'win' ? flag.hand.link : undefined;
  const winner = flag.hand.kind === 'win' ? players?.[flag.hand.winner] : undefined;
  return (
    <li data-testid="flag">
      <strong>{t('event.director.flagWhere', { session: flag.session, table: flag.table })}</strong>
      {winner && <> · {t('event.director.wonBy', { name: winner })}</>}
      <p>{flag.reason}</p>
      <p>{t('event.director.tableReading', { points: flag.tablePoints })}<br />
        {flag.serverPoints !== undefined ? t('event.director.serverReading', { points: flag.serverPoints }) : t('event.director.serverUnread')}</p>
      {link && <p><a href={link.slice(link.indexOf('#'))}>{t('event.director.verify')}</a></p>}
      {flag.photo && <figure><img src={flag.photo} alt={t('event.director.photo')} /><figcaption>{t('event.director.photo')}</figcaption></figure>}
      {flag.status === 'resolved' && flag.resolution
        ? <p className="event-note">{t('event.director.resolved', { how: t(`event.director.resolution.${flag.resolution}`) })}</p>
        : (
          <div className="event-row">
            <button type="button" onClick={() => onResolve(flag, 'accept-server')}>{t('event.director.acceptServer')}</button>
            <button type="button" onClick={() => onResolve(flag, 'accept-table')}>{t('event.director.acceptTable')}</button>
          </div>
        )}
    </li>
  );
}

const slug = (s: string) => s.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'event';

export function DirectorView({ eventId }: { eventId: string }) {
  const { t } = useEventT();
  const [key, setKey] = useState<string | null | undefined>(undefined);
  const [event, setEvent] = useState<EventInfo | null>(null);
  const [flags, setFlags] = useState<Flag[]>([]);
  const [session, setSession] = useState(1);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [forgetting, setForgetting] = useState(false);
  const { standings } = useStandings(eventId);

  useEffect(() => { void directorKey(eventId).then(setKey, () => setKey(null)); }, [eventId]);
  const load = useCallback(async () => {
    if (!key) return;
    const api = createApi();
    try {
      const [{ event: ev }, { flags: fl }] = await Promise.all([api.getEvent(eventId, key), api.flags(eventId, key)]);
      setEvent(ev);
      setFlags(fl);
      setError(null);
    } catch (e) {
      setError(eventErrorMessage(t, e));
    }
  }, [eventId, key, t]);
  useEffect(() => { void load(); }, [load]);
  // flags come with the standings' changes: a new reading may flag a hand
  const updated = standings?.updatedAt;
  useEffect(() => { if (updated) void load(); }, [updated, load]);

  if (key === undefined) return <p>{t('event.loading')}</p>;
  if (key === null) {
    return (
      <div className="event-page">
        <p role="alert">{t('event.director.noKey')}</p>
        <p><a href={`#/event/${encodeURIComponent(eventId)}/standings`}>{t('event.director.openStandings')}</a></p>
      </div>
    );
  }

  const download = async (kind: 'ema' | 'backup') => {
    try {
      const api = createApi();
      const name = slug(event?.name ?? eventId);
      const file = kind === 'ema' ? `${name}-ema.csv` : `${name}-backup.json`;
      const text = kind === 'ema' ? await api.emaCsv(eventId, key) : await api.backup(eventId, key);
      downloadText(file, text, kind === 'ema' ? 'text/csv;charset=utf-8' : 'application/json');
      setNotice(t('event.director.exported', { file }));
    } catch (e) {
      setError(eventErrorMessage(t, e));
    }
  };
  const resolve = async (flag: Flag, how: 'accept-server' | 'accept-table') => {
    try {
      const { flag: done } = await createApi().resolveFlag(eventId, key, flag.id, how);
      setFlags((fs) => fs.map((f) => (f.id === done.id ? done : f)));
    } catch (e) {
      setError(eventErrorMessage(t, e));
    }
  };

  const sessions = event ? Array.from({ length: event.sessionCount }, (_, i) => i + 1) : [];
  const open = flags.filter((f) => f.status !== 'resolved');
  return (
    <div className="event-page">
      <h2>{event ? event.name : t('event.director.title')} <small style={{ display: 'inline' }}>{event && t(`event.rules.${event.rules}`)}</small></h2>
      {error && <p role="alert" className="event-error">{error}</p>}
      {notice && <p role="status">{notice}</p>}
      <div className="event-row">
        <button type="button" onClick={() => void download('ema')}>{t('event.director.exportEma')}</button>
        <button type="button" onClick={() => void download('backup')}>{t('event.director.exportBackup')}</button>
        <button type="button" onClick={() => window.print()}>{t('event.director.print')}</button>
        <button type="button" onClick={() => void load()}>{t('event.director.refresh')}</button>
      </div>
      {event && (
        <section>
          <div className="event-row" role="group">
            {sessions.map((s) => (
              <button key={s} type="button" aria-pressed={s === session} className={s === session ? 'primary' : undefined} onClick={() => setSession(s)}>
                {t('event.director.session', { n: s })}
              </button>
            ))}
          </div>
          <ul className="event-tables">
            {event.tables.filter((x) => x.session === session).map((x) => <TableCard key={`${x.session}-${x.table}`} table={x} />)}
          </ul>
        </section>
      )}
      <section>
        <h3>{t('event.director.flags')} {open.length > 0 && `(${open.length})`}</h3>
        {flags.length === 0 ? <p>{t('event.director.noFlags')}</p> : (
          <ul className="event-flags">{flags.map((f) => (
            <FlagItem
              key={f.id} flag={f} onResolve={(fl, how) => void resolve(fl, how)}
              players={event?.tables.find((x) => x.session === f.session && x.table === f.table)?.players}
            />
          ))}</ul>
        )}
      </section>
      <section>
        <h3>{t('event.director.standings')}</h3>
        <p><a href={`#/event/${encodeURIComponent(eventId)}/standings`}>{t('event.director.openStandings')}</a></p>
        {standings && <StandingsTable standings={standings} />}
      </section>
      {forgetting
        ? (
          <div role="alertdialog" aria-label={t('event.director.forget')} className="event-panel">
            <p>{t('event.director.forgetConfirm')}</p>
            <div className="event-row">
              <button type="button" onClick={() => { void forgetEvent(eventId).then(() => { location.hash = '#/event'; }); }}>{t('event.director.forgetYes')}</button>
              <button type="button" onClick={() => setForgetting(false)}>{t('event.join.cancel')}</button>
            </div>
          </div>
        )
        : <p><button type="button" onClick={() => setForgetting(true)}>{t('event.director.forget')}</button></p>}
    </div>
  );
}
