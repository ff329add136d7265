// @vitest-environment jsdom
/**
 * A scored hand goes on the score sheet once: the result screen remembers which
 * sheet hand it became across tab switches and reloads, describes that hand's
 * seats (not the next hand's), updates it when the hand is corrected, and still
 * adds new work as the next hand.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import type { ReactElement } from 'react';
import { ResultView } from '../../src/app/result/ResultView.tsx';
import { ConditionsView } from '../../src/app/conditions/ConditionsView.tsx';
import { historyOf, loadTiles, setConditions, type History } from '../../src/app/model/commands.ts';
import type { Work } from '../../src/app/model/work.ts';
import { resetRulesetChoice } from '../../src/app/ruleset/active.ts';
import { sessionResources } from '../../src/app/session/i18n.ts';
import { markHistory, sheetHandOf, sheetMarkOf, sheetPlace, type MarkedWork, type SheetMark } from '../../src/app/session/sheetMark.ts';
import {
  addScoredHandTo, commands, createSessionStore, memoryStorage, replaceScoredHandIn, type SessionStore,
} from '../../src/app/session/store.ts';
import { SessionStoreProvider } from '../../src/app/session/useSession.ts';
import { StoreProvider } from '../../src/app/state/context.tsx';
import { createStore, initialState, type Store } from '../../src/app/state/store.ts';
import { createSheet, addHand, type SheetRecord } from '../../src/engine/sheet.ts';
import { work } from './helpers.tsx';

// The app merges the session's strings at start-up (main.tsx); so do these tests.
for (const [lng, bundle] of Object.entries(sessionResources)) i18next.addResourceBundle(lng, 'translation', bundle, true, false);

const PLAYERS = ['Anders', 'Bente', 'Claus', 'Dorte'];
// The audit's hand: 123456789m 234s 55p, won on the 5p, East winning on North's discard.
const CODES = '1m 2m 3m 4m 5m 6m 7m 8m 9m 2s 3s 4s 5p 5p';
const audited = (): Work => work({ codes: CODES, sets: [], winningUid: 't14', conditions: { seatWind: 'E', selfDrawn: false, discarder: 'N' } });

beforeEach(() => { localStorage.clear(); resetRulesetChoice({ global: 'mcr', table: null }); });
afterEach(() => { cleanup(); localStorage.clear(); });

async function openTable(storage = memoryStorage()): Promise<{ session: SessionStore; storage: ReturnType<typeof memoryStorage> }> {
  const session = createSessionStore(storage);
  await session.load();
  if (!session.getState().record) act(() => session.perform(commands.start(PLAYERS)));
  return { session, storage };
}

function show(ui: ReactElement, session: SessionStore, app: Store) {
  return render(<SessionStoreProvider store={session}><StoreProvider store={app}>{ui}</StoreProvider></SessionStoreProvider>);
}

/** What a reload gives back: the work's history as saved (JSON), a new session store on the same storage. */
async function reload(app: Store, storage: ReturnType<typeof memoryStorage>) {
  cleanup();
  const history = JSON.parse(JSON.stringify(app.get().history)) as History;
  const again = createStore({ ...initialState(), history, step: app.get().step });
  const { session } = await openTable(storage);
  return { app: again, session };
}

const hands = (s: SessionStore) => s.getState().record!.hands;


