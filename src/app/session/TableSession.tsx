import { useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  computeSheet, isSheetError, parseSheetJson, rulesOf, sheetToCsv, sheetToJson, MAX_HANDS, SHEET_RULES,
  type SheetError, type SheetHand, type SheetMeta, type SheetRules,
} from '../../engine/sheet.ts';
import { HandForm } from './HandForm.tsx';
import { minus, PrintableSheet, signed, tablePoints } from './PrintableSheet.tsx';
import { downloadText, sheetFileName } from './download.ts';
import { sheetErrorMessage } from './i18n.ts';
import { nextHandInfo } from './seats.ts';
import { commands } from './store.ts';
import { useSession } from './useSession.ts';
import { HandCheckBadge, TableEventPanel, useHandChecks } from '../event/TableEventPanel.tsx';
import './session.css';

function StartTable({ onStart }: { onStart: (players: string[], meta: SheetMeta, rules: SheetRules) => void }) {
  const { t } = useTranslation();
  const [names, setNames] = useState(['', '', '', '']);
  const [meta, setMeta] = useState<SheetMeta>({});
  // A table plays MCR unless the players pick another ruleset when they start it.
  const [rules, setRules] = useState<SheetRules>('mcr');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    try {
      onStart(names, meta, rules);
    } catch (err) {
      if (isSheetError(err)) setError(sheetErrorMessage(t, err, { rules }));
      else throw err;
    }
  };
  return (
    <form className="session-start" onSubmit={submit}>
      <h2>{t('session.startTitle')}</h2>
      <p>{t('session.startHelp')}</p>
      {names.map((n, i) => (
        <label key={i}>
          {t('session.playerLabel', { n: i + 1, wind: t(`session.wind.${'ESWN'[i]}`) })}
          <input value={n} required autoComplete="off" onChange={(e) => setNames(names.map((m, j) => (j === i ? e.target.value : m)))} />
        </label>
      ))}
      <fieldset className="session-rules">
        <legend>{t('session.rules.label')}</legend>
        {SHEET_RULES.map((r) => (
          <label key={r}>
            <input type="radio" name="session-rules" value={r} checked={rules === r} onChange={() => setRules(r)} /> {t(`session.rules.${r}`)}
          </label>
        ))}
        <small>{t(`session.rules.help.${rules}`)}</small>
      </fieldset>
      {(['tournament', 'date', 'session', 'table'] as const).map((k) => (
        <label key={k}>
          {t(`session.print.${k}`)}
          <input value={meta[k] ?? ''} onChange={(e) => setMeta({ ...meta, [k]: e.target.value || undefined })} />
        </label>
      ))}
      {error && <p role="alert" className="session-error">{error}</p>}
      <button type="submit">{t('session.start')}</button>
    </form>
  );
}

/** The ruleset a game-record file names (MCR when it names none), to word its errors; undefined when it is not JSON. */
function rulesInFile(text: string): SheetRules | undefined {
  try {
    const json = JSON.parse(text) as { rules?: unknown } | null;
    return json?.rules === 'fan-pays' ? 'fan-pays' : 'mcr';
  } catch {
    return undefined;
  }
}

/**
 * The table's score sheet: start a table, hands with running totals and table
 * points, add/edit/delete hands with undo and redo, print (003 layout), export
 * CSV and JSON, import JSON. Everything is saved to IndexedDB as it changes.
 */
