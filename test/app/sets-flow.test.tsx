// @vitest-environment jsdom
/**
 * The Sets screen inside the scanner flow: the player's marks survive tile
 * corrections, and Undo/Redo walk the player's own steps (the proposed grouping
 * is no step of theirs).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Scanner } from '../../src/app/shell/Scanner.tsx';
import type { Work } from '../../src/app/model/work.ts';
import { mount, tiles, work } from './helpers.tsx';

afterEach(cleanup);

const HAND = '1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 5p 2s 3s 4s';

/** A scanned hand: boxes in one row, every tile read surely. */
function scanned(): Work {
  const ts = tiles(HAND).map((t, i) => ({ ...t, box: [i * 60, 100, 50, 70] as [number, number, number, number], score: 0.97 }));
  return work({ tiles: ts, source: 'photo', photo: { key: 'p-sets', width: 900, height: 300, name: 'hand.jpg' } });
}

const card = (n: number) => screen.getAllByRole('listitem').find((li) => li.getAttribute('aria-label')?.startsWith(`Set ${n}:`))!;
const melded = (n: number) => within(card(n)).getByRole('button', { name: 'Melded' }).getAttribute('aria-pressed');
const undoButton = () => screen.getByRole('button', { name: /Undo/ }) as HTMLButtonElement;
const redoButton = () => screen.getByRole('button', { name: /Redo/ }) as HTMLButtonElement;

describe('Sets in the scanner flow', () => {
  it('opening the Sets screen proposes sets without an undo step', () => {
    const { store } = mount(<Scanner />, scanned(), 'sets');
    expect(store.get().history.present.sets?.map((s) => s.kind).sort()).toEqual(['chow', 'chow', 'chow', 'chow', 'pair']);
    expect(store.get().history.past).toHaveLength(0);
    expect(undoButton().disabled).toBe(true);
  });

  it('Undo takes back a set mark, Redo brings it again, and the proposal does not fight them', async () => {
    const user = userEvent.setup();
    const { store } = mount(<Scanner />, scanned(), 'sets');
    await user.click(within(card(2)).getByRole('button', { name: 'Melded' }));
    expect(melded(2)).toBe('true');
    expect(store.get().history.past).toHaveLength(1);

    await user.click(undoButton());
    expect(melded(2)).toBe('false');
    expect(store.get().history.past).toHaveLength(0);
    expect(store.get().history.future).toHaveLength(1);
    expect(undoButton().disabled).toBe(true);
    expect(redoButton().disabled).toBe(false);

    await user.click(redoButton());
    expect(melded(2)).toBe('true');
    expect(store.get().history.future).toHaveLength(0);
  });

  it('Undo walks back through set marks and then tile corrections, and Redo forward again', async () => {
    const user = userEvent.setup();
    const { store, present } = mount(<Scanner />, scanned(), 'review');
    // a correction on the Tiles screen, then a mark on the Sets screen
    await user.click(screen.getAllByRole('button', { name: 'Tile 14: 4 Bamboo' })[0]);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: '1 Bamboo' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(store.get().step).toBe('sets');
    expect(store.get().history.past).toHaveLength(1);
    await user.click(within(card(2)).getByRole('button', { name: 'Melded' }));
    const marked = present();
    expect(store.get().history.past).toHaveLength(2);

    await user.click(undoButton()); // the mark
    expect(melded(2)).toBe('false');
    expect(present().tiles[13].code).toBe('1s');
    await user.click(undoButton()); // the correction: the sets of the old tiles are shown again
    expect(present().tiles[13].code).toBe('4s');
    expect(present().sets?.map((s) => s.kind).sort()).toEqual(['chow', 'chow', 'chow', 'chow', 'pair']);
    expect(screen.getByRole('button', { name: '4 Bamboo: the winning tile' })).toBeTruthy();
    expect(store.get().history.past).toHaveLength(0);
    expect(store.get().history.future).toHaveLength(2);
    expect(undoButton().disabled).toBe(true);

    await user.click(redoButton());
    expect(present().tiles[13].code).toBe('1s');
    await user.click(redoButton());
    expect(present()).toBe(marked);
    expect(melded(2)).toBe('true');
  });

  it('a tile correction keeps the marks of the sets it did not touch; re-picking the same tile changes nothing', async () => {
    const user = userEvent.setup();
    const { store, present } = mount(<Scanner />, scanned(), 'sets');
    await user.click(within(card(2)).getByRole('button', { name: 'Melded' }));
    const set2 = present().sets![1];
    expect(set2).toMatchObject({ declared: true });
    const steps = store.get().history.past.length;

    // back to Tiles: tap tile 1 and pick the tile it already shows
    await user.click(screen.getByRole('button', { name: 'Tiles' }));
    await user.click(screen.getAllByRole('button', { name: 'Tile 1: 1 Characters' })[0]);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: '1 Characters' }));
    expect(store.get().history.past).toHaveLength(steps);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(melded(2)).toBe('true');

    // a real correction of a tile in another set: set 2 keeps its mark, the rest is grouped again
    await user.click(screen.getByRole('button', { name: 'Tiles' }));
    await user.click(screen.getAllByRole('button', { name: 'Tile 14: 4 Bamboo' })[0]);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: '1 Bamboo' }));
    expect(present().sets).toContainEqual(set2);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const declared = present().sets!.filter((s) => s.declared);
    expect(declared).toEqual([set2]);
    expect(present().sets!.flatMap((s) => s.uids).sort()).toEqual(present().tiles.map((t) => t.uid).sort());
    expect(within(screen.getAllByRole('listitem').find((li) => li.classList.contains('declared'))!).getByRole('button', { name: 'Melded' }).getAttribute('aria-pressed')).toBe('true');
  });
});