/** An open table and a scored hand on the result screen, added to the sheet as hand 1. */
async function addedAsHand1() {
  const { session } = await openTable();
  const app = createStore({ ...initialState(), history: historyOf(audited()), step: 'result' });
  const user = userEvent.setup();
  show(<ResultView />, session, app);
  await user.click(await screen.findByRole('button', { name: 'Add to the score sheet: hand 1, won by Anders' }));
  return { session, app, user };
}
describe('add to the score sheet, once', () => {
  it('after adding, a remount (tab switch) and a reload show "added as hand 1", with no second add', async () => {
    const { session, storage } = await openTable();
    const app = createStore({ ...initialState(), history: historyOf(audited()), step: 'result' });
    const user = userEvent.setup();
    show(<ResultView />, session, app);
    await user.click(await screen.findByRole('button', { name: 'Add to the score sheet: hand 1, won by Anders' }));
    expect(screen.getByText('Added as hand 1 on the score sheet.')).toBeTruthy();
    expect(hands(session)).toHaveLength(1);
    expect(hands(session)[0]).toMatchObject({ kind: 'win', winner: 0, discarder: 3, source: 'scored' });

    // To the Table tab and back: the result screen is mounted again.
    cleanup();
    show(<ResultView />, session, app);
    const panel = await screen.findByTestId('add-to-table');
    expect(panel.dataset.state).toBe('added');
    expect(within(panel).queryByRole('button', { name: /hand 2/ })).toBeNull();
    expect((within(panel).getByRole('button', { name: 'Add to the score sheet: hand 1, won by Anders' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(panel).getByText('Added as hand 1 on the score sheet.')).toBeTruthy();
    expect(within(panel).getByRole('link', { name: 'View the score sheet' }).getAttribute('href')).toBe('#/table');

    // A reload on the result screen: the same, from what was saved.
    await session.flushed();
    const r = await reload(app, storage);
    show(<ResultView />, r.session, r.app);
    const again = await screen.findByTestId('add-to-table');
    expect(again.dataset.state).toBe('added');
    expect(within(again).getByText('Added as hand 1 on the score sheet.')).toBeTruthy();
    expect(within(again).queryByRole('button', { name: /hand 2/ })).toBeNull();
    expect(hands(r.session)).toHaveLength(1);
  });

  it('the win screen names the players of the hand being scored, also once it is on the sheet', async () => {
    const { session } = await openTable();
    const app = createStore({ ...initialState(), history: historyOf(audited()), step: 'conditions' });
    const user = userEvent.setup();
    const seats = () => within(screen.getByRole('group', { name: 'Your seat wind' })).getAllByRole('button').map((b) => b.textContent);
    show(<ConditionsView onNext={() => undefined} />, session, app);
    expect(seats()).toEqual(['East · Anders', 'South · Bente', 'West · Claus', 'North · Dorte']);
    cleanup();
    show(<ResultView />, session, app);
    await user.click(await screen.findByRole('button', { name: 'Add to the score sheet: hand 1, won by Anders' }));
    cleanup();
    show(<ConditionsView onNext={() => undefined} />, session, app);
    // Hand 2 would seat Bente East; this work is hand 1.
    expect(seats()).toEqual(['East · Anders', 'South · Bente', 'West · Claus', 'North · Dorte']);
  });

  it('a hand corrected after it was added updates its sheet hand (penalties kept) instead of adding another', async () => {
    const { session, app, user } = await addedAsHand1();
    const before = hands(session)[0];
    // The referee writes a penalty on hand 1 at the table.
    act(() => session.perform(commands.edit(0, { ...before, penalties: [{ player: 2, points: 30, split: true }] })));

    // The player corrects the hand: won self-drawn after all.
    act(() => app.run(setConditions({ selfDrawn: true })));
    const panel = screen.getByTestId('add-to-table');
    expect(panel.dataset.state).toBe('changed');
    expect(within(panel).getByText('This hand is on the score sheet as hand 1, and it has changed since.')).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: /^Add to the score sheet/ })).toBeNull();
    await user.click(within(panel).getByRole('button', { name: 'Update hand 1 on the score sheet, won by Anders' }));
    expect(hands(session)).toHaveLength(1);
    const after = hands(session)[0];
    expect(after).toMatchObject({ kind: 'win', winner: 0, selfDrawn: true, discarder: null, source: 'scored', penalties: [{ player: 2, points: 30, split: true }] });
    expect(after.kind === 'win' && before.kind === 'win' && after.link !== before.link).toBe(true);
    expect(screen.getByTestId('add-to-table').dataset.state).toBe('added');
    expect(screen.getByText('Hand 1 on the score sheet updated.')).toBeTruthy();

    // Undo in the scanner goes back to the hand as first added: still hand 1, to update again.
    act(() => app.undo());
    expect(screen.getByTestId('add-to-table').dataset.state).toBe('changed');
    expect(hands(session)).toHaveLength(1);
  });

  it('new work is added as the next hand; the hand before stays linked to hand 1', async () => {
    const { session, app, user } = await addedAsHand1();
    // The same tiles typed in again are a new hand of the game (fresh tiles): hand 2, Bente East.
    act(() => app.run(loadTiles(CODES.split(' ').map((code) => ({ code })), 'manual', null, { sets: () => [], winningIndex: 13 })));
    expect(screen.getByTestId('add-to-table').dataset.state).toBe('new');
    await user.click(screen.getByRole('button', { name: 'Add to the score sheet: hand 2, won by Bente' }));
    expect(hands(session)).toHaveLength(2);
    expect(hands(session)[1]).toMatchObject({ winner: 1, discarder: 0 });
    expect(screen.getByText('Added as hand 2 on the score sheet.')).toBeTruthy();
    // Undo the load: the first hand's work, which is hand 1.
    act(() => app.undo());
    expect(screen.getByTestId('add-to-table').dataset.state).toBe('added');
    expect(screen.getByText('Added as hand 1 on the score sheet.')).toBeTruthy();
  });

  it('a hand deleted from the sheet may be added again, and the screen says why', async () => {
    const { session, user } = await addedAsHand1();
    act(() => session.perform(commands.remove(0)));
    expect(screen.getByTestId('add-to-table').dataset.state).toBe('new');
    expect(screen.getByText('This hand was added as hand 1, but it is no longer on the score sheet.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add to the score sheet: hand 1, won by Anders' }));
    expect(hands(session)).toHaveLength(1);
    expect(screen.getByTestId('add-to-table').dataset.state).toBe('added');
  });

  it('speaks the player\'s language', async () => {
    const { app } = await addedAsHand1();
    for (const [lng, view, update] of [
      ['pl', 'Pokaż arkusz wyników', 'Zaktualizuj rozdanie 1 w arkuszu wyników, wygrywa Anders'],
      ['sv', 'Visa poängbladet', 'Uppdatera giv 1 i poängbladet, vunnen av Anders'],
      ['zh', '查看计分表', '更新计分表第 1 盘，Anders 和牌'],
    ] as const) {
      await act(() => i18next.changeLanguage(lng));
      act(() => app.run(setConditions({ selfDrawn: true })));
      expect(screen.getByRole('link', { name: view })).toBeTruthy();
      expect(screen.getByRole('button', { name: update })).toBeTruthy();
      act(() => app.undo());
    }
    await act(() => i18next.changeLanguage('en'));
  });
});

