// @vitest-environment jsdom
/** A Fan Pays table: the sheet keeps per-fan payments, and hand links carry the card-002 context. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { fanPaysContext, getRuleset, parseHand } from '../../src/engine/index.ts';
import {
  addHand, computeSheet, createSheet, handPayments, parseGameRecord, sheetToCsv, sheetToGameRecord, SheetError, type WinHand,
} from '../../src/engine/sheet.ts';
import { TableSession } from '../../src/app/session/TableSession.tsx';
import { SessionStoreProvider } from '../../src/app/session/useSession.ts';
import { nextHandInfo } from '../../src/app/session/seats.ts';
import { addScoredHandTo, commands, createSessionStore, memoryStorage, STORAGE_KEY, type SessionStore } from '../../src/app/session/store.ts';
import { SharedHandView } from '../../src/app/share/SharedHandView.tsx';
import { handLinkPayload, openHandLink } from '../../src/app/share/link.ts';
import { crc32Hex } from '../../src/app/share/crc32.ts';
import { testI18n } from '../sheet/i18n-setup.ts';

afterEach(cleanup);

const PLAYERS = ['Anders', 'Bente', 'Claus', 'Dorte'];
const win = (over: Partial<WinHand>): WinHand => ({ kind: 'win', winner: 0, selfDrawn: true, discarder: null, points: 5, source: 'typed', penalties: [], ...over });

describe('sheet.ts: Fan Pays tables', () => {
  it('pays per fan with no minimum: self-drawn all three pay, a discard only the discarder', () => {
    expect(handPayments(win({ points: 5 }), 'fan-pays')).toEqual([15, -5, -5, -5]);
    expect(handPayments(win({ winner: 2, selfDrawn: false, discarder: 1, points: 3 }), 'fan-pays')).toEqual([0, -3, 3, 0]);
    // The same hand under MCR: 8 + X from the discarder, 8 from the others.
    expect(handPayments(win({ winner: 2, selfDrawn: false, discarder: 1, points: 8 }))).toEqual([-8, -16, 32, -8]);
    // The scorer's own amounts (dealer penalty, secret kongs) win over the plain rule.
    expect(handPayments(win({ winner: 1, points: 21, amounts: [-22, 60, -17, -21] }), 'fan-pays')).toEqual([-22, 60, -17, -21]);
  });

  it('records the ruleset and the amounts, checks them, and keeps MCR records as they were', () => {
    const mcr = createSheet(PLAYERS);
    expect('rules' in mcr).toBe(false);
    expect(() => addHand(mcr, win({ points: 5 }))).toThrow(/at least 8 points/);
    expect(() => addHand(mcr, win({ points: 8, amounts: [24, -8, -8, -8] }))).toThrow(/only for Fan Pays tables/);
    const fp = addHand(addHand(createSheet(PLAYERS, {}, 'fan-pays'), win({ points: 2 })), win({ winner: 1, points: 21, amounts: [-22, 60, -17, -21] }));
    expect(computeSheet(fp).totals).toEqual([-16, 58, -19, -23]);
    const bad = (amounts: number[]) => { try { addHand(fp, win({ winner: 1, amounts })); return null; } catch (e) { return e as SheetError; } };
    expect(bad([-1, 2, 0, 0])?.message).toMatch(/hand 3, field "amounts": the amounts must add up to 0/);
    expect(bad([1, -1, 0, 0])?.message).toMatch(/the winner must receive/);
    expect(bad([1, 2, -3])?.code).toBe('MALFORMED_RECORD');
    expect(() => addHand(fp, win({ points: 0 }))).toThrow(/at least 1 fan/);
    const json = sheetToGameRecord(fp);
    expect(json.rules).toBe('fan-pays');
    expect(json.hands[1].amounts).toEqual([-22, 60, -17, -21]);
    expect(parseGameRecord(JSON.parse(JSON.stringify(json)))).toEqual(fp);
    expect(sheetToCsv(fp).split('\r\n')[0]).toContain(',self_drawn,fans,source,');
    expect(() => parseGameRecord({ ...json, rules: 'riichi' })).toThrow(SheetError);
  });
});

function mount(store: SessionStore) {
  return render(
    <I18nextProvider i18n={testI18n('en')}>
      <SessionStoreProvider store={store}><TableSession /></SessionStoreProvider>
    </I18nextProvider>,
  );
}
const totals = () => [0, 1, 2, 3].map((p) => screen.getByTestId(`total-${p}`).textContent);

describe('<TableSession /> with Fan Pays', () => {
  it('starts a Fan Pays table, takes a scored hand with its amounts and a typed hand in fans', async () => {
    const storage = memoryStorage();
    const seen = vi.fn();
    const store = createSessionStore(storage, (r) => seen(r?.rules ?? (r ? 'mcr' : null)));
    const user = userEvent.setup();
    mount(store);
    await screen.findByRole('button', { name: 'Start table' });
    for (let i = 0; i < 4; i++) await user.type(screen.getByLabelText(new RegExp(`^Player ${i + 1} `)), PLAYERS[i]);
    expect((screen.getByRole('radio', { name: 'MCR' }) as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('radio', { name: 'Fan Pays' }));
    expect(screen.getByText(/no minimum, paid per fan/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Start table' }));
    expect(screen.getByTestId('table-rules').textContent).toBe('Fan Pays');
    expect(seen).toHaveBeenLastCalledWith('fan-pays');

    // Hand 1: Bente sits South; the result's seat payments (E -22, S +60, W -17, N -21) go to the players at those seats.
    let r!: ReturnType<typeof addScoredHandTo>;
    act(() => { r = addScoredHandTo(store, { winnerSeat: 'S', selfDrawn: true, points: 21, ruleset: 'fan-pays', payments: { E: -22, S: 60, W: -17, N: -21 } }); });
    expect(r.ok).toBe(true);
    expect(totals()).toEqual(['−22', '60', '−17', '−21']);
    expect(screen.getByTestId('hand-1').textContent).toContain('Bente wins 21 fans self-drawn');
    // An MCR-scored hand does not belong on this sheet.
    expect(addScoredHandTo(store, { winnerSeat: 'E', selfDrawn: true, points: 8, ruleset: 'mcr' })).toMatchObject({ ok: false, code: 'CONFLICTING_FIELDS' });

    // Hand 2, typed: Claus wins 3 fans on Anders's discard; only Anders pays.
    await user.click(screen.getByRole('button', { name: 'Type in a hand' }));
    const form = screen.getByRole('form', { name: 'Hand 2' });
    await user.selectOptions(within(form).getByLabelText('Winner'), 'Claus');
    await user.selectOptions(within(form).getByLabelText('Discarded by'), 'Anders');
    await user.clear(within(form).getByLabelText('Fans'));
    await user.type(within(form).getByLabelText('Fans'), '3');
    await user.click(within(form).getByRole('button', { name: 'Add to sheet' }));
    expect(totals()).toEqual(['−25', '60', '−14', '−21']);
    await store.flushed();
    expect((storage.data[STORAGE_KEY] as { record: { rules: string } }).record.rules).toBe('fan-pays');
  });
});

describe('a Fan Pays table passes the deal only when another player wins', () => {
  it('keeps the dealer after their own win, says so, and gives the seats of the hand after it', async () => {
    const store = createSessionStore(memoryStorage());
    mount(store);
    await store.load();
    act(() => { store.perform(commands.start(PLAYERS, {}, 'fan-pays')); });
    // Hand 1: Anders deals (East) and wins self-drawn; he deals hand 2 too, with one win in a row
    act(() => { addScoredHandTo(store, { winnerSeat: 'E', selfDrawn: true, points: 4, ruleset: 'fan-pays' }); });
    let next = nextHandInfo(store.getState().record);
    expect(next).toMatchObject({ handNumber: 2, dealer: 'Anders', dealerRun: 1, prevalentWind: 'E' });
    expect(next!.playerBySeat).toEqual({ E: 'Anders', S: 'Bente', W: 'Claus', N: 'Dorte' });
    expect(screen.getByTestId('next-hand').textContent).toContain('Repeat dealership: Anders deals again (wins in a row: 1).');
    // Hand 2: South (Bente) wins on Anders's discard: the deal passes to Bente
    act(() => { addScoredHandTo(store, { winnerSeat: 'S', selfDrawn: false, discarderSeat: 'E', points: 2, ruleset: 'fan-pays' }); });
    expect(computeSheet(store.getState().record!).rows.map((r) => r.hand.kind === 'win' && PLAYERS[r.hand.winner])).toEqual(['Anders', 'Bente']);
    next = nextHandInfo(store.getState().record);
    expect(next).toMatchObject({ handNumber: 3, dealer: 'Bente', dealerRun: 0 });
    expect(next!.playerBySeat).toEqual({ E: 'Bente', S: 'Claus', W: 'Dorte', N: 'Anders' });
    expect(screen.getByTestId('next-hand').textContent).not.toContain('Repeat dealership');
    // the printed sheet's East round holds both hands of Anders's dealership, and a line for each
    // of the three dealerships to come, without numbers (a dealer may deal again)
    const east = within(screen.getByTestId('printable-sheet')).getByRole('table', { name: '東 EAST' });
    const numbers = within(east).getAllByRole('row').filter((r) => r.classList.contains('hand-row')).map((r) => r.querySelector('th')!.textContent);
    expect(numbers).toEqual(['1 Anders', '2 Anders', '', '', '']);
  });
});

describe('a deletion that would move the deal under a hand scored in the app', () => {
  it('is refused with the reason, and the sheet is kept', async () => {
    const store = createSessionStore(memoryStorage());
    const user = userEvent.setup();
    mount(store);
    await store.load();
    act(() => { store.perform(commands.start(PLAYERS, {}, 'fan-pays')); });
    // hand 1: Claus wins, the deal passes to Bente; hand 2, scored: Bente wins as dealer
    act(() => { store.perform(commands.add(win({ winner: 2, points: 2 }))); });
    act(() => { addScoredHandTo(store, { winnerSeat: 'E', selfDrawn: true, points: 3, ruleset: 'fan-pays', payments: { E: 9, S: -3, W: -3, N: -3 } }); });
    await user.click(screen.getByRole('button', { name: 'Delete hand 1' }));
    expect(screen.getByTestId('sheet-refused').textContent).toBe('This change moves the deal: hand 1, scored in the app, would get another dealer; delete hand 1 and the hands after it first, then score them again.');
    expect(store.getState().record!.hands).toHaveLength(2);
    // deleting the last hand is always possible, and then hand 1 goes too
    await user.click(screen.getByRole('button', { name: 'Delete hand 2' }));
    expect(screen.queryByTestId('sheet-refused')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Delete hand 1' }));
    expect(store.getState().record!.hands).toHaveLength(0);
  });
});

describe('a Fan Pays game past sixteen hands', () => {
  it('is kept over a reload', async () => {
    const storage = memoryStorage();
    const store = createSessionStore(storage);
    await store.load();
    act(() => { store.perform(commands.start(PLAYERS, {}, 'fan-pays')); });
    // Anders wins eighteen hands in a row as dealer
    for (let i = 0; i < 18; i++) act(() => { store.perform(commands.add(win({ winner: 0, points: 2 }))); });
    await store.flushed();
    const again = createSessionStore(storage);
    await again.load();
    expect(again.getState().storageError).toBeNull();
    expect(again.getState().record?.hands).toHaveLength(18);
    expect(nextHandInfo(again.getState().record)).toMatchObject({ handNumber: 19, dealer: 'Anders', dealerRun: 18 });
  });
});

describe('hand links for Fan Pays', () => {
  const hand = parseHand('123m456m789m234p55s678s13f');
  const ctx = fanPaysContext({ seatWind: 'S', selfDrawn: true, flowers: 2, dealerStreak: 1, secretKongs: ['W'], fanValue: 2, dealer: 'E' });
  const result = getRuleset('fan-pays').score(hand, ctx);

  it('carry the ruleset and the card-002 context, so the hand scores the same', () => {
    expect(result.total).toBe(21);
    const shared = openHandLink(handLinkPayload(hand, ctx, result));
    expect(shared.ruleset).toBe('fan-pays');
    expect(shared.ctx).toMatchObject({ dealer: 'E', dealerStreak: 1, secretKongs: ['W'], fanValue: 2, flowers: 2 });
    expect(shared.result).toEqual(result);
  });

  it('refuse a damaged link, and an MCR link that carries Fan Pays conditions', () => {
    const payload = handLinkPayload(hand, ctx, result);
    expect(() => openHandLink(payload.replace(/.(\.[0-9a-f]{8})$/, 'A$1'))).toThrow(/damaged/);
    const [body] = payload.split('.');
    const json = JSON.parse(atob(body.replace(/-/g, '+').replace(/_/g, '/'))) as { r: string };
    json.r = 'mcr';
    const forged = btoa(JSON.stringify(json)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(() => openHandLink(`${forged}.${crc32Hex(forged)}`)).toThrow(expect.objectContaining({ code: 'MALFORMED' }));
  });

  it('SharedHandView shows the fans, the Fan Pays conditions and the payments', () => {
    render(<I18nextProvider i18n={testI18n('en')}><SharedHandView payload={handLinkPayload(hand, ctx, result)} /></I18nextProvider>);
    expect(screen.getByTestId('shared-total').textContent).toBe('21 fans');
    expect(screen.getByTestId('shared-ruleset').textContent).toBe('Rules: Fan Pays (card 002)');
    expect(screen.getByText("Dealer's wins in a row: 1")).toBeTruthy();
    expect(screen.getByText('Secret kongs of other players: West')).toBeTruthy();
    expect(screen.getByText('One fan is worth 2')).toBeTruthy();
    expect(within(screen.getByTestId('shared-payments')).getAllByRole('listitem').map((li) => li.textContent))
      .toEqual(['East: −44', 'South: +120', 'West: −34', 'North: −42']);
    expect(screen.getByRole('status').textContent).toContain('21 fans, the same as in the link');
  });
});
