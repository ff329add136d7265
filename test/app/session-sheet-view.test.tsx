// @vitest-environment jsdom
/**
 * The score sheet on a phone: all four players' columns side by side (what
 * happened in a hand goes on a line of its own), tap targets of at least 44 px,
 * and refused hands and files explained in words, in the player's language.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import type { TFunction } from 'i18next';
import { TableSession } from '../../src/app/session/TableSession.tsx';
import { SessionStoreProvider } from '../../src/app/session/useSession.ts';
import { sheetErrorMessage } from '../../src/app/session/i18n.ts';
import { scoredHandToSheetHand } from '../../src/app/session/seats.ts';
import { addScoredHandTo, commands, createSessionStore, memoryStorage, type SessionStore } from '../../src/app/session/store.ts';
import { addHand, createSheet, deleteHand, editHand, isSheetError, parseGameRecord, parseSheetJson, seatingsOf, type SheetError, type WinHand } from '../../src/engine/sheet.ts';
import { testI18n } from '../sheet/i18n-setup.ts';

const PLAYERS = ['Anders', 'Bente', 'Claus', 'Dorte'];
const CSS = readFileSync(resolve(import.meta.dirname, '../../src/app/session/session.css'), 'utf8');

beforeEach(() => localStorage.clear());
afterEach(() => { cleanup(); document.head.querySelectorAll('style[data-test]').forEach((s) => s.remove()); });

async function table(lng = 'en'): Promise<SessionStore> {
  const store = createSessionStore(memoryStorage());
  await store.load();
  act(() => store.perform(commands.start(PLAYERS, { tournament: 'Club night' })));
  render(
    <I18nextProvider i18n={testI18n(lng)}>
      <SessionStoreProvider store={store}><TableSession /></SessionStoreProvider>
    </I18nextProvider>,
  );
  return store;
}

/** The columns a row takes up. */
const width = (row: HTMLTableRowElement) => [...row.cells].reduce((n, c) => n + c.colSpan, 0);

