// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { ResultView } from '../../src/app/result/ResultView.tsx';
import { scoreWork } from '../../src/app/model/hand.ts';
import type { PlannedSet, Work } from '../../src/app/model/work.ts';
import { lang, mount, work } from './helpers.tsx';

afterEach(() => { cleanup(); lang('en'); });

// [345p][666s] melded, 99m 789p EEE concealed, self-drawn on the last tile: Self-Drawn is implied
// by Last Tile Draw (excluded), and the hand has several fans not counted
const SETS: PlannedSet[] = [
  { uids: ['t3', 't4', 't5'], kind: 'chow', declared: true },
  { uids: ['t6', 't7', 't8'], kind: 'pung', declared: true },
];
const hands: Work[] = [
  work({ codes: '9m 9m 3p 4p 5p 6s 6s 6s 7p 8p 9p 1z 1z 1z f8', sets: SETS, winningUid: 't14', conditions: { selfDrawn: true, discarder: null, lastTileOfWall: true } }),
  // a pure straight in characters with a concealed hand: Short Straight / Two Terminal Chows implied
  work({ codes: '1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 5p 2s 3s 4s', sets: [], winningUid: 't14', conditions: { selfDrawn: false, discarder: 'W' } }),
];

const rules = () => [...document.querySelectorAll('.not-counted .why small')].map((e) => e.textContent ?? '');

describe('the rule each fan not counted cites', () => {
  it('in English is the engine\'s own citation, word for word', () => {
    for (const w of hands) {
      const { unmount } = mount(<ResultView />, w, 'result');
      const engine = (scoreWork(w, 'mcr').result!.notCounted).map((f) => `Rule: ${f.reason.citation}`);
      expect(engine.length).toBeGreaterThan(0);
      expect(rules()).toEqual(engine);
      unmount();
    }
  });

  it('is in the player\'s language, with the fan named as in the fan list', () => {
    mount(<ResultView />, hands[1]!, 'result');
    for (const l of ['zh', 'pl', 'sv'] as const) {
      act(() => lang(l));
      const shown = rules();
      expect(shown.length).toBeGreaterThan(0);
      for (const r of shown) expect(r).not.toMatch(/includes it|non-repeat principle|account-once|waiting on more/);
    }
    expect(rules().some((r) => /\(\d+\) innefattar den; regler 000\/003\/004/.test(r))).toBe(true);
    act(() => lang('zh'));
    expect(screen.getAllByText(/不重复原则/).length).toBeGreaterThan(0);
  });
});
