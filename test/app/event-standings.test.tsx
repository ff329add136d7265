// @vitest-environment jsdom
/**
 * The standings page (src/app/event/StandingsPage.tsx): live from the server-sent stream, and
 * polling /standings when the stream drops; players in the server's order with their ranks.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { StandingsPage } from '../../src/app/event/StandingsPage.tsx';
import type { Standings } from '../../src/app/event/api.ts';
import { testI18n } from '../sheet/i18n-setup.ts';

const standings = (score: number): Standings => ({
  eventId: 'ev_test000001', name: 'Club night', rules: 'mcr', updatedAt: 1_700_000_000_000,
  players: [
    { name: 'Cy', rank: 1, tablePoints: 4, score, perSession: [{ session: 1, table: 1, tablePoints: 4, score }] },
    { name: 'Ann', rank: 2, tablePoints: 2, score: -9, perSession: [{ session: 1, table: 1, tablePoints: 2, score: -9 }] },
  ],
});

class FakeEventSource {
  static last: FakeEventSource | null = null;
  url: string;
  onerror: (() => void) | null = null;
  closed = false;
  private listeners = new Map<string, ((ev: MessageEvent) => void)[]>();
  constructor(url: string) { this.url = url; FakeEventSource.last = this; }
  addEventListener(type: string, fn: (ev: MessageEvent) => void) { this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]); }
  close() { this.closed = true; }
  send(type: string, data: unknown) { for (const fn of this.listeners.get(type) ?? []) fn(new MessageEvent(type, { data: JSON.stringify(data) })); }
}

afterEach(() => { cleanup(); vi.unstubAllGlobals(); FakeEventSource.last = null; });

const names = () => screen.getAllByTestId('standing').map((r) => within(r).getByRole('rowheader').textContent);

describe('standings page', () => {
  it('follows the stream, and polls when the stream drops', async () => {
    let served = standings(139);
    const fetch = vi.fn(async (_url: string) => new Response(JSON.stringify(served), { status: 200, headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', fetch);
    vi.stubGlobal('EventSource', FakeEventSource);
    render(<I18nextProvider i18n={testI18n('en')}><StandingsPage eventId="ev_test000001" /></I18nextProvider>);
    await screen.findByTestId('standings');
    expect(fetch.mock.calls[0][0]).toBe('/api/events/ev_test000001/standings');
    expect(names()).toEqual(['Cy', 'Ann']);
    await waitFor(() => expect(FakeEventSource.last?.url).toBe('/api/events/ev_test000001/standings/stream'));

    // a change arrives on the stream
    act(() => FakeEventSource.last!.send('standings', { ...standings(150), players: [...standings(150).players].reverse().map((p, i) => ({ ...p, rank: i + 1 })) }));
    await waitFor(() => expect(names()).toEqual(['Ann', 'Cy']));
    expect(screen.getByTestId('standings-mode').textContent).toMatch(/^Live/);
    // a message that is not standings changes nothing
    act(() => FakeEventSource.last!.send('standings', { nonsense: true }));
    expect(names()).toEqual(['Ann', 'Cy']);

    // the stream drops: the page polls
    served = standings(200);
    const source = FakeEventSource.last!;
    act(() => source.onerror!());
    expect(source.closed).toBe(true);
    await waitFor(() => expect(screen.getByTestId('standings-mode').textContent).toMatch(/^Updated every few seconds/));
    await waitFor(() => expect(names()).toEqual(['Cy', 'Ann']));
    expect(screen.getAllByTestId('standing')[1].textContent).toContain('−9');
  });

  it('says plainly when the server cannot be reached', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('Failed to fetch'); }));
    vi.stubGlobal('EventSource', FakeEventSource);
    render(<I18nextProvider i18n={testI18n('en')}><StandingsPage eventId="ev_test000001" /></I18nextProvider>);
    expect((await screen.findByRole('alert')).textContent).toMatch(/event server cannot be reached/);
    expect(screen.getByTestId('standings-mode').textContent).toMatch(/Not connected/);
  });
});
