// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { TableSession } from '../../src/app/session/TableSession.tsx';
import { SessionStoreProvider } from '../../src/app/session/useSession.ts';
import { addScoredHandTo, createSessionStore, memoryStorage, STORAGE_KEY, type SessionStore } from '../../src/app/session/store.ts';
import { sessionResources } from '../../src/app/session/i18n.ts';
import { shareResources } from '../../src/app/share/i18n.ts';
import { testI18n } from './i18n-setup.ts';

function mount(store: SessionStore, lng = 'en') {
  return render(
    <I18nextProvider i18n={testI18n(lng)}>
      <SessionStoreProvider store={store}><TableSession /></SessionStoreProvider>
    </I18nextProvider>,
  );
}

const totals = () => [0, 1, 2, 3].map((p) => screen.getByTestId(`total-${p}`).textContent);
const tablePoints = () => [0, 1, 2, 3].map((p) => screen.getByTestId(`table-points-${p}`).textContent);

async function startTable(user: ReturnType<typeof userEvent.setup>) {
  const names = ['Anders', 'Bente', 'Claus', 'Dorte'];
  await screen.findByRole('button', { name: 'Start table' });
  for (let i = 0; i < 4; i++) await user.type(screen.getByLabelText(new RegExp(`^Player ${i + 1} `)), names[i]);
  await user.type(screen.getByLabelText('Tournament'), 'Club night');
  await user.click(screen.getByRole('button', { name: 'Start table' }));
}

let blobs: Blob[];
beforeEach(() => {
  blobs = [];
  // each test starts from an empty browser: no localStorage mirror of an earlier test's sheet
  localStorage.clear();
  URL.createObjectURL = vi.fn((b: Blob) => { blobs.push(b); return `blob:test/${blobs.length}`; }) as typeof URL.createObjectURL;
  URL.revokeObjectURL = vi.fn();
});
afterEach(cleanup);

