import { useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  computeSheet, isSheetError, parseSheetJson, rulesOf, sheetToCsv, sheetToJson, MAX_HANDS, SHEET_RULES,
  type SheetHand, type SheetMeta, type SheetRules,
} from '../../engine/sheet.ts';
import { HandForm } from './HandForm.tsx';
import { PrintableSheet, signed } from './PrintableSheet.tsx';
import { downloadText, sheetFileName } from './download.ts';
import { commands, nextHandInfo } from './store.ts';
import { useSession } from './useSession.ts';
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
      if (isSheetError(err)) setError(err.message);
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

/**
 * The table's score sheet: start a table, hands with running totals and table
 * points, add/edit/delete hands with undo and redo, print (003 layout), export
 * CSV and JSON, import JSON. Everything is saved to IndexedDB as it changes.
 */
export function TableSession() {
  const { t } = useTranslation();
  const { loaded, record, past, future, storageError, store } = useSession();
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [importError, setImportError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const sheet = useMemo(() => (record ? computeSheet(record) : null), [record]);

  if (!loaded) return <p role="status">{t('session.loading')}</p>;

  const importFile = async (file: File) => {
    try {
      const imported = parseSheetJson(await file.text());
      store.perform(commands.replace(imported));
      setImportError(null);
      setNotice(t('session.imported', { n: imported.hands.length }));
    } catch (err) {
      setImportError(t('session.importFailed', { message: err instanceof Error ? err.message : String(err) }));
    }
  };

  const toolbar = (
    <div className="session-toolbar" role="toolbar" aria-label={t('session.tools')}>
      <button type="button" disabled={past.length === 0} onClick={() => { store.undo(); setNotice(t('session.undone')); }}>{t('session.undo')}</button>
      <button type="button" disabled={future.length === 0} onClick={() => { store.redo(); setNotice(t('session.redone')); }}>{t('session.redo')}</button>
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
      {record && <button type="button" onClick={() => { store.perform(commands.close()); setEditing(null); setNotice(t('session.closed')); }}>{t('session.newTable')}</button>}
    </div>
  );

  const status = (
    <>
      <p role="status" aria-live="polite">{notice ?? ''}</p>
      {importError && <p role="alert" className="session-error">{importError}</p>}
      {storageError && <p role="alert" className="session-error">{t('session.storageError', { message: storageError })}</p>}
    </>
  );

  if (!record || !sheet) {
    return (
      <div className="session session-screen">
        {toolbar}
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
        ? t(`session.describe.selfDrawn${fans}`, { winner: P[h.winner], points: h.points })
        : t(`session.describe.discard${fans}`, { winner: P[h.winner], points: h.points, discarder: P[h.discarder ?? 0] });
    return [...pens, main].join('; ');
  };
  const next = sheet.nextHand;
  const nextInfo = nextHandInfo(record);

  return (
    <div className="session">
      <div className="session-screen">
        {toolbar}
        {status}
        {/* On a phone the sheet scrolls sideways inside its box instead of widening the page. */}
        <div className="session-sheet-scroll">
        <table className="session-sheet">
          <caption>
            {[record.meta.tournament, record.meta.session, record.meta.table].filter(Boolean).join(' · ') || t('session.sheet')}
            {' '}<span className="session-rules-tag" data-testid="table-rules">{t(`session.rules.${rules}`)}</span>
          </caption>
          <thead>
            <tr>
              <th scope="col">{t('session.hand')}</th>
              <th scope="col">{t('session.dealer')}</th>
              <th scope="col">{t('session.what')}</th>
              {P.map((name) => <th key={name} scope="col" className="num">{name}</th>)}
              <th scope="col"><span className="visually-hidden">{t('session.actions')}</span></th>
            </tr>
          </thead>
          <tbody>
            {sheet.rows.map((row) => {
              const h = row.hand;
              return [
                <tr key={`h${row.index}`} data-testid={`hand-${row.index + 1}`}>
                  <th scope="row">{row.index + 1} <small>{t(`session.wind.${row.seating.prevalentWind}`)} {row.seating.handInRound}</small></th>
                  <td>{P[row.seating.dealer]}</td>
                  <td>
                    {describe(h)}
                    {h.kind === 'win' && h.link && <> · <a href={h.link}>{t('session.verify')}</a></>}
                    {h.kind === 'win' && <small> ({t(`session.source.${h.source}`)})</small>}
                  </td>
                  {row.delta.map((d, p) => (
                    <td key={P[p]} className="num">
                      {h.penalties.length > 0 ? `${signed(row.penalties[p])} ${signed(row.payments[p])}` : signed(d)}
                    </td>
                  ))}
                  <td>
                    <button type="button" onClick={() => setEditing(row.index)} aria-label={t('session.editHandN', { n: row.index + 1 })}>{t('session.edit')}</button>
                    <button
                      type="button" aria-label={t('session.deleteHandN', { n: row.index + 1 })}
                      onClick={() => { store.perform(commands.remove(row.index)); setEditing(null); setNotice(t('session.deleted', { n: row.index + 1 })); }}
                    >{t('session.delete')}</button>
                  </td>
                </tr>,
                <tr key={`r${row.index}`} className="running">
                  <th scope="row" colSpan={3}><span className="visually-hidden">{t('session.runningAfter', { n: row.index + 1 })}</span></th>
                  {row.running.map((v, p) => <td key={P[p]} className="num">{v}</td>)}
                  <td />
                </tr>,
              ];
            })}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={3}>{t('session.total')}</th>
              {sheet.totals.map((v, p) => <td key={P[p]} className="num" data-testid={`total-${p}`}>{v}</td>)}
              <td />
            </tr>
            <tr>
              <th scope="row" colSpan={3}>{sheet.complete ? t('session.tablePoints') : t('session.tablePointsSoFar')}</th>
              {sheet.tablePoints.map((v, p) => <td key={P[p]} className="num" data-testid={`table-points-${p}`}>{v}</td>)}
              <td />
            </tr>
          </tfoot>
        </table>
        </div>
        {nextInfo
          ? (
            <p data-testid="next-hand">
              {t('session.nextHand', { n: nextInfo.handNumber, round: t(`session.wind.${nextInfo.prevalentWind}`), dealer: nextInfo.dealer })}{' '}
              {(['E', 'S', 'W', 'N'] as const).map((w) => `${t(`session.wind.${w}`)}: ${nextInfo.playerBySeat[w]}`).join(', ')}
            </p>
          )
          : <p>{t('session.complete', { n: MAX_HANDS })}</p>}
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
              setNotice(editing === 'new' ? t('session.added', { n: record.hands.length + 1 }) : t('session.edited', { n: editing + 1 }));
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
