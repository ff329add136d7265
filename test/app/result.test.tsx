// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen, within } from '@testing-library/react';
import { ResultView } from '../../src/app/result/ResultView.tsx';
import { ConditionsView } from '../../src/app/conditions/ConditionsView.tsx';
import { normalizeConditions } from '../../src/app/model/commands.ts';
import { defaultConditions, type PlannedSet } from '../../src/app/model/work.ts';
import userEvent from '@testing-library/user-event';
import { lang, mount, work } from './helpers.tsx';

afterEach(() => { cleanup(); lang('en'); });

// [345p][666s] melded, 99m 789p EEE concealed, winning on the third East, one flower.
const CODES = '9m 9m 3p 4p 5p 6s 6s 6s 7p 8p 9p 1z 1z 1z f8';
const SETS: PlannedSet[] = [
  { uids: ['t3', 't4', 't5'], kind: 'chow', declared: true },
  { uids: ['t6', 't7', 't8'], kind: 'pung', declared: true },
];

function scored(conditions = {}) {
  return work({ codes: CODES, sets: SETS, winningUid: 't14', conditions: { selfDrawn: true, discarder: null, lastTileOfWall: true, ...conditions } });
}

describe('ResultView', () => {
  it('lists the fans with points, the fans not counted with the rule, the total and all four payments', () => {
    mount(<ResultView />, scored(), 'result');
    const fans = screen.getByTestId('fans');
    const rows = within(fans).getAllByRole('row').map((r) => r.textContent);
    expect(rows).toEqual(['Last Tile Draw8 pt8', 'Prevalent Wind2 pt2', 'Seat Wind2 pt2', 'Flower Tiles1 pt1', 'Total13']);
    expect(screen.getByTestId('total').textContent).toMatch(/13 points.*12 without flowers.*Reaches the 8-point minimum/);
    const nc = screen.getByText('Self-Drawn').closest('li')!;
    expect(nc.textContent).toMatch(/implied by Last Tile Draw/);
    expect(nc.textContent).toMatch(/Rule: .+/);
    const pay = screen.getByTestId('payments');
    expect(within(pay).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'East (you, winner)+63', 'South (right)−21', 'West (opposite)−21', 'North (left)−21',
    ]);
  });

  it('shows every other winning tile with its score', () => {
    mount(<ResultView />, scored(), 'result');
    const items = within(screen.getByTestId('what-if')).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('svg')?.getAttribute('aria-label'))).toEqual(['9 Characters', 'East Wind']);
    expect(items[1].textContent).toMatch(/13 points.*winning tile/);
  });

  it('charges the discarder more on a discard win', () => {
    mount(<ResultView />, scored({ selfDrawn: false, discarder: 'W' }), 'result');
    const pay = within(screen.getByTestId('payments')).getAllByRole('listitem').map((li) => li.textContent);
    expect(pay).toEqual(['East (you, winner)+37', 'South (right)−8', 'West (opposite, discarded)−21', 'North (left)−8']);
  });

  it('explains a hand below the 8-point minimum', () => {
    mount(<ResultView />, scored({ lastTileOfWall: false }), 'result');
    expect(screen.getByTestId('total').textContent).toMatch(/Below the 8-point minimum: 5 points without flowers/);
    expect(screen.queryByTestId('payments')).toBeNull();
  });

  it('shows fan names in the player language (from the engine table)', () => {
    lang('pl');
    mount(<ResultView />, scored(), 'result');
    expect(screen.getByRole('heading', { name: 'Wynik' })).toBeTruthy();
    expect(within(screen.getByTestId('fans')).getByText('Wygrana Ostatnim Kamieniem z Muru')).toBeTruthy();
    act(() => lang('zh'));
    expect(within(screen.getByTestId('fans')).getByText('妙手回春')).toBeTruthy();
  });

  it('says when the tiles are not a winning hand', () => {
    mount(<ResultView />, work({ codes: '1m 2m 4m 5m 6m 7m 8m 9m 1p 5p 5p 2s 3s 4s', sets: [], winningUid: 't14' }), 'result');
    expect(screen.getByTestId('total').textContent).toMatch(/Not a valid win: These tiles do not make a winning hand/);
  });
});

describe('ConditionsView', () => {
  it('one tap each, and contradictory combinations cannot be set', async () => {
    const user = userEvent.setup();
    const { present } = mount(<ConditionsView onNext={() => undefined} />, work({ codes: CODES }), 'conditions');
    expect(present().conditions).toMatchObject({ selfDrawn: false, discarder: 'N', seatWind: 'E', prevalentWind: 'E' });
    await user.click(screen.getByRole('switch', { name: /Replacement tile/ }));
    expect(present().conditions).toMatchObject({ replacementTile: true, selfDrawn: true, discarder: null });
    await user.click(screen.getByRole('switch', { name: /Robbing the kong/ }));
    expect(present().conditions).toMatchObject({ robbingKong: true, replacementTile: false, selfDrawn: false, discarder: 'N' });
    await user.click(screen.getByRole('button', { name: 'West (opposite)' }));
    expect(present().conditions.discarder).toBe('W');
    // Changing seats never leaves the player as their own discarder.
    const seat = screen.getByRole('group', { name: 'Your seat wind' });
    await user.click(within(seat).getByRole('button', { name: 'West' }));
    expect(present().conditions).toMatchObject({ seatWind: 'W', discarder: 'S' });
    expect(screen.getByText('1')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'One flower more' }));
    expect(present().conditions.flowers).toBe(2);
  });

  it('offers "last tile of its kind" and "robbing the kong" only when the hand allows them', async () => {
    const user = userEvent.setup();
    // won on the third East of a concealed pung: the other Easts are in the hand, not in sight
    mount(<ConditionsView onNext={() => undefined} />, work({ codes: CODES, sets: SETS, winningUid: 't14' }), 'conditions');
    const last = screen.getByRole('switch', { name: /Last tile of its kind/ });
    expect(last.hasAttribute('disabled')).toBe(true);
    expect(last.textContent).toContain('not while you hold another one concealed');
    // nor robbing the kong: the robbed player held three Easts
    const robbing = screen.getByRole('switch', { name: /Robbing the kong/ });
    expect(robbing.hasAttribute('disabled')).toBe(true);
    expect(robbing.textContent).toContain('not while you hold one of the kind');
    cleanup();
    // won on the 9p of the 789p chow: the other 9ps are elsewhere, so it may be the last one
    const { present } = mount(<ConditionsView onNext={() => undefined} />, work({ codes: CODES, sets: SETS, winningUid: 't11' }), 'conditions');
    const open = screen.getByRole('switch', { name: /Last tile of its kind/ });
    expect(open.hasAttribute('disabled')).toBe(false);
    await user.click(open);
    expect(present().conditions.lastOfKind).toBe(true);
    expect(screen.getByRole('switch', { name: /Robbing the kong/ }).hasAttribute('disabled')).toBe(false);
  });

  it('normalizeConditions: the last tap wins', () => {
    const c = normalizeConditions(defaultConditions(), { selfDrawn: true });
    expect(c.discarder).toBeNull();
    expect(normalizeConditions(c, { discarder: 'S' })).toMatchObject({ selfDrawn: false, discarder: 'S' });
    expect(normalizeConditions(c, { flowers: 12 }).flowers).toBe(8);
  });
});
