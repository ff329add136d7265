/**
 * `#/event`: the director's start: create an event (name, rules, players typed or pasted as CSV,
 * tables, sessions, an optional seating CSV), the events this device directs, and the import of a
 * backup. The director key returned on creation is kept in IndexedDB (director.ts).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { EVENT_RULES, isEventApiError, type EventRules } from '../../event/protocol.ts';
import { parseSeatingCsv, validateSeating } from '../../event/seating.ts';
import { createApi } from './api.ts';
import { directedEvents, rememberEvent, type DirectedEvent } from './director.ts';
import { eventErrorMessage, useEventT } from './i18n.ts';
import './event.css';

/** Names typed one a line or pasted as CSV (commas, semicolons or tabs); blank cells dropped. */
export function parsePlayers(text: string): string[] {
  return text.split(/[\n\r,;\t]+/).map((s) => s.trim().replace(/^"(.*)"$/, '$1').trim()).filter(Boolean);
}

function CreateEventForm({ onCreated }: { onCreated: (e: DirectedEvent) => void }) {
  const { t } = useEventT();
  const [name, setName] = useState('');
  const [rules, setRules] = useState<EventRules>('mcr');
  const [playersText, setPlayersText] = useState('');
  const [tables, setTables] = useState<number | ''>('');
  const [sessions, setSessions] = useState(4);
  const [seatingCsv, setSeatingCsv] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const players = parsePlayers(playersText);
  const tableCount = tables === '' ? Math.max(1, Math.floor(players.length / 4)) : tables;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (players.length !== tableCount * 4) {
      setError(t('event.create.wrongCount', { players: players.length, tables: tableCount, need: tableCount * 4 }));
      return;
    }
    const dup = players.find((p, i) => players.indexOf(p) !== i);
    if (dup) { setError(t('event.create.duplicate', { name: dup })); return; }
    let seating;
    if (seatingCsv.trim()) {
      try {
        seating = validateSeating(parseSeatingCsv(seatingCsv), { players, tables: tableCount, sessions }, true);
      } catch (err) {
        setError(t('event.create.seatingError', { message: isEventApiError(err) ? err.message : String(err) }));
        return;
      }
    }
    setBusy(true);
    try {
      const { event, directorKey } = await createApi().createEvent({ name: name.trim(), rules, players, tables: tableCount, sessions, ...(seating ? { seating } : {}) });
      const saved = { id: event.id, name: event.name, key: directorKey, createdAt: event.createdAt };
      await rememberEvent(saved);
      onCreated(saved);
    } catch (err) {
      setError(eventErrorMessage(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="event-form" onSubmit={(e) => void submit(e)}>
      <h3>{t('event.create.title')}</h3>
      <label>{t('event.create.name')}<input value={name} onChange={(e) => setName(e.target.value)} required maxLength={120} /></label>
      <fieldset>
        <legend>{t('event.create.rules')}</legend>
        {EVENT_RULES.map((r) => (
          <label key={r} style={{ display: 'inline-flex', gap: 6, marginRight: 16 }}>
            <input type="radio" name="event-rules" value={r} checked={rules === r} onChange={() => setRules(r)} /> {t(`event.rules.${r}`)}
          </label>
        ))}
      </fieldset>
      <label>
        {t('event.create.players')}
        <textarea value={playersText} onChange={(e) => setPlayersText(e.target.value)} required aria-describedby="event-players-help" data-testid="event-players" />
      </label>
      <small id="event-players-help">{t('event.create.playersHelp')} {t('event.create.playersCount', { count: players.length })}</small>
      <div className="pair">
        <label>{t('event.create.tables')}<input type="number" min={1} max={200} value={tableCount} onChange={(e) => setTables(e.target.value === '' ? '' : Number(e.target.value))} /></label>
        <label>{t('event.create.sessions')}<input type="number" min={1} max={12} value={sessions} onChange={(e) => setSessions(Number(e.target.value) || 1)} /></label>
      </div>
      <label>
        {t('event.create.seating')}
        <textarea value={seatingCsv} onChange={(e) => setSeatingCsv(e.target.value)} placeholder="session,table,A,B,C,D" aria-describedby="event-seating-help" />
      </label>
      <small id="event-seating-help">{t('event.create.seatingHelp')}</small>
      {error && <p role="alert" className="event-error" data-testid="create-error">{error}</p>}
      <p><button type="submit" disabled={busy}>{t('event.create.submit')}</button></p>
    </form>
  );
}

export function EventHome() {
  const { t } = useEventT();
  const [mine, setMine] = useState<DirectedEvent[] | null>(null);
  const [msg, setMsg] = useState<{ text: string; bad: boolean } | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  useEffect(() => { void directedEvents().then(setMine, () => setMine([])); }, []);
  const open = (e: DirectedEvent) => { location.hash = `#/event/${encodeURIComponent(e.id)}`; };

  const importFile = async (file: File) => {
    try {
      let backup: unknown;
      try { backup = JSON.parse(await file.text()); } catch (e) { throw new Error(`not JSON (${(e as Error).message})`); }
      const { event, directorKey } = await createApi().importBackup(backup);
      const saved = { id: event.id, name: event.name, key: directorKey, createdAt: event.createdAt };
      await rememberEvent(saved);
      setMsg({ text: t('event.home.importDone'), bad: false });
      open(saved);
    } catch (e) {
      setMsg({ text: t('event.home.importFailed', { message: e instanceof Error && !('code' in e) ? e.message : eventErrorMessage(t, e) }), bad: true });
    }
  };

  return (
    <div className="event-page">
      <h2>{t('event.home.title')}</h2>
      <p>{t('event.home.intro')}</p>
      <p className="event-note">{t('event.home.joinHelp')}</p>
      <h3>{t('event.home.mine')}</h3>
      {mine === null ? <p>{t('event.loading')}</p> : mine.length === 0 ? <p>{t('event.home.none')}</p> : (
        <ul className="event-list">
          {mine.map((e) => (
            <li key={e.id}>
              <strong>{e.name}</strong>
              <a href={`#/event/${encodeURIComponent(e.id)}`}>{t('event.home.open')}</a>
              <a href={`#/event/${encodeURIComponent(e.id)}/standings`}>{t('event.home.standings')}</a>
            </li>
          ))}
        </ul>
      )}
      <CreateEventForm onCreated={open} />
      <p>
        <button type="button" onClick={() => fileRef.current?.click()}>{t('event.home.import')}</button>
        <input ref={fileRef} type="file" accept="application/json,.json" hidden data-testid="event-import"
          onChange={(e) => { const f = e.target.files?.[0]; e.target.value = ''; if (f) void importFile(f); }} />
      </p>
      {msg && <p role={msg.bad ? 'alert' : 'status'} className={msg.bad ? 'event-error' : undefined}>{msg.text}</p>}
    </div>
  );
}
