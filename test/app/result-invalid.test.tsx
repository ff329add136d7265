// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { ResultView } from '../../src/app/result/ResultView.tsx';
import { resetRulesetChoice, setGlobalRuleset } from '../../src/app/ruleset/active.ts';
import type { PlannedSet } from '../../src/app/model/work.ts';
import { lang, mount, work } from './helpers.tsx';

afterEach(() => { cleanup(); lang('en'); resetRulesetChoice({ global: 'mcr', table: null }); });

// a 14-tile MCR hand: [345p][666s] melded, 99m 789p EEE concealed, one flower
const CODES = '9m 9m 3p 4p 5p 6s 6s 6s 7p 8p 9p 1z 1z 1z f8';
const SETS: PlannedSet[] = [
  { uids: ['t3', 't4', 't5'], kind: 'chow', declared: true },
  { uids: ['t6', 't7', 't8'], kind: 'pung', declared: true },
];
const hand = (conditions = {}) => work({ codes: CODES, sets: SETS, winningUid: 't14', conditions: { selfDrawn: true, discarder: null, ...conditions } });

describe('ResultView, a hand that is not a win under the ruleset', () => {
  it('says in the player\'s words that Fan Pays needs 17 tiles, and shows no fans or payments', () => {
    setGlobalRuleset('fan-pays');
    mount(<ResultView />, hand(), 'result');
    const card = screen.getByTestId('total');
    expect(card.textContent).toBe('Not a valid win: 14 tiles: a finished hand has 17, plus one for each kong. 3 missing. Go back to Tiles to correct the hand, or choose the other ruleset.');
    expect(card.getAttribute('data-ruleset')).toBe('fan-pays');
    expect(screen.queryByTestId('fans')).toBeNull();
    expect(screen.queryByTestId('payments')).toBeNull();
    expect(screen.queryByText('Every fan the hand shows was counted.')).toBeNull();
    // the engine's own wording only under Details
    expect(screen.getByText('Details').closest('details')!.textContent).toMatch(/17 tiles/);
  });

  it('is translated (Polish)', () => {
    setGlobalRuleset('fan-pays');
    lang('pl');
    mount(<ResultView />, hand(), 'result');
    expect(screen.getByTestId('total').textContent).toMatch(/^Wygrana nieważna|Wróć do kroku Kamienie/);
    expect(screen.getByTestId('total').textContent).not.toMatch(/winning hand has/);
  });

  it('sends the player back to the win conditions when they cannot be (the last East, completing a concealed pung)', () => {
    // the winning tile is the third East of a concealed pung: two of the other three are in the winner's hand
    mount(<ResultView />, work({ codes: '9m 9m 3p 4p 5p 6s 6s 6s 7p 8p 9p 1z 1z 1z', sets: SETS, winningUid: 't14', conditions: { selfDrawn: true, discarder: null, lastOfKind: true } }), 'result');
    expect(screen.getByTestId('total').textContent).toBe('Not a valid win: These win conditions cannot happen together. Go back to Win and change the conditions.');
    expect(screen.getByText('Details').closest('details')!.textContent).toMatch(/other three 1z must be in sight/);
  });

  it('says "1 point", not "1 points", below the minimum', () => {
    // [999m][678p][345s] melded, SS, 546s won on the 6s from South: Pung of Terminals or Honors only
    const sets: PlannedSet[] = [
      { uids: ['t1', 't2', 't3'], kind: 'pung', declared: true },
      { uids: ['t4', 't5', 't6'], kind: 'chow', declared: true },
      { uids: ['t7', 't8', 't9'], kind: 'chow', declared: true },
    ];
    mount(<ResultView />, work({ codes: '9m 9m 9m 6p 7p 8p 3s 4s 5s 2z 2z 5s 4s 6s', sets, winningUid: 't14', conditions: { selfDrawn: false, discarder: 'S' } }), 'result');
    expect(screen.getByTestId('total').textContent).toMatch(/Below the 8-point minimum: 1 point without flowers\. Not a valid win\./);
  });
});