describe('the score sheet on a phone', () => {
  it('has a column per player and nothing else beside them; what happened has a row of its own', async () => {
    const store = await table();
    act(() => { addScoredHandTo(store, { winnerSeat: 'E', selfDrawn: false, discarderSeat: 'N', points: 22, link: 'http://x/#/h/a.1' }); });
    act(() => store.perform(commands.add({ kind: 'draw', penalties: [{ player: 2, points: 30, split: true }] })));
    const sheet = screen.getByRole('table', { name: /^Club night/ });
    expect(within(sheet).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Hand', ...PLAYERS]);
    for (const row of sheet.querySelectorAll('tr')) expect(width(row)).toBe(5);

    const hand1 = screen.getByTestId('hand-1');
    const [scores, what, running] = [...hand1.querySelectorAll('tr')];
    expect([...scores.cells].map((c) => c.textContent)).toEqual(['1 East 1', '+46', '−8', '−8', '−30']);
    expect(what.cells).toHaveLength(1);
    expect(what.textContent).toMatch(/^What happened: Dealer: Anders · Anders wins 22 on Dorte's discard \(scored\)verify handEditDelete$/);
    expect([...running.cells].slice(1).map((c) => c.textContent)).toEqual(['46', '−8', '−8', '−30']);
    expect(within(what).getByRole('link', { name: 'verify hand' }).getAttribute('href')).toBe('http://x/#/h/a.1');
    expect(within(what).getByRole('button', { name: 'Edit hand 1' })).toBeTruthy();
    expect(screen.getByTestId('hand-2').textContent).toContain('Claus penalty 30 (shared); Draw');
    expect([...screen.getByTestId('hand-2').querySelector('tr')!.cells].map((c) => c.textContent)).toEqual(['2 East 2', '+10 0', '+10 0', '−30 0', '+10 0']);
  });

  it('the styles fit the sheet to the screen, and give every button and the hand link 44 x 44 px', async () => {
    const style = document.createElement('style');
    style.dataset.test = '';
    style.textContent = CSS;
    document.head.appendChild(style);
    const store = await table();
    act(() => { addScoredHandTo(store, { winnerSeat: 'E', selfDrawn: true, points: 8, link: 'http://x/#/h/a.1' }); });
    const sheet = getComputedStyle(screen.getByRole('table', { name: /^Club night/ }));
    expect([sheet.tableLayout, sheet.width]).toEqual(['fixed', '100%']);
    for (const name of ['Edit hand 1', 'Delete hand 1', 'Undo', 'Type in a hand']) {
      const s = getComputedStyle(screen.getByRole('button', { name }));
      expect([name, s.minHeight, s.minWidth]).toEqual([name, '44px', '44px']);
    }
    const link = getComputedStyle(screen.getByRole('link', { name: 'verify hand' }));
    expect([link.display, link.minHeight, link.minWidth]).toEqual(['inline-flex', '44px', '44px']);
    expect(CSS).not.toMatch(/min-height:\s*(3\d|40)px/);
  });
});

describe('refused hands and files, in words', () => {
  it('a typed hand: "Hand 1: the winner cannot also be the discarder.", in each language', async () => {
    const user = userEvent.setup();
    for (const [lng, typeHand, discarder, add, text] of [
      ['en', 'Type in a hand', 'Discarded by', 'Add to sheet', 'Hand 1: the winner cannot also be the discarder.'],
      ['pl', 'Wpisz rozdanie', 'Zrzucił', 'Dodaj do arkusza', 'Rozdanie 1: zwycięzca nie może być jednocześnie zrzucającym.'],
      ['sv', 'Skriv in en hand', 'Sakad från', 'Lägg till i protokollet', 'Hand 1: vinnaren kan inte också vara den som sakade.'],
      ['zh', '手动输入一盘', '点炮者', '加入计分表', '第 1 盘：和牌者不能同时是点炮者。'],
    ] as const) {
      const store = await table(lng);
      await user.click(screen.getByRole('button', { name: typeHand }));
      await user.selectOptions(screen.getByLabelText(discarder), 'Anders');
      await user.click(screen.getByRole('button', { name: add }));
      expect(screen.getByRole('alert').textContent).toBe(text);
      expect(store.getState().record!.hands).toEqual([]);
      cleanup();
    }
  });

  it('too few points, by the table\'s rules', async () => {
    const user = userEvent.setup();
    await table();
    await user.click(screen.getByRole('button', { name: 'Type in a hand' }));
    await user.clear(screen.getByLabelText('Points'));
    await user.type(screen.getByLabelText('Points'), '3');
    await user.click(screen.getByRole('button', { name: 'Add to sheet' }));
    expect(screen.getByRole('alert').textContent).toBe('Hand 1: a win needs at least 8 points.');
  });

  it('starting a table with two players of the same name', async () => {
    const user = userEvent.setup();
    render(
      <I18nextProvider i18n={testI18n('sv')}>
        <SessionStoreProvider store={createSessionStore(memoryStorage())}><TableSession /></SessionStoreProvider>
      </I18nextProvider>,
    );
    await screen.findByRole('heading', { name: 'Starta ett bord' });
    for (let i = 0; i < 4; i++) await user.type(screen.getByLabelText(new RegExp(`^Spelare ${i + 1} `)), i === 3 ? 'Anders' : PLAYERS[i]);
    await user.click(screen.getByRole('button', { name: 'Starta bordet' }));
    expect(screen.getByRole('alert').textContent).toBe('Två spelare har samma namn.');
  });

  it('an import names the problem in words and keeps the engine\'s message under "Details"', async () => {
    const user = userEvent.setup();
    for (const [lng, text] of [
      ['en', 'Could not import the file: the field “players” is missing.'],
      ['pl', 'Nie udało się zaimportować pliku: brak pola „players”.'],
      ['zh', '无法导入文件：缺少字段“players”。'],
    ] as const) {
      await table(lng);
      await user.upload(screen.getByTestId('session-import'), new File([JSON.stringify({ hands: [] })], 'bad.json', { type: 'application/json' }));
      const alert = await screen.findByRole('alert');
      expect(alert.querySelector('p')!.textContent).toBe(text);
      expect(alert.querySelector('details code')!.textContent).toBe('field "players": this field is missing');
      cleanup();
    }
    await table();
    await user.upload(screen.getByTestId('session-import'), new File(['{"players": ["a", "b", "c", "d"], "hands": [{"winner": "a", "discarder": "b", "points": 3}]}'], 'low.json'));
    await waitFor(() => expect(screen.getByRole('alert').querySelector('p')!.textContent).toBe('Could not import the file: Hand 1: a win needs at least 8 points.'));
    cleanup();
    await table();
    await user.upload(screen.getByTestId('session-import'), new File(['{"rules": "fan-pays", "players": ["a", "b", "c", "d"], "hands": [{"winner": "a", "self_drawn": true, "points": 0}]}'], 'fp.json'));
    await waitFor(() => expect(screen.getByRole('alert').querySelector('p')!.textContent).toBe('Could not import the file: Hand 1: a win needs at least one fan.'));
    cleanup();
    await table();
    await user.upload(screen.getByTestId('session-import'), new File(['not json'], 'x.json'));
    await waitFor(() => expect(screen.getByRole('alert').querySelector('p')!.textContent).toBe('Could not import the file: the file is not a score sheet in JSON.'));
  });
});

/** A Fan Pays game played to its end (each dealer loses the deal at once, to the player across,
 * except the North round's last dealer, who first wins one hand), and the refusals it gives. */
function fanPaysRefusals(win: (over: Partial<WinHand>) => WinHand): [string, SheetError, { rules: 'fan-pays' }, string][] {
  const refused = (f: () => unknown): SheetError => {
    try { f(); } catch (e) { if (isSheetError(e)) return e; throw e; }
    throw new Error('not refused');
  };
  let game = createSheet(PLAYERS, {}, 'fan-pays');
  for (let deal = 0; deal < 16; deal++) {
    const s = seatingsOf(game).next!;
    if (deal === 15) game = addHand(game, win({ winner: s.dealer, points: 2 }));
    game = addHand(game, win({ winner: s.positions[(s.positions.indexOf(s.dealer) + 2) % 4]!, points: 2 }));
  }
  // hand 2, scored in the app, was dealt by Bente after Claus won hand 1
  const scored = addHand(addHand(createSheet(PLAYERS, {}, 'fan-pays'), win({ winner: 2, points: 2 })), win({ winner: 1, points: 2, source: 'scored', amounts: [-2, 6, -2, -2] }));
  const ctx = { rules: 'fan-pays' } as const;
  return [
    ['a hand after the end of the game', refused(() => addHand(game, win({ points: 2 }))), ctx, 'The game is over: the deal has gone round the table four times.'],
    ['an edit that ends the game early', refused(() => editHand(game, 15, win({ winner: (seatingsOf(game).seatings[15]!.dealer + 1) % 4, points: 2 }))), ctx, 'This change would end the game with hand 16, before the hands after it; delete those first.'],
    ['an edit that moves the deal under a scored hand', refused(() => editHand(scored, 0, win({ winner: 0, points: 2 }))), ctx, 'This change moves the deal: hand 2, scored in the app, would get another dealer; delete hand 2 and the hands after it first, then score them again.'],
    ['a deletion that moves the deal under a scored hand', refused(() => deleteHand(scored, 0)), ctx, 'This change moves the deal: hand 1, scored in the app, would get another dealer; delete hand 1 and the hands after it first, then score them again.'],
    // hand 3 is Bente's second deal after one win; the hand was scored with her run at 0
    ['a hand scored for another dealer than the sheet\'s', refused(() => scoredHandToSheetHand(scored, { winnerSeat: 'S', selfDrawn: true, points: 2, ruleset: 'fan-pays', dealer: 'E', dealerRun: 0 })), ctx, 'Hand 3: this hand was scored with another dealer or run of wins than the sheet has for it; on the win screen, use the table\'s dealer and score it again.'],
  ];
}

describe('sheetErrorMessage', () => {
  const refused = (f: () => unknown): SheetError => {
    try { f(); } catch (e) { if (isSheetError(e)) return e; throw e; }
    throw new Error('not refused');
  };
  const win = (over: Partial<WinHand>): WinHand => ({ kind: 'win', winner: 0, selfDrawn: true, discarder: null, points: 8, source: 'typed', penalties: [], ...over });
  const mcr = createSheet(PLAYERS);
  const record = { players: PLAYERS, hands: [] as object[] };
  // Every kind of refusal the sheet gives, from the engine itself.
  const cases: [string, SheetError, Parameters<typeof sheetErrorMessage>[2], string][] = [
    ['winner is discarder', refused(() => addHand(mcr, win({ selfDrawn: false, discarder: 0 }))), {}, 'Hand 1: the winner cannot also be the discarder.'],
    ['no discarder', refused(() => addHand(mcr, win({ selfDrawn: false, discarder: null }))), {}, 'Hand 1: say who discarded the winning tile, or mark the win self-drawn.'],
    ['self-drawn with a discarder', refused(() => addHand(mcr, win({ discarder: 1 }))), {}, 'Hand 1: a self-drawn win or a draw has no discarder.'],
    ['too few points', refused(() => addHand(mcr, win({ points: 3 }))), { rules: 'mcr' }, 'Hand 1: a win needs at least 8 points.'],
    ['points not whole', refused(() => addHand(mcr, win({ points: 8.5 }))), {}, 'Hand 1: the points must be a whole number.'],
    ['penalty', refused(() => addHand(mcr, { kind: 'draw', penalties: [{ player: 0, points: 30, split: true }, { player: 1, points: 10, split: true }] })), {}, 'Hand 1: penalty 2 must be a whole number of points above 0, and a shared penalty must divide by 3.'],
    ['amounts on MCR', refused(() => addHand(mcr, win({ amounts: [24, -8, -8, -8] }))), {}, 'Hand 1: amounts per player are kept only on Fan Pays tables.'],
    ['player name', refused(() => createSheet(['a', ' ', 'c', 'd'])), {}, 'Player 2 needs a name.'],
    ['three players', refused(() => createSheet(['a', 'b', 'c'])), {}, 'A table needs exactly four players.'],
    ['unknown player', refused(() => parseGameRecord({ ...record, hands: [{ winner: 'Zed', self_drawn: true, points: 8 }] })), { importing: true }, 'Hand 1: “winner” names someone who is not one of the four players.'],
    ['draw with points', refused(() => parseGameRecord({ ...record, hands: [{ draw: true, points: 8 }] })), { importing: true }, 'Hand 1: a draw has no winner, self-drawn mark or points.'],
    ['no winner', refused(() => parseGameRecord({ ...record, hands: [{ points: 8 }] })), { importing: true }, 'Hand 1: a hand needs a winner, or mark it a draw.'],
    ['wrong type', refused(() => parseGameRecord({ ...record, hands: [{ winner: 'Anders', points: 'eight' }] })), { importing: true }, 'Hand 1: the field “points” has the wrong kind of value.'],
    ['unknown rules', refused(() => parseSheetJson(JSON.stringify({ ...record, rules: 'riichi' }))), { importing: true }, 'The file names rules this app does not know.'],
    ['no such hand', refused(() => commands.remove(3)(mcr)), {}, 'There is no hand 4 on this sheet.'],
    ['no table', refused(() => commands.add(win({}))(null)), {}, 'Start a table first.'],
    ...fanPaysRefusals(win),
  ];
  const t = testI18n('en').t as TFunction;
  it.each(cases)('%s', (_name, err, ctx, text) => {
    expect(sheetErrorMessage(t, err, ctx)).toBe(text);
  });

  it('a scored hand under other rules names both rulesets', () => {
    const store = createSessionStore(memoryStorage());
    store.perform(commands.start(PLAYERS, {}, 'fan-pays'));
    const r = addScoredHandTo(store, { winnerSeat: 'E', selfDrawn: true, points: 8, ruleset: 'mcr' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(sheetErrorMessage(t, r.error!, { rules: 'fan-pays', scored: 'mcr' })).toBe('Hand 1: this hand was scored under MCR rules, but the table plays Fan Pays.');
  });

  it.each(['pl', 'sv', 'zh'] as const)('%s: never the engine\'s English', (lng) => {
    const tl = testI18n(lng).t as TFunction;
    for (const [, err, ctx] of cases) {
      const text = sheetErrorMessage(tl, err, ctx);
      expect(text).not.toContain('field "');
      expect(text).not.toContain(err.detail);
      expect(text).not.toMatch(/session\.error/);
    }
  });
});