export function TableSession() {
  const { t, i18n } = useTranslation();
  const { loaded, record, past, future, storageError, store } = useSession();
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  // the last notice as its message key and values, so that it follows a change of language
  const [notice, setNoticeKey] = useState<{ key: string; values?: Record<string, number> } | null>(null);
  const setNotice = (key: string | null, values?: Record<string, number>) => setNoticeKey(key ? { key, values } : null);
  /** A refused deletion (Fan Pays: it would move the deal under a hand scored in the app). */
  const [refused, setRefused] = useState<SheetError | null>(null);
  /** A refused file: the reason in words, and the engine's own message for whoever made the file. */
  const [importError, setImportError] = useState<{ message: string; detail: string | null } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const sheet = useMemo(() => (record ? computeSheet(record) : null), [record]);
  /** The event's checks of the hands, or null when this table joined no event. */
  const checks = useHandChecks();

  if (!loaded) return <p role="status">{t('session.loading')}</p>;

  const importFile = async (file: File) => {
    let text = '';
    try {
      text = await file.text();
      const imported = parseSheetJson(text);
      store.perform(commands.replace(imported));
      setImportError(null);
      setNotice('session.imported', { n: imported.hands.length });
    } catch (err) {
      if (!isSheetError(err)) {
        setImportError({ message: t('session.importFailed', { message: err instanceof Error ? err.message : String(err) }), detail: null });
        return;
      }
      const message = sheetErrorMessage(t, err, { rules: rulesInFile(text), importing: true, embedded: true });
      setImportError({ message: t('session.importFailed', { message }), detail: err.message });
    }
  };

  const toolbar = (
    <div className="session-toolbar" role="toolbar" aria-label={t('session.tools')}>
      <button type="button" disabled={past.length === 0} onClick={() => { store.undo(); setNotice('session.undone'); }}>{t('session.undo')}</button>
      <button type="button" disabled={future.length === 0} onClick={() => { store.redo(); setNotice('session.redone'); }}>{t('session.redo')}</button>
      {record && (
        <>
          <button type="button" onClick={() => window.print()}>{t('session.print.button')}</button>
          <button type="button" onClick={() => downloadText(sheetFileName([record.meta.tournament, record.meta.session, record.meta.table], 'csv'), sheetToCsv(record), 'text/csv;charset=utf-8')}>{t('session.exportCsv')}</button>
          <button type="button" onClick={() => downloadText(sheetFileName([record.meta.tournament, record.meta.session, record.meta.table], 'json'), sheetToJson(record), 'application/json')}>{t('session.exportJson')}</button>
        </>
      )}
      <button type="button" onClick={() => fileInput.current?.click()}>{t('session.importJson')}</button>
      <input
        ref={fileInput} type="file" accept="application/json,.json" hidden aria-label={t('session.importJson')} data-testid="session-import"
        onChange={(e) => { const f = e.target.files?.[0]; e.target.value = ''; if (f) void importFile(f); }}
      />
      {/* a joined table's sheet is the event's: "Leave event" ends it */}
      {record && !checks && <button type="button" onClick={() => { store.perform(commands.close()); setEditing(null); setNotice('session.closed'); }}>{t('session.newTable')}</button>}
    </div>
  );
  const eventPanel = <TableEventPanel handsOnSheet={record?.hands.length ?? 0} />;

  const status = (
    <>
      <p role="status" aria-live="polite">{notice ? t(notice.key, notice.values) : ''}</p>
      {importError && (
        <div role="alert" className="session-error">
          <p>{importError.message}</p>
          {importError.detail && <details><summary>{t('session.error.details')}</summary><code>{importError.detail}</code></details>}
        </div>
      )}
      {storageError && <p role="alert" className="session-error">{t('session.storageError', { message: storageError })}</p>}
      {refused && <p role="alert" className="session-error" data-testid="sheet-refused">{sheetErrorMessage(t, refused, { rules: record ? rulesOf(record) : 'mcr' })}</p>}
    </>
  );

  if (!record || !sheet) {
    return (
      <div className="session session-screen">
        {toolbar}
        {eventPanel}
        {status}
        <StartTable onStart={(players, meta, rules) => { store.perform(commands.start(players, meta, rules)); setNotice(null); }} />
      </div>
    );
  }

  const P = record.players;
  const rules = rulesOf(record);
  const fans = rules === 'fan-pays' ? 'Fans' : '';
  const describe = (h: SheetHand): string => {
    const pens = h.penalties.map((p) => t(p.split ? 'session.describe.penaltySplit' : 'session.describe.penalty', { player: P[p.player], points: p.points }));
    const main = h.kind === 'draw'
      ? t('session.describe.draw')
      : h.selfDrawn
        ? t(`session.describe.selfDrawn${fans}`, { winner: P[h.winner], points: h.points, ...(fans ? { count: h.points } : {}) })
        : t(`session.describe.discard${fans}`, { winner: P[h.winner], points: h.points, discarder: P[h.discarder ?? 0], ...(fans ? { count: h.points } : {}) });
    return [...pens, main].join('; ');
  };
  const next = sheet.nextHand;
  const nextInfo = nextHandInfo(record);

  return (
    <div className="session">
      <div className="session-screen">
        {toolbar}
        {eventPanel}
        {status}
        {/*
          One column per player and nothing else beside them, so a phone shows all four
          running totals at once (no sideways scrolling at 390 px): what happened in a
          hand, its dealer and its buttons go on a line of their own under its scores.
          Each hand is a row group (tbody): its scores, what happened, the running totals.
        */}
        <table className="session-sheet">
          <caption>
            {[record.meta.tournament, record.meta.session, record.meta.table].filter(Boolean).join(' · ') || t('session.sheet')}
            {' '}<span className="session-rules-tag" data-testid="table-rules">{t(`session.rules.${rules}`)}</span>
          </caption>
          <colgroup>
            <col className="session-col-hand" />
            {P.map((name) => <col key={name} />)}
          </colgroup>
          <thead>
            <tr>
              <th scope="col">{t('session.hand')}</th>
              {P.map((name) => <th key={name} scope="col" className="num">{name}</th>)}
            </tr>
          </thead>
          {sheet.rows.map((row) => {
            const h = row.hand;
            const n = row.index + 1;
            return (
              <tbody key={n} className="session-hand" data-testid={`hand-${n}`}>
                <tr>
                  <th scope="row">{n} <small>{t(`session.wind.${row.seating.prevalentWind}`)} {row.seating.handInRound}</small></th>
                  {row.delta.map((d, p) => (
                    <td key={P[p]} className="num">
                      {h.penalties.length > 0 ? `${signed(row.penalties[p])} ${signed(row.payments[p])}` : signed(d)}
                    </td>
                  ))}
                </tr>
                <tr className="session-what">
                  <td colSpan={P.length + 1}><div className="session-what-line">
                    <span className="session-what-text">
                      <span className="visually-hidden">{t('session.what')}: </span>
                      <span className="session-dealer">{t('session.dealer')}: {P[row.seating.dealer]}</span>{' · '}
                      {describe(h)}
                      {h.kind === 'win' && <small> ({t(`session.source.${h.source}`)})</small>}
                      {checks && <> <HandCheckBadge check={checks[row.index] ?? null} /></>}
                    </span>
                    <span className="session-hand-actions" role="group" aria-label={t('session.actions')}>
                      {h.kind === 'win' && h.link && <a href={h.link}>{t('session.verify')}</a>}
                      <button type="button" onClick={() => setEditing(row.index)} aria-label={t('session.editHandN', { n })}>{t('session.edit')}</button>
                      <button
                        type="button" aria-label={t('session.deleteHandN', { n })}
                        onClick={() => {
                          try {
                            store.perform(commands.remove(row.index));
                          } catch (err) {
                            if (!isSheetError(err)) throw err;
                            setRefused(err);
                            return;
                          }
                          setRefused(null);
                          setEditing(null);
                          setNotice('session.deleted', { n });
                        }}
                      >{t('session.delete')}</button>
                    </span>
                  </div></td>
                </tr>
                <tr className="running">
                  <th scope="row"><span className="visually-hidden">{t('session.runningAfter', { n })}</span></th>
                  {row.running.map((v, p) => <td key={P[p]} className="num">{minus(v)}</td>)}
                </tr>
              </tbody>
            );
          })}
          <tfoot>
            <tr>
              <th scope="row">{t('session.total')}</th>
              {sheet.totals.map((v, p) => <td key={P[p]} className="num" data-testid={`total-${p}`}>{minus(v)}</td>)}
            </tr>
            <tr>
              <th scope="row">{sheet.complete ? t('session.tablePoints') : t('session.tablePointsSoFar')}</th>
              {sheet.tablePoints.map((v, p) => <td key={P[p]} className="num" data-testid={`table-points-${p}`}>{tablePoints(v, i18n.language)}</td>)}
            </tr>
          </tfoot>
        </table>
        {nextInfo
          ? (
            <p data-testid="next-hand">
              {t('session.nextHand', { n: nextInfo.handNumber, round: t(`session.wind.${nextInfo.prevalentWind}`), dealer: nextInfo.dealer })}{' '}
              {nextInfo.dealerRun > 0 && <>{t('session.dealerRun', { dealer: nextInfo.dealer, n: nextInfo.dealerRun })}{' '}</>}
              {(['E', 'S', 'W', 'N'] as const).map((w) => `${t(`session.wind.${w}`)}: ${nextInfo.playerBySeat[w]}`).join(', ')}
            </p>
          )
          : <p>{rulesOf(record) === 'fan-pays' ? t('session.completeFanPays') : t('session.complete', { n: MAX_HANDS })}</p>}
        {editing === null && next !== null && <button type="button" onClick={() => setEditing('new')}>{t('session.typeHand')}</button>}
        {editing !== null && (
          <HandForm
            key={String(editing)}
            players={P}
            rules={rules}
            handNumber={editing === 'new' ? record.hands.length + 1 : editing + 1}
            initial={editing === 'new' ? undefined : record.hands[editing]}
            onSubmit={(hand) => {
              store.perform(editing === 'new' ? commands.add(hand) : commands.edit(editing, hand));
              setRefused(null);
              setNotice(editing === 'new' ? 'session.added' : 'session.edited', { n: editing === 'new' ? record.hands.length + 1 : editing + 1 });
              setEditing(null);
            }}
            onCancel={() => setEditing(null)}
          />
        )}
      </div>
      <PrintableSheet record={record} sheet={sheet} />
    </div>
  );
}
