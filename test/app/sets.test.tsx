// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SetsView } from '../../src/app/sets/SetsView.tsx';
import { buildHand, proposeSets } from '../../src/app/model/hand.ts';
import { formatHand } from '../../src/engine/index.ts';
import { mount, tiles, work } from './helpers.tsx';

afterEach(cleanup);

const HAND = '1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 5p 2s 3s 4s';

describe('SetsView', () => {
  it('proposes the grouping from the engine, and the winning tile defaults to the last tile', () => {
    const { present } = mount(<SetsView onNext={() => undefined} />, work({ codes: HAND }), 'sets');
    const items = screen.getAllByRole('listitem');
    expect(items.map((li) => li.getAttribute('aria-label'))).toEqual([
      'Set 1: Chow', 'Set 2: Chow', 'Set 3: Chow', 'Set 4: Chow', 'Set 5: Pair',
    ].filter((l) => items.some((li) => li.getAttribute('aria-label') === l)));
    expect(present().sets?.map((s) => s.kind).sort()).toEqual(['chow', 'chow', 'chow', 'chow', 'pair']);
    expect(screen.getByRole('button', { name: '4 Bamboo: the winning tile' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('marks a set melded, moves the winning tile, and builds the engine hand', async () => {
    const user = userEvent.setup();
    const { present } = mount(<SetsView onNext={() => undefined} />, work({ codes: HAND }), 'sets');
    const card = screen.getAllByRole('listitem').find((li) => li.querySelector('[data-tile="1m"]'))!;
    await user.click(within(card).getByRole('button', { name: 'Melded' }));
    expect(within(card).getByRole('button', { name: 'Melded' }).getAttribute('aria-pressed')).toBe('true');
    // Tiles of a declared set cannot be the winning tile: they are pictures, not buttons.
    expect(within(card).queryAllByRole('button', { name: /winning/ })).toHaveLength(0);
    await user.click(screen.getAllByRole('button', { name: '5 Dots: mark as the winning tile' })[0]);
    const built = buildHand(present());
    expect(built.ok).toBe(true);
    if (built.ok) expect(formatHand(built.hand)).toMatch(/^\[123m\]/);
    expect(built.ok && built.hand.winningTile).toBe(13);
  });

  it('turns two face-down tiles with two faces, set apart by the layout, into a concealed kong', () => {
    const ts = tiles('back 1z 1z back 2m 3m 4m 5m 6m 7m 8m 9m 9m 1s 1s 1s').map((t, i) => (i < 4 ? { ...t, group: 0 } : t));
    const p = proposeSets(work({ tiles: ts, source: 'photo' }));
    expect(p.sets[0]).toMatchObject({ kind: 'kong', declared: true, concealedKong: true });
    mount(<SetsView onNext={() => undefined} />, work({ tiles: ts, source: 'photo', sets: p.sets, winningUid: p.winningUid }), 'sets');
    expect(screen.getByRole('button', { name: 'Concealed kong' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getAllByRole('img', { name: 'Face-down tile' })).toHaveLength(2);
  });

  it('shows a clear message when a declared group is not a set', () => {
    const w = work({ codes: HAND });
    const sets = [{ uids: ['t1', 't2', 't10'], kind: 'chow' as const, declared: true }, { uids: w.tiles.slice(2).map((t) => t.uid).filter((u) => u !== 't10'), kind: 'loose' as const, declared: false }];
    mount(<SetsView onNext={() => undefined} />, { ...w, sets, winningUid: 't14' }, 'sets');
    expect(screen.getByRole('alert').textContent).toMatch(/do not form a set: 1m 2m 5p/);
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
