// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SetsView } from '../../src/app/sets/SetsView.tsx';
import { buildHand, groupings, proposeSets, scoreWork } from '../../src/app/model/hand.ts';
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

  it('completes a grouping that holds only the declared sets, without an undo step', () => {
    // as work typed in notation was stored before: only the bracketed sets
    const w = work({ codes: '1p 2p 3p 3s 4s 5s 9s 9s 9s 7m 8m 1z 1z 6m', winningUid: 't14' });
    const declared = [
      { uids: ['t1', 't2', 't3'], kind: 'chow' as const, declared: true, claim: { from: 'left' as const, index: 0 } },
      { uids: ['t4', 't5', 't6'], kind: 'chow' as const, declared: true },
      { uids: ['t7', 't8', 't9'], kind: 'pung' as const, declared: true },
    ];
    const { store, present } = mount(<SetsView onNext={() => undefined} />, { ...w, sets: declared }, 'sets');
    expect(screen.getAllByRole('listitem')).toHaveLength(5);
    expect(present().sets!.slice(0, 3)).toEqual(declared);
    expect(present().sets!.slice(3).map((s) => s.kind)).toEqual(['chow', 'pair']);
    expect(screen.getByRole('button', { name: '6 Characters: the winning tile' })).toBeTruthy();
    expect(store.get().history.past).toHaveLength(0);
  });

  it('Regroup keeps the sets the player marked, melded or concealed', async () => {
    const user = userEvent.setup();
    // the layout sets 7m 8m 9m apart as a meld; the player says it is concealed, and marks 1m 2m 3m melded
    const ts = tiles(HAND).map((t, i) => (i >= 6 && i < 9 ? { ...t, group: 0 } : t));
    const { present } = mount(<SetsView onNext={() => undefined} />, work({ tiles: ts, source: 'photo' }), 'sets');
    const cardWith = (code: string) => screen.getAllByRole('listitem').find((li) => li.querySelector(`[data-tile="${code}"]`))!;
    expect(within(cardWith('7m')).getByRole('button', { name: 'Melded' }).getAttribute('aria-pressed')).toBe('true');
    await user.click(within(cardWith('7m')).getByRole('button', { name: 'Concealed' }));
    await user.click(within(cardWith('1m')).getByRole('button', { name: 'Melded' }));
    await user.click(screen.getByRole('button', { name: 'Regroup' }));
    expect(within(cardWith('1m')).getByRole('button', { name: 'Melded' }).getAttribute('aria-pressed')).toBe('true');
    expect(within(cardWith('7m')).getByRole('button', { name: 'Melded' }).getAttribute('aria-pressed')).toBe('false');
    const built = buildHand(present());
    expect(built.ok && formatHand(built.hand)).toMatch(/^\[123m\][^[]+$/);
  });

  describe('another grouping', () => {
    // 111m 222m 333m 456p 77s: three pungs, or three 1-2-3m chows
    const PUNGS = '1m 1m 1m 2m 2m 2m 3m 3m 3m 4p 5p 6p 7s 7s';
    const kinds = (w: ReturnType<typeof work>) => w.sets!.map((s) => s.kind).sort();
    const cardWith = (code: string) => screen.getAllByRole('listitem').find((li) => li.querySelector(`[data-tile="${code}"]`))!;

    it('lists the distinct groupings of the tiles, best first', () => {
      const p = proposeSets(work({ codes: PUNGS }));
      const list = groupings(work({ codes: PUNGS, ...p }));
      expect(list.map((g) => g.sets.map((s) => s.kind).sort())).toEqual([
        ['chow', 'pair', 'pung', 'pung', 'pung'],
        ['chow', 'chow', 'chow', 'chow', 'pair'],
      ]);
      // one reading only: nothing else to offer
      const one = work({ codes: HAND });
      expect(groupings({ ...one, ...proposeSets(one) })).toHaveLength(1);
    });

    it('cycles from three pungs to three chows, and a chow can then be marked melded', async () => {
      const user = userEvent.setup();
      const { present } = mount(<SetsView onNext={() => undefined} />, work({ codes: PUNGS }), 'sets');
      expect(kinds(present())).toEqual(['chow', 'pair', 'pung', 'pung', 'pung']);
      expect(scoreWork(present()).result?.total).toBe(45);
      expect(screen.getByRole('status').textContent).toBe('Grouping 1 of 2');

      await user.click(screen.getByRole('button', { name: 'Another grouping' }));
      expect(kinds(present())).toEqual(['chow', 'chow', 'chow', 'chow', 'pair']);
      expect(screen.getByRole('status').textContent).toBe('Grouping 2 of 2');
      await user.click(within(cardWith('1m')).getByRole('button', { name: 'Melded' }));
      const built = buildHand(present());
      expect(built.ok && formatHand(built.hand)).toMatch(/^\[123m\]/);
      const result = scoreWork(present()).result!;
      expect(result.total).toBe(27);
      expect(result.fans.map((f) => f.names.en)).toContain('Pure Triple Chow');
      expect(result.fans.map((f) => f.names.en)).not.toContain('Three Concealed Pungs');

      // a melded 1-2-3m chow was claimed at the table: the pungs, which hold no such chow, are not
      // this hand any more, so no other grouping is offered and the mark stays
      expect(screen.queryByRole('button', { name: 'Another grouping' })).toBeNull();
      expect(present().sets!.filter((s) => s.declared)).toHaveLength(1);
      expect(kinds(present())).toEqual(['chow', 'chow', 'chow', 'chow', 'pair']);
    });

    it('offers only the groupings that hold every melded set', async () => {
      const user = userEvent.setup();
      const { present } = mount(<SetsView onNext={() => undefined} />, work({ codes: PUNGS }), 'sets');
      // the 1m pung melded: only the pungs reading has it
      await user.click(within(cardWith('1m')).getByRole('button', { name: 'Melded' }));
      expect(screen.queryByRole('button', { name: 'Another grouping' })).toBeNull();
      const result = scoreWork(present()).result!;
      expect(result.fans.map((f) => f.names.en)).not.toContain('Three Concealed Pungs');
      expect(result.fans.map((f) => f.names.en)).not.toContain('Concealed Hand');
      // unmarked again, both groupings come back
      await user.click(within(cardWith('1m')).getByRole('button', { name: 'Concealed' }));
      expect(screen.getByRole('status').textContent).toBe('Grouping 1 of 2');
    });

    it('keeps a declared set that the other grouping has too, and its winning tile', async () => {
      const user = userEvent.setup();
      const { present } = mount(<SetsView onNext={() => undefined} />, work({ codes: PUNGS }), 'sets');
      await user.click(within(cardWith('4p')).getByRole('button', { name: 'Melded' }));
      const meld = present().sets!.find((s) => s.declared)!;
      await user.click(screen.getByRole('button', { name: '7 Bamboo: mark as the winning tile' }));
      const winning = present().winningUid;
      await user.click(screen.getByRole('button', { name: 'Another grouping' }));
      expect(kinds(present())).toEqual(['chow', 'chow', 'chow', 'chow', 'pair']);
      expect(present().sets!.filter((s) => s.declared)).toEqual([meld]);
      expect(present().winningUid).toBe(winning);
      expect(within(cardWith('4p')).getByRole('button', { name: 'Melded' }).getAttribute('aria-pressed')).toBe('true');
    });

    it('is not offered when the tiles group only one way', () => {
      mount(<SetsView onNext={() => undefined} />, work({ codes: HAND }), 'sets');
      expect(screen.queryByRole('button', { name: 'Another grouping' })).toBeNull();
      expect(screen.queryByRole('status')).toBeNull();
    });
  });
});

describe('proposeSets on tiles that make no hand', () => {
  it('keeps the sets the player had whose tiles are still sets, and groups only the rest', () => {
    // 111m (melded) 222m 333m 456p 77s, then the first 1m corrected to 9m: the meld is broken
    const w = work({ codes: '9m 1m 1m 2m 2m 2m 3m 3m 3m 4p 5p 6p 7s 7s' });
    const sets = [
      { uids: ['t4', 't5', 't6'], kind: 'pung' as const, declared: false },
      { uids: ['t7', 't8', 't9'], kind: 'pung' as const, declared: false },
      { uids: ['t10', 't11', 't12'], kind: 'chow' as const, declared: false },
      { uids: ['t13', 't14'], kind: 'pair' as const, declared: false },
    ];
    const p = proposeSets({ ...w, sets }, 'mcr');
    expect(p.sets.slice(0, 4)).toEqual(sets);
    expect(p.sets[4]!.uids).toEqual(['t1', 't2', 't3']);
    expect(p.sets).toHaveLength(5);
  });
});
