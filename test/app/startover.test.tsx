// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Scanner } from '../../src/app/shell/Scanner.tsx';
import { historyOf, loadTiles, perform } from '../../src/app/model/commands.ts';
import { emptyWork, type Work } from '../../src/app/model/work.ts';
import { PAST_PHOTOS_KEPT, photosToKeep } from '../../src/app/state/store.ts';
import { mount, work } from './helpers.tsx';

afterEach(cleanup);

const HAND = '1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 5p 2s 3s 4s';

const withPhoto = (key: string): Work => ({ ...work({ codes: HAND }), source: 'photo', photo: { key, width: 800, height: 600, name: `${key}.jpg` } });
const step = (w: Work) => ({ label: { key: 'cmd.load' }, perform: () => w });

describe('Start over', () => {
  it('is a step of the history: the notice and the toolbar both bring the hand back', async () => {
    const user = userEvent.setup();
    const { store, present } = mount(<Scanner />, work({ codes: HAND }), 'sets');
    await user.click(screen.getByRole('button', { name: 'Start over' }));
    expect(store.get().step).toBe('capture');
    expect(present().tiles).toHaveLength(0);
    // the next hand's tiles get ids no earlier tile had
    expect(present().nextUid).toBe(15);
    expect(screen.getByTestId('notice').textContent).toContain('Started over. Undo brings the last hand back.');
    expect(screen.queryByRole('button', { name: 'Start over' })).toBeNull();

    // the notice's Undo also goes back to the step the player was on
    await user.click(screen.getByTestId('notice').querySelector('button.btn:not(.ghost)') as HTMLElement);
    expect(present().tiles.map((t) => t.code).join(' ')).toBe(HAND);
    expect(store.get().step).toBe('sets');
    expect(screen.queryByTestId('notice')).toBeNull();

    // and the toolbar's Undo undoes it as any other step (the step stays where the player is)
    await user.click(screen.getByRole('button', { name: 'Start over' }));
    await user.click(screen.getByRole('button', { name: /↶/ }));
    expect(present().tiles).toHaveLength(14);
    expect(store.get().step).toBe('capture');
    await user.click(screen.getByRole('button', { name: /↷/ }));
    expect(present().tiles).toHaveLength(0);
  });

  it('the notice goes once the next hand is started, so its Undo cannot undo that instead', async () => {
    const user = userEvent.setup();
    const { store } = mount(<Scanner />, work({ codes: HAND }), 'result');
    await user.click(screen.getByRole('button', { name: 'Start over' }));
    expect(screen.getByTestId('notice').textContent).toContain('Started over');
    act(() => store.run(loadTiles([{ code: '1m' }, { code: '1m' }, { code: '1m' }], 'manual', null)));
    expect(screen.queryByTestId('notice')).toBeNull();
  });
});

describe('photosToKeep', () => {
  it('keeps the present photo, the ones redo reaches and the last few undo reaches', () => {
    let h = historyOf(emptyWork());
    for (const k of ['a', 'b', 'c', 'd', 'e']) h = perform(h, step(withPhoto(k)));
    // a correction of e (same photo) and a start over
    h = perform(h, step({ ...h.present, tiles: h.present.tiles.slice(1) }));
    h = perform(h, step(emptyWork()));
    expect(PAST_PHOTOS_KEPT).toBe(2);
    expect([...photosToKeep(h)].sort()).toEqual(['d', 'e']);
    // undo twice: e is present again; d and c are the older ones kept; redo's empty work has none
    h = { past: h.past.slice(0, -2), present: h.past[h.past.length - 2]!, future: [h.past[h.past.length - 1]!, h.present] };
    expect(h.present.photo?.key).toBe('e');
    expect([...photosToKeep(h)].sort()).toEqual(['c', 'd', 'e']);
  });

  it('keeps a photo redo can reach even when the present has none', () => {
    const h = { past: [], present: emptyWork(), future: [withPhoto('x'), withPhoto('y')] };
    expect([...photosToKeep(h)].sort()).toEqual(['x', 'y']);
  });
});
