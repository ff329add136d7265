// @vitest-environment jsdom
/** A hand typed in notation gets the whole grouping on the Sets screen, as a scanned or keyboard hand does. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Scanner } from '../../src/app/shell/Scanner.tsx';
import { buildHand } from '../../src/app/model/hand.ts';
import { formatHand } from '../../src/engine/index.ts';
import { mount, work } from './helpers.tsx';

afterEach(cleanup);

/** Type the notation on the manual Tiles screen, use it and go on to Sets. */
async function typeHand(notation: string) {
  const user = userEvent.setup();
  const m = mount(<Scanner />, work({}), 'review');
  await user.click(screen.getByLabelText('Type or paste a hand'));
  await user.paste(notation);
  await user.click(screen.getByRole('button', { name: 'Use this hand' }));
  await user.click(screen.getByRole('button', { name: 'Next' }));
  expect(m.store.get().step).toBe('sets');
  return { user, ...m };
}

const cards = () => screen.getAllByRole('listitem').filter((li) => li.classList.contains('set-card'));
const shownCodes = (li: HTMLElement) => [...li.querySelectorAll('[data-tile]')].map((x) => x.getAttribute('data-tile'));

describe('notation on the Sets screen', () => {
  it('shows the typed melds as melded and the concealed tiles grouped, with the winning tile to tap', async () => {
    const { user, present, store } = await typeHand('[123p1][345s2][999s3]78mEE6m');
    const w = present();
    // every tile is in a set, stored with the hand (not proposed as an undo step later)
    expect(w.sets!.flatMap((s) => s.uids).sort()).toEqual(w.tiles.map((t) => t.uid).sort());
    expect(store.get().history.past).toHaveLength(1);
    expect(cards().map((li) => li.getAttribute('aria-label'))).toEqual([
      'Set 1: Chow', 'Set 2: Chow', 'Set 3: Pung', 'Set 4: Chow', 'Set 5: Pair',
    ]);
    expect(cards().map(shownCodes)).toEqual([['1p', '2p', '3p'], ['3s', '4s', '5s'], ['9s', '9s', '9s'], ['6m', '7m', '8m'], ['1z', '1z']]);
    for (const li of cards().slice(0, 3)) expect(within(li).getByRole('button', { name: 'Melded' }).getAttribute('aria-pressed')).toBe('true');
    expect(within(cards()[3]).getByRole('button', { name: 'Melded' }).getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByRole('button', { name: '6 Characters: the winning tile' }).getAttribute('aria-pressed')).toBe('true');
    // the claim digits are kept: the hand scored and shared is the one typed
    const built = buildHand(present());
    expect(built.ok && formatHand(built.hand)).toBe('[123p1][345s2][999s3]78mEE6m');

    // another winning tile can be chosen
    await user.click(screen.getByRole('button', { name: '7 Characters: mark as the winning tile' }));
    expect(present().tiles.find((t) => t.uid === present().winningUid)?.code).toBe('7m');

    // Regroup keeps the typed melds melded
    await user.click(screen.getByRole('button', { name: 'Regroup' }));
    expect(present().sets!.filter((s) => s.declared).map((s) => s.claim)).toEqual([{ from: 'left', index: 0 }, { from: 'left', index: 1 }, { from: 'right' }]);
    for (const li of cards().slice(0, 3)) expect(within(li).getByRole('button', { name: 'Melded' }).getAttribute('aria-pressed')).toBe('true');
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('groups a hand typed without brackets: seven pairs', async () => {
    await typeHand('1122m3344p5566s77z');
    expect(cards().map((li) => li.getAttribute('aria-label'))).toEqual(Array.from({ length: 7 }, (_, i) => `Set ${i + 1}: Pair`));
    expect(cards().flatMap(shownCodes)).toHaveLength(14);
    expect(screen.getByRole('button', { name: 'Red Dragon: the winning tile' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /: mark as the winning tile$/ })).toHaveLength(13);
  });

  it('groups a hand typed without brackets: four chows and a pair', async () => {
    const { present } = await typeHand('123456789m234s55p');
    expect(present().sets!.map((s) => s.kind).sort()).toEqual(['chow', 'chow', 'chow', 'chow', 'pair']);
    expect(cards().flatMap(shownCodes)).toHaveLength(14);
    expect(screen.getByRole('button', { name: '5 Dots: the winning tile' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps a typed concealed kong and a promoted kong as they were typed', async () => {
    const { present } = await typeHand('[1111m][2222p6]345s678sEE');
    const kongs = present().sets!.filter((s) => s.kind === 'kong');
    expect(kongs).toMatchObject([{ declared: true, concealedKong: true }, { declared: true, concealedKong: false, claim: { from: 'opposite', promoted: true } }]);
    expect(screen.getByRole('button', { name: 'Concealed kong', pressed: true })).toBeTruthy();
    const built = buildHand(present());
    expect(built.ok && formatHand(built.hand)).toBe('[1111m][2222p6]345678sEE');
  });
});