describe('replaceScoredHandIn', () => {
  it('maps seats through the replaced hand\'s own seating (not the next hand\'s) and keeps its penalties', async () => {
    const session = createSessionStore(memoryStorage());
    await session.load();
    session.perform(commands.start(PLAYERS, {}, 'fan-pays'));
    const fp = { ruleset: 'fan-pays', selfDrawn: true, points: 21 } as const;
    // Hand 1: Bente (South) wins, so the deal passes to her; hand 2: Bente wins as dealer (East).
    expect(addScoredHandTo(session, { ...fp, winnerSeat: 'S', payments: { E: -21, S: 63, W: -21, N: -21 } }).ok).toBe(true);
    session.perform(commands.edit(0, { ...hands(session)[0], penalties: [{ player: 3, points: 3, split: true }] }));
    expect(addScoredHandTo(session, { ...fp, winnerSeat: 'E', payments: { E: 63, S: -21, W: -21, N: -21 } }).ok).toBe(true);
    // Hand 1 seats Anders E, Bente S, Claus W, Dorte N; hand 3 would seat Bente E ... Dorte W.
    const r = replaceScoredHandIn(session, 0, { ...fp, winnerSeat: 'W', payments: { E: -22, S: -17, W: 60, N: -21 }, link: 'http://x/#/h/b.1' });
    expect(r).toMatchObject({ ok: true, handNumber: 1 });
    expect(hands(session)).toHaveLength(2);
    expect(hands(session)[0]).toMatchObject({ winner: 2, amounts: [-22, -17, 60, -21], link: 'http://x/#/h/b.1', penalties: [{ player: 3, points: 3, split: true }] });
    // Anders winning hand 1 as dealer would keep the deal with him, and hand 2, scored with Bente
    // dealing, would get another dealer: refused, nothing changed
    expect(replaceScoredHandIn(session, 0, { ...fp, winnerSeat: 'E', payments: { E: 63, S: -21, W: -21, N: -21 } })).toMatchObject({ ok: false, code: 'DEAL_MOVED' });
    expect(hands(session)[0]).toMatchObject({ winner: 2 });
    expect(replaceScoredHandIn(session, 5, { ...fp, winnerSeat: 'S' })).toMatchObject({ ok: false, code: 'NO_SUCH_HAND' });
  });
});

