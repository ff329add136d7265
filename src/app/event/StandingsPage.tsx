/**
 * The live standings of an event (`#/event/<id>/standings`): server-sent events on
 * `/api/events/:id/standings/stream`, and polling when the stream cannot be kept open. Players
 * ranked by table points, then score (document 004), per session and overall.
 */
import { useEffect, useState } from 'react';
import { standingsSchema } from '../../event/protocol.ts';
import { createApi, type Standings } from './api.ts';
import { eventErrorMessage, useEventT } from './i18n.ts';
import './event.css';

/** Table points as written: 2.5 when a tie shares places (document 004), no grouping. */
const tablePointsText = (v: number, lang: string): string => new Intl.NumberFormat(lang, { maximumFractionDigits: 2, useGrouping: false }).format(v);

/** A score with the sheet's minus sign (U+2212). */
const score = (n: number): string => (n < 0 ? `−${-n}` : String(n));

/** Polling interval when the stream is not available (ms). */
const POLL_MS = 4000;

type Mode = 'live' | 'polling' | 'offline';

/** The standings of `eventId`, kept up to date. */
export function useStandings(eventId: string): { standings: Standings | null; mode: Mode; error: unknown } {
  const [standings, setStandings] = useState<Standings | null>(null);
  const [mode, setMode] = useState<Mode>('polling');
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const api = createApi();
    let live = true;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const poll = async () => {
      try {
        const s = await api.standings(eventId);
        if (!live) return;
        setStandings(s);
        setError(null);
        setMode((m) => (m === 'live' ? m : 'polling'));
      } catch (e) {
        if (!live) return;
        setError(e);
        setMode('offline');
      }
      if (live && !source) timer = setTimeout(() => void poll(), POLL_MS);
    };
    const stream = () => {
      if (typeof EventSource === 'undefined') { void poll(); return; }
      source = new EventSource(api.standingsStreamUrl(eventId));
      source.addEventListener('standings', (ev) => {
        try {
          const parsed = standingsSchema.safeParse(JSON.parse((ev as MessageEvent<string>).data));
          if (parsed.success && live) { setStandings(parsed.data); setMode('live'); setError(null); }
        } catch { /* a broken message: the next one or the poll brings the standings */ }
      });
      source.onerror = () => {
        // the stream dropped (a proxy that buffers, the server restarting): poll instead, and try
        // the stream again later
        source?.close();
        source = null;
        if (!live) return;
        setMode('polling');
        if (!timer) void poll();
        setTimeout(() => { if (live && !source) { if (timer) { clearTimeout(timer); timer = null; } stream(); } }, POLL_MS * 5);
      };
    };
    void poll().then(() => { if (live) { if (timer) { clearTimeout(timer); timer = null; } stream(); } });
    return () => { live = false; source?.close(); if (timer) clearTimeout(timer); };
  }, [eventId]);
  return { standings, mode, error };
}

export function StandingsTable({ standings }: { standings: Standings }) {
  const { t, i18n } = useEventT();
  const sessions = [...new Set(standings.players.flatMap((p) => p.perSession.map((s) => s.session)))].sort((a, b) => a - b);
  if (standings.players.length === 0) return <p>{t('event.standings.empty')}</p>;
  return (
    <div className="standings-wrap">
      <table className="standings" data-testid="standings">
        <thead>
          <tr>
            <th scope="col">{t('event.standings.rank')}</th>
            <th scope="col">{t('event.standings.player')}</th>
            {sessions.map((s) => <th key={s} scope="col" className="sess">{t('event.standings.sessionShort', { n: s })}</th>)}
            <th scope="col">{t('event.standings.tablePoints')}</th>
            <th scope="col">{t('event.standings.score')}</th>
          </tr>
        </thead>
        <tbody>
          {standings.players.map((p) => (
            <tr key={p.name} data-testid="standing">
              <td>{p.rank}</td>
              <th scope="row" style={{ textAlign: 'left' }}>{p.name}</th>
              {sessions.map((s) => {
                const cell = p.perSession.find((x) => x.session === s);
                return (
                  <td key={s} className="sess" title={cell ? t('event.standings.sessionCell', { n: s, table: cell.table, tp: cell.tablePoints, score: cell.score }) : undefined}>
                    {cell ? `${tablePointsText(cell.tablePoints, i18n.language)} / ${score(cell.score)}` : '–'}
                  </td>
                );
              })}
              <td><strong>{tablePointsText(p.tablePoints, i18n.language)}</strong></td>
              <td>{score(p.score)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function StandingsPage({ eventId }: { eventId: string }) {
  const { t, i18n } = useEventT();
  const { standings, mode, error } = useStandings(eventId);
  return (
    <div className="event-page">
      <h2>{standings ? `${standings.name}: ${t('event.standings.title')}` : t('event.standings.title')}</h2>
      <p role="status" className="event-note" data-testid="standings-mode">
        {t(`event.standings.${mode}`)}
        {standings && ` · ${t('event.standings.updated', { time: new Date(standings.updatedAt).toLocaleTimeString(i18n.language) })}`}
      </p>
      {error !== null && !standings && <p role="alert" className="event-error">{eventErrorMessage(t, error)}</p>}
      {standings ? <StandingsTable standings={standings} /> : error === null && <p>{t('event.loading')}</p>}
    </div>
  );
}