describe('<TableSession />', () => {
  it('plays the 003 example: scored hands by seat, a typed draw, a penalty; totals, undo, persistence', async () => {
    const storage = memoryStorage();
    const store = createSessionStore(storage);
    const user = userEvent.setup();
    mount(store);
    await startTable(user);
    expect(screen.getByTestId('next-hand').textContent).toContain('East: Anders');

    // Hand 1, from the result screen: East (Anders) wins 22 on North's (Dorte's) discard.
    act(() => { expect(addScoredHandTo(store, { winnerSeat: 'E', selfDrawn: false, discarderSeat: 'N', points: 22, link: 'http://x/#/h/a.1' }).ok).toBe(true); });
    expect(totals()).toEqual(['46', '−8', '−8', '−30']);
    expect(screen.getByRole('link', { name: 'verify hand' }).getAttribute('href')).toBe('http://x/#/h/a.1');

    // Hand 2, typed: a draw.
    await user.click(screen.getByRole('button', { name: 'Type in a hand' }));
    await user.click(screen.getByLabelText('Draw'));
    await user.click(screen.getByRole('button', { name: 'Add to sheet' }));
    expect(screen.getByTestId('hand-2').textContent).toContain('Draw');

    // Hand 3: Claus deals, so Dorte sits South; she wins 10 self-drawn.
    expect(screen.getByTestId('next-hand').textContent).toContain('dealer Claus');
    expect(screen.getByTestId('next-hand').textContent).toContain('South: Dorte');
    act(() => { addScoredHandTo(store, { winnerSeat: 'S', selfDrawn: true, points: 10 }); });
    expect(totals()).toEqual(['28', '−26', '−26', '24']);

    // Hand 4, typed: Claus pays a 30-point penalty shared out; Dorte wins 8 on Anders's discard.
    await user.click(screen.getByRole('button', { name: 'Type in a hand' }));
    const form = screen.getByRole('form', { name: 'Hand 4' });
    await user.selectOptions(within(form).getByLabelText('Winner'), 'Dorte');
    await user.selectOptions(within(form).getByLabelText('Discarded by'), 'Anders');
    await user.clear(within(form).getByLabelText('Points'));
    await user.type(within(form).getByLabelText('Points'), '8');
    await user.click(within(form).getByRole('button', { name: 'Add penalty' }));
    await user.selectOptions(within(form).getByLabelText('Player'), 'Claus');
    await user.click(within(form).getByRole('button', { name: 'Add to sheet' }));
    expect(totals()).toEqual(['22', '−24', '−64', '66']);
    expect(tablePoints()).toEqual(['2', '1', '0', '4']);
    expect(screen.getByTestId('hand-4').textContent).toContain('+10 −16');

    // Delete hand 2, then undo.
    await user.click(screen.getByRole('button', { name: 'Delete hand 2' }));
    expect(screen.queryByTestId('hand-4')).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('Hand 2 deleted');
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(totals()).toEqual(['22', '−24', '−64', '66']);

    // Edit hand 1: 22 -> 24 points; the hand is now typed and loses its link.
    await user.click(screen.getByRole('button', { name: 'Edit hand 1' }));
    const edit = screen.getByRole('form', { name: 'Edit hand 1' });
    await user.clear(within(edit).getByLabelText('Points'));
    await user.type(within(edit).getByLabelText('Points'), '24');
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    expect(totals()).toEqual(['24', '−24', '−64', '64']);
    expect(screen.queryByRole('link', { name: 'verify hand' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(totals()).toEqual(['22', '−24', '−64', '66']);

    // Saved on every change: a new store on the same storage (a reload) has the same sheet.
    await store.flushed();
    expect(storage.data[STORAGE_KEY]).toBeTruthy();
    cleanup();
    const reloaded = createSessionStore(storage);
    mount(reloaded);
    await waitFor(() => expect(totals()).toEqual(['22', '−24', '−64', '66']));
    // Undo history survives the reload too.
    expect((screen.getByRole('button', { name: 'Undo' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('refuses a bad typed hand with a message and keeps the sheet', async () => {
    const store = createSessionStore(memoryStorage());
    const user = userEvent.setup();
    mount(store);
    await startTable(user);
    await user.click(screen.getByRole('button', { name: 'Type in a hand' }));
    const form = screen.getByRole('form', { name: 'Hand 1' });
    // Anders is the winner by default; make him the discarder too.
    await user.selectOptions(within(form).getByLabelText('Discarded by'), 'Anders');
    await user.click(within(form).getByRole('button', { name: 'Add to sheet' }));
    // In words, not the engine's technical message (hand 1, field "discarder": ...), which stays for the CLI.
    expect(screen.getByRole('alert').textContent).toBe('Hand 1: the winner cannot also be the discarder.');
    await user.clear(within(form).getByLabelText('Points'));
    await user.type(within(form).getByLabelText('Points'), '7');
    await user.selectOptions(within(form).getByLabelText('Discarded by'), 'Bente');
    await user.click(within(form).getByRole('button', { name: 'Add to sheet' }));
    expect(screen.getByRole('alert').textContent).toBe('Hand 1: a win needs at least 8 points.');
    expect(store.getState().record?.hands).toEqual([]);
  });

  it('exports CSV and JSON through Blob URLs and imports the JSON back', async () => {
    const store = createSessionStore(memoryStorage());
    const user = userEvent.setup();
    mount(store);
    await startTable(user);
    act(() => { addScoredHandTo(store, { winnerSeat: 'E', selfDrawn: true, points: 8 }); });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await user.click(screen.getByRole('button', { name: 'Export JSON' }));
    expect(blobs).toHaveLength(2);
    expect(blobs[0].type).toContain('text/csv');
    const csv = await blobs[0].text();
    expect(csv).toContain('1,E1,Anders,win,Anders,,yes,8,scored,,48,-16,-16,-16,48,-16,-16,-16,');
    const json = await blobs[1].text();
    expect(JSON.parse(json).players).toEqual(['Anders', 'Bente', 'Claus', 'Dorte']);

    // Start over, then import the exported JSON.
    await user.click(screen.getByRole('button', { name: 'New table' }));
    expect(screen.getByRole('button', { name: 'Start table' })).toBeTruthy();
    await user.upload(screen.getByTestId('session-import'), new File([json], 'sheet.json', { type: 'application/json' }));
    await waitFor(() => expect(totals()).toEqual(['48', '−16', '−16', '−16']));

    // A broken file is refused with its reason, and the sheet stays.
    const bad = JSON.stringify({ players: ['a', 'b', 'c', 'd'], hands: [{ winner: 'a', discarder: 'a', points: 8 }] });
    await user.upload(screen.getByTestId('session-import'), new File([bad], 'bad.json', { type: 'application/json' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/hand 1, field "discarder"/));
    expect(totals()).toEqual(['48', '−16', '−16', '−16']);
  });

  it('shows shared table points to two decimals, in the player\'s language', async () => {
    for (const [lng, want] of [['en', ['2.33', '2.33', '2.33', '0']], ['pl', ['2,33', '2,33', '2,33', '0']]] as const) {
      localStorage.clear();
      const store = createSessionStore(memoryStorage());
      const user = userEvent.setup();
      mount(store);
      await startTable(user);
      // Anders, Bente and Claus each win 8 self-drawn as East of hands 1-3 (the deal passes): 48 - 16
      // - 16 = 16 each, Dorte -48; first place shared three ways, (4 + 2 + 1) / 3 each
      act(() => {
        for (let i = 0; i < 3; i++) addScoredHandTo(store, { winnerSeat: 'E', selfDrawn: true, points: 8 });
      });
      cleanup();
      mount(store, lng);
      await waitFor(() => expect(tablePoints()).toEqual(want));
      cleanup();
    }
  });

  it('renders the printable sheet in the 003 layout', async () => {
    const store = createSessionStore(memoryStorage());
    const user = userEvent.setup();
    mount(store);
    await startTable(user);
    const sheet = screen.getByTestId('printable-sheet');
    for (const head of ['東 EAST', '南 SOUTH', '西 WEST', '北 NORTH']) expect(sheet.textContent).toContain(head);
    // South round seats: Bente E, Anders S, Dorte W, Claus N.
    const south = within(sheet).getByRole('table', { name: '南 SOUTH' });
    expect(south.textContent).toContain('Anders (S)');
    expect(south.textContent).toContain('Bente (E)');
    expect(south.textContent).toContain('Claus (N)');
    expect(sheet.textContent).toContain('Club night');
  });

  it('speaks Polish, Swedish and Chinese', async () => {
    for (const [lng, start] of [['pl', 'Rozpocznij stół'], ['sv', 'Starta ett bord'], ['zh', '开始一桌']] as const) {
      mount(createSessionStore(memoryStorage()), lng);
      expect(await screen.findByRole('heading', { name: start })).toBeTruthy();
      cleanup();
    }
  });
});

describe('i18n resources', () => {
  // plural forms differ by language (English _one, Polish _one/_few/_many): compare the keys without them
  const keys = (o: object, prefix = ''): string[] => [...new Set(Object.entries(o).flatMap(([k, v]) =>
    typeof v === 'object' ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k.replace(/_(zero|one|two|few|many|other)$/, '')}`]))].sort();
  it.each(['pl', 'sv', 'zh'] as const)('%s has every English key', (lng) => {
    expect(keys(sessionResources[lng])).toEqual(keys(sessionResources.en));
    expect(keys(shareResources[lng])).toEqual(keys(shareResources.en));
  });
});