describe('the sheet mark (store.ts)', () => {
  const record = (links: (string | undefined)[]): SheetRecord => links.reduce<SheetRecord>(
    (r, link) => addHand(r, { kind: 'win', winner: 0, selfDrawn: true, discarder: null, points: 8, source: link ? 'scored' : 'typed', ...(link ? { link } : {}), penalties: [] }),
    createSheet(PLAYERS),
  );
  const marked = (w: Work, mark: SheetMark): Work => ({ ...w, sheet: mark }) as MarkedWork;

  it('finds the sheet hand by its link, also after the hands before it were deleted, or by another address', () => {
    const w = marked(audited(), { index: 2, link: 'http://a/#/h/X.1', uids: ['t1', 't2'] });
    expect(sheetHandOf(record(['http://a/#/h/A.1', undefined, 'http://a/#/h/X.1']), w)).toBe(2);
    expect(sheetHandOf(record(['http://a/#/h/X.1']), w)).toBe(0);
    // The app moved: the same hand link on another page address.
    expect(sheetHandOf(record(['https://b/app/#/h/X.1']), w)).toBe(0);
    expect(sheetHandOf(record(['http://a/#/h/Y.1']), w)).toBeNull();
    expect(sheetHandOf(null, w)).toBeNull();
  });

  it('belongs to the work whose tiles it names: not to new tiles that carried it along', () => {
    const mark = { index: 0, link: 'http://a/#/h/X.1', uids: ['t1', 't2'] };
    const fresh = marked(work({ tiles: [{ uid: 't15', code: '1m' }] }), mark);
    expect(sheetMarkOf(fresh)).toBeNull();
    expect(sheetPlace(record(['http://a/#/h/X.1']), fresh, 'http://a/#/h/X.1')).toMatchObject({ kind: 'new', hand: { handNumber: 2 }, lost: null });
    expect(sheetMarkOf(marked(audited(), mark))).toEqual(mark);
  });

  it('markHistory marks every snapshot of the work, and leaves other works alone', () => {
    const other = marked(work({ tiles: [{ uid: 't1', code: '1m' }] }), { index: 0, link: 'old', uids: ['t1'] });
    const mine = work({ tiles: [{ uid: 't20', code: '2m' }, { uid: 't21', code: '3m' }] });
    const edited = { ...mine, tiles: [{ uid: 't21', code: '3m' }] };
    const mark = { index: 1, link: 'new', uids: ['t20', 't21'] };
    const h = markHistory({ past: [other, mine], present: edited, future: [] }, mark);
    expect((h.past[0] as MarkedWork).sheet).toEqual({ index: 0, link: 'old', uids: ['t1'] });
    expect((h.past[1] as MarkedWork).sheet).toEqual(mark);
    expect((h.present as MarkedWork).sheet).toEqual(mark);
  });
});
