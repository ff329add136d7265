// @vitest-environment jsdom
/** The scanner under Fan Pays (card 002): 17-tile checks, the extra conditions, fans and payments, the ruleset switch. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConditionsView } from '../../src/app/conditions/ConditionsView.tsx';
import { ResultView } from '../../src/app/result/ResultView.tsx';
import { ReviewView } from '../../src/app/review/ReviewView.tsx';
import { RulesetPicker } from '../../src/app/ruleset/RulesetPicker.tsx';
import { activeRuleset, resetRulesetChoice, rulesetChoice, setTableRuleset } from '../../src/app/ruleset/active.ts';
import { checkTiles } from '../../src/app/model/checks.ts';
import { normalizeConditions } from '../../src/app/model/commands.ts';
import { proposeSets, scoreWork } from '../../src/app/model/hand.ts';
import { defaultConditions } from '../../src/app/model/work.ts';
import { SessionStoreProvider } from '../../src/app/session/useSession.ts';
import { commands, createSessionStore, memoryStorage } from '../../src/app/session/store.ts';
import { StoreProvider } from '../../src/app/state/context.tsx';
import { createStore, initialState } from '../../src/app/state/store.ts';
import { historyOf } from '../../src/app/model/commands.ts';
import { mount, tiles, work } from './helpers.tsx';

const FP = { global: 'fan-pays', table: null } as const;
beforeEach(() => { localStorage.clear(); resetRulesetChoice(FP); });
afterEach(() => { cleanup(); localStorage.clear(); resetRulesetChoice({ global: 'mcr', table: null }); });

// 123m 456m 789m 234p 55s 678s, flowers 1 and 3; wins on the 8s.
const CODES = '1m 2m 3m 4m 5m 6m 7m 8m 9m 2p 3p 4p 5s 5s 6s 7s 8s f1 f3';
const scored = (conditions = {}) =>
  work({ codes: CODES, sets: [], winningUid: 't17', conditions: { seatWind: 'S', selfDrawn: true, discarder: null, dealerStreak: 1, secretKongs: ['W'], ...conditions } });

describe('tile count by ruleset', () => {
  it('MCR needs 14 tiles (18 with four kongs), Fan Pays 17 (22 with five)', () => {
    const fourteen = tiles('1m 2m 3m 4m 5m 6m 7m 8m 9m 2p 3p 4p 5s 5s');
    expect(checkTiles(fourteen)).toEqual([]);
    expect(checkTiles(fourteen, 5)).toEqual([{ severity: 'error', key: 'check.tooFew', values: { n: 14, missing: 3, base: 17 } }]);
    expect(checkTiles(tiles(CODES), 5)).toEqual([]);
    const many = tiles('1m 1m 1m 1m 2m 2m 2m 2m 3m 3m 3m 3m 4m 4m 4m 4m 5m 5m 5m 5m 6m 6m 7m');
    expect(checkTiles(many, 5).map((i) => i.key)).toEqual(['check.tooManyTiles']);
  });

  it('ReviewView counts against 17 under Fan Pays', () => {
    mount(<ReviewView onNext={() => undefined} />, work({ codes: '1m 2m 3m 4m 5m 6m 7m 8m 9m 2p 3p 4p 5s 5s' }));
    expect(screen.getByText('14 tiles: a finished hand has 17, plus one for each kong. 3 missing.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('proposes five sets and a pair and scores with the card', () => {
    const p = proposeSets(work({ codes: CODES }), 'fan-pays');
    expect(p.sets.map((s) => s.kind).sort()).toEqual(['chow', 'chow', 'chow', 'chow', 'chow', 'pair']);
    const { result, ctx } = scoreWork(scored(), 'fan-pays');
    expect(result?.ruleset).toBe('fan-pays');
    expect(result?.total).toBe(21);
    expect(ctx).toMatchObject({ dealer: 'E', dealerStreak: 1, secretKongs: ['W'], fanValue: 1 });
    // The same 17 tiles are no MCR hand.
    expect(scoreWork(scored(), 'mcr').result?.error?.code).toBe('WRONG_TILE_COUNT');
  });
});

describe('ConditionsView under Fan Pays', () => {
  it('shows the card-002 conditions, one tap each, and keeps them consistent', async () => {
    const user = userEvent.setup();
    const { present } = mount(<ConditionsView onNext={() => undefined} />, work({ codes: CODES }), 'conditions');
    const fp = screen.getByTestId('fan-pays-conditions');
    expect(screen.queryByRole('switch', { name: /Last tile of its kind/ })).toBeNull();
    await user.click(within(within(fp).getByRole('group', { name: 'Dealer' })).getByRole('button', { name: 'South' }));
    expect(present().conditions.dealer).toBe('S');
    await user.click(within(fp).getByRole('button', { name: "Dealer's wins in a row before this hand: one more" }));
    await user.click(within(fp).getByRole('button', { name: "Dealer's wins in a row before this hand: one more" }));
    expect(present().conditions.dealerStreak).toBe(2);
    // Terrestrial Blessing: a win on the dealer's (South's) first discard.
    await user.click(within(fp).getByRole('switch', { name: /Terrestrial Blessing/ }));
    expect(present().conditions).toMatchObject({ firstDiscardWin: true, selfDrawn: false, discarder: 'S' });
    // The flower wall is self-drawn, so the blessing on a discard goes.
    await user.click(within(fp).getByRole('switch', { name: /flower wall/ }));
    expect(present().conditions).toMatchObject({ flowerWallWin: true, firstDiscardWin: false, selfDrawn: true, discarder: null });
    await user.click(within(fp).getByRole('button', { name: 'One secret kong more for North' }));
    await user.click(within(fp).getByRole('button', { name: 'One secret kong more for North' }));
    expect(present().conditions.secretKongs).toEqual(['N', 'N']);
    expect(within(fp).getByLabelText('Secret kongs of North').textContent).toBe('2');
    const value = within(fp).getByLabelText('Value of one fan');
    await user.clear(value);
    await user.type(value, '0.5');
    await user.tab();
    expect(present().conditions.fanValue).toBe(0.5);
  });

  it('a dealer cannot take the blessings, and the winner is never listed for a secret kong', () => {
    const c = normalizeConditions({ ...defaultConditions(), dealer: 'E', seatWind: 'S' }, { firstDrawWin: true });
    expect(c).toMatchObject({ firstDrawWin: true, selfDrawn: true });
    expect(normalizeConditions(c, { seatWind: 'E' }).firstDrawWin).toBe(false);
    expect(normalizeConditions({ ...c, secretKongs: ['W', 'N'] }, { seatWind: 'W' }).secretKongs).toEqual(['N']);
    expect(normalizeConditions(c, { dealerStreak: -3 }).dealerStreak).toBe(0);
    expect(normalizeConditions(c, { fanValue: -1 }).fanValue).toBe(1);
  });

  it('under MCR the Fan Pays conditions are not shown', () => {
    resetRulesetChoice({ global: 'mcr', table: null });
    mount(<ConditionsView onNext={() => undefined} />, work({ codes: CODES }), 'conditions');
    expect(screen.queryByTestId('fan-pays-conditions')).toBeNull();
    expect(screen.getByRole('switch', { name: /Last tile of its kind/ })).toBeTruthy();
  });
});

describe('ResultView under Fan Pays', () => {
  it('lists the card fans in fans, the total with no minimum, and each seat\'s payment with the secret kongs', () => {
    mount(<ResultView />, scored(), 'result');
    const rows = within(screen.getByTestId('fans')).getAllByRole('row').map((r) => r.textContent);
    expect(rows).toEqual([
      'Small Chow5 fans5', 'Dealer Penalty1 fan1', 'No Flowers or Each Flower1 fan × 22', 'No Honors1 fan1', 'Self-Drawn MJ1 fan1',
      'Buried Treasure2 fans2', "Pair of 2's, 5's, or 8's2 fans2", "Dragon's Tail7 fans7", 'Total21',
    ]);
    expect(screen.getByTestId('total').textContent).toMatch(/21 fans.*no minimum.*One fan is worth 1/);
    expect(screen.getByText('Mother and Daughter').closest('li')!.textContent).toMatch(/implied by Dragon's Tail/);
    const pay = within(screen.getByTestId('payments')).getAllByRole('listitem').map((li) => li.textContent);
    expect(pay).toEqual([
      'East (left, dealer)−22win −21, secret kongs −1',
      'South (you, winner)+60win +61, secret kongs −1',
      'West (right)−17win −20, secret kongs +3',
      'North (opposite)−21win −20, secret kongs −1',
    ]);
    expect(screen.getByText('Dealer Penalty (1 fan) is paid by the dealer only.')).toBeTruthy();
    expect(within(screen.getByTestId('what-if')).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['23 fans', '21 fans · winning tile']);
  });

  it('a discard is paid by the discarder alone, times the value of one fan', () => {
    // 21 fans less Dealer Penalty (no run now) and Self-Drawn MJ: 19 fans at 2 each.
    mount(<ResultView />, scored({ selfDrawn: false, discarder: 'N', secretKongs: [], dealerStreak: 0, fanValue: 2 }), 'result');
    const pay = within(screen.getByTestId('payments')).getAllByRole('listitem').map((li) => li.textContent);
    expect(pay).toEqual(['East (left, dealer)0', 'South (you, winner)+38', 'West (right)0', 'North (opposite, discarded)−38']);
  });

  it('explains conditions the card does not allow', () => {
    mount(<ResultView />, scored({ seatWind: 'E', firstDrawWin: true }), 'result');
    expect(screen.getByTestId('total').textContent).toMatch(/Not a valid win: These win conditions cannot happen together/);
  });
});

describe('add to a Fan Pays sheet', () => {
  it('puts the hand on the sheet with the result\'s amounts by player, and keeps the label of the hand it added', async () => {
    const session = createSessionStore(memoryStorage(), (r) => setTableRuleset(r ? r.rules ?? 'mcr' : null));
    await session.load();
    act(() => session.perform(commands.start(['Anders', 'Bente', 'Claus', 'Dorte'], {}, 'fan-pays')));
    resetRulesetChoice({ global: 'mcr', table: 'fan-pays' });
    // the hand was scored with Anders (East) dealing after one win: on a new sheet his run is 0
    const store = createStore({ ...initialState(), history: historyOf(scored()), step: 'result' });
    const user = userEvent.setup();
    render(<SessionStoreProvider store={session}><StoreProvider store={store}><ResultView /></StoreProvider></SessionStoreProvider>);
    await user.click(await screen.findByRole('button', { name: 'Add to the score sheet: hand 1, won by Bente' }));
    expect(screen.getByRole('alert')).toBeTruthy();
    expect(session.getState().record!.hands).toHaveLength(0);
    // Hand 1 typed in: Anders wins as dealer; hand 2 is then his, after one win, as scored
    act(() => session.perform(commands.add({ kind: 'win', winner: 0, selfDrawn: true, discarder: null, points: 2, source: 'typed', penalties: [] })));
    const add = await screen.findByRole('button', { name: 'Add to the score sheet: hand 2, won by Bente' });
    await user.click(add);
    expect(screen.getByText('Added as hand 2 on the score sheet.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add to the score sheet: hand 2, won by Bente' })).toHaveProperty('disabled', true);
    const hand = session.getState().record!.hands[1];
    expect(hand).toMatchObject({ kind: 'win', winner: 1, selfDrawn: true, points: 21, source: 'scored', amounts: [-22, 60, -17, -21] });
    expect(hand.kind === 'win' && hand.link).toMatch(/#\/h\//);
  });
});

describe('ConditionsView with a Fan Pays table open', () => {
  it('offers the sheet\'s dealer (East) and their run of wins', async () => {
    const session = createSessionStore(memoryStorage(), (r) => setTableRuleset(r ? r.rules ?? 'mcr' : null));
    await session.load();
    act(() => session.perform(commands.start(['Anders', 'Bente', 'Claus', 'Dorte'], {}, 'fan-pays')));
    // Anders (East) wins hands 1 and 2: he deals hand 3 with two wins in a row
    act(() => {
      session.perform(commands.add({ kind: 'win', winner: 0, selfDrawn: true, discarder: null, points: 3, source: 'typed', penalties: [] }));
      session.perform(commands.add({ kind: 'win', winner: 0, selfDrawn: false, discarder: 2, points: 2, source: 'typed', penalties: [] }));
    });
    resetRulesetChoice({ global: 'mcr', table: 'fan-pays' });
    const store = createStore({ ...initialState(), history: historyOf(work({ codes: CODES, conditions: { dealer: 'S', dealerStreak: 0 } })), step: 'conditions' });
    const user = userEvent.setup();
    render(<SessionStoreProvider store={session}><StoreProvider store={store}><ConditionsView onNext={() => undefined} /></StoreProvider></SessionStoreProvider>);
    const hint = await screen.findByTestId('table-dealer-hint');
    expect(hint.textContent).toContain('Hand 3 of the open table: Anders deals (East), with 2 wins in a row.');
    await user.click(within(hint).getByRole('button', { name: 'Use it' }));
    expect(store.get().history.present.conditions).toMatchObject({ dealer: 'E', dealerStreak: 2 });
    expect(screen.queryByTestId('table-dealer-hint')).toBeNull();
  });
});

describe('RulesetPicker', () => {
  it('switches the global ruleset with one tap and remembers it; an open table fixes it', async () => {
    resetRulesetChoice({ global: 'mcr', table: null });
    const user = userEvent.setup();
    render(<RulesetPicker />);
    await user.click(screen.getByRole('button', { name: 'Fan Pays' }));
    expect(activeRuleset()).toBe('fan-pays');
    expect(localStorage.getItem('mj.ruleset')).toBe('fan-pays');
    expect(screen.getByRole('button', { name: 'Fan Pays' }).getAttribute('aria-pressed')).toBe('true');
    act(() => setTableRuleset('mcr'));
    expect(activeRuleset()).toBe('mcr');
    expect(screen.queryByRole('button', { name: 'Fan Pays' })).toBeNull();
    expect(screen.getByTestId('ruleset').textContent).toMatch(/MCR.*set by the open table/);
    act(() => setTableRuleset(null));
    expect(rulesetChoice()).toEqual({ global: 'fan-pays', table: null });
    // A reload reads the stored choice back.
    resetRulesetChoice();
    expect(activeRuleset()).toBe('fan-pays');
  });
});
