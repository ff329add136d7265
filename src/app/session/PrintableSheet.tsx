import { useTranslation } from 'react-i18next';
import { HANDS_PER_ROUND, ROUND_SEATING, rulesOf, type ComputedSheet, type SheetRecord } from '../../engine/sheet.ts';

const ROUND_HEAD = [['東', 'EAST'], ['南', 'SOUTH'], ['西', 'WEST'], ['北', 'NORTH']] as const;
const POSITION = ['E', 'S', 'W', 'N'] as const;

export const signed = (n: number): string => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');
/** A running total or total: no plus sign, the same minus sign (U+2212) as `signed`. */
export const minus = (n: number): string => (n < 0 ? `−${-n}` : String(n));
/** Table points in the player's language: a shared place gives 2.33 or 1,75, to two decimals at most. */
export const tablePoints = (v: number, lang: string): string => new Intl.NumberFormat(lang, { maximumFractionDigits: 2, useGrouping: false }).format(v);

/**
 * The sheet in the layout of rules document 003: the header (tournament, date,
 * session, table, players 1-4), then one block per round (東 EAST, 南 SOUTH,
 * 西 WEST, 北 NORTH) with each player's seat for that round, a line per hand and
 * its running total, the table score and a line to sign. A hand with a penalty
 * shows "penalty hand" as in the worked example (+10 −16).
 * Hidden on screen; print CSS (session.css) shows only this.
 */
export function PrintableSheet({ record, sheet }: { record: SheetRecord; sheet: ComputedSheet }) {
  const { t, i18n } = useTranslation();
  const P = record.players;
  const fanPays = rulesOf(record) === 'fan-pays';
  // the hand after the sheet's: its round (past the North round when the game is over) and dealership
  const next = sheet.next;
  const nextRound = next?.round ?? ROUND_HEAD.length;
  const cell = (i: number, p: number) => {
    const row = sheet.rows[i];
    if (!row) return '';
    return row.hand.penalties.length > 0 ? `${signed(row.penalties[p])} ${signed(row.payments[p])}` : signed(row.delta[p]);
  };
  return (
    <div className="session-print" data-testid="printable-sheet">
      <table>
        <tbody>
          <tr><th scope="row">{t('session.print.tournament')}</th><td colSpan={3}>{record.meta.tournament ?? ''}</td></tr>
          <tr>
            <th scope="row">{t('session.print.date')}</th><td>{record.meta.date ?? ''}</td>
            <th scope="row">{t('session.print.session')}</th><td>{record.meta.session ?? ''}</td>
          </tr>
          <tr><th scope="row">{t('session.print.table')}</th><td colSpan={3}>{record.meta.table ?? ''}</td></tr>
          {P.map((name, p) => (
            <tr key={name}><th scope="row">{t('session.print.player', { n: p + 1 })}</th><td colSpan={3}>{name}</td></tr>
          ))}
        </tbody>
      </table>
      {ROUND_HEAD.map(([zh, en], round) => {
        const seating = ROUND_SEATING[round];
        // the round's hands: four in MCR; in Fan Pays four dealerships of one hand or more
        const rows = sheet.rows.filter((r) => r.seating.round === round);
        const lastIndex = rows.length ? rows[rows.length - 1]!.index : -1;
        const roundDone = rows.length > 0 && nextRound > round;
        // a line for each hand played, and one for each dealership still to come
        const toCome = nextRound > round ? 0 : nextRound < round ? HANDS_PER_ROUND : HANDS_PER_ROUND - next!.handInRound + 1;
        const lines = rows.length + toCome;
        return (
          <table key={en} aria-label={`${zh} ${en}`}>
            <thead>
              <tr><th className="round-title" colSpan={5}>{zh} {en}</th></tr>
              <tr>
                <th scope="col">{t('session.print.hand')}</th>
                {P.map((name, p) => <th key={name} scope="col">{name} ({POSITION[seating.indexOf(p)]})</th>)}
              </tr>
            </thead>
            <tbody>
              {Array.from({ length: lines }, (_, k) => {
                const row = rows[k];
                // an empty line: MCR knows its hand's number, Fan Pays does not (the deal may stay)
                const i = row ? row.index : fanPays ? -1 : round * HANDS_PER_ROUND + k;
                return [
                  <tr key={`h${round}-${k}`} className="hand-row">
                    {/* Fan Pays: who dealt, since a dealer may deal several hands */}
                    <th scope="row">{i >= 0 ? i + 1 : ''}{fanPays && row && <small className="print-dealer"> {P[row.seating.dealer]}</small>}</th>
                    {P.map((name, p) => <td key={name} className="num">{row ? cell(i, p) : ''}</td>)}
                  </tr>,
                  <tr key={`r${round}-${k}`} className="running-row">
                    <th scope="row" />
                    {P.map((name, p) => <td key={name} className="num">{row ? minus(row.running[p]) : ''}</td>)}
                  </tr>,
                ];
              })}
              <tr className="table-score">
                <th scope="row">{t('session.print.tableScore')}</th>
                {P.map((name, p) => <td key={name} className="num">{roundDone ? minus(sheet.rows[lastIndex].running[p]) : ''}</td>)}
              </tr>
              <tr className="sign">
                <th scope="row">{t('session.print.sign')}</th>
                {P.map((name) => <td key={name} />)}
              </tr>
            </tbody>
          </table>
        );
      })}
      <table>
        <tbody>
          <tr>
            <th scope="row">{t('session.total')}</th>
            {sheet.totals.map((v, p) => <td key={P[p]} className="num">{minus(v)}</td>)}
          </tr>
          <tr>
            <th scope="row">{t('session.tablePoints')}</th>
            {sheet.tablePoints.map((v, p) => <td key={P[p]} className="num">{sheet.complete ? tablePoints(v, i18n.language) : ''}</td>)}
          </tr>
        </tbody>
      </table>
    </div>
  );
}
