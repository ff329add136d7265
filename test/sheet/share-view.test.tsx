// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { defaultContext, parseHand, scoreMcr } from '../../src/engine/index.ts';
import { ShareHand } from '../../src/app/share/ShareHand.tsx';
import { SharedHandView } from '../../src/app/share/SharedHandView.tsx';
import { handLinkPayload } from '../../src/app/share/link.ts';
import { testI18n } from './i18n-setup.ts';

afterEach(cleanup);

const hand = parseHand('[EEE1][SSSS1]55pWWWNNN');
const ctx = defaultContext({ selfDrawn: true, flowers: 2 });
const result = scoreMcr(hand, ctx);
const payload = handLinkPayload(hand, ctx, result);

const withI18n = (node: React.ReactNode, lng = 'en') => render(<I18nextProvider i18n={testI18n(lng)}>{node}</I18nextProvider>);

describe('<SharedHandView />', () => {
  it('shows the hand scored again, with its fans and total', () => {
    withI18n(<SharedHandView payload={payload} />);
    expect(screen.getByTestId('shared-total').textContent).toBe(`${result.total} points`);
    expect(result.total).toBe(100);
    expect(screen.getByText('Big Four Winds')).toBeTruthy();
    expect(screen.getByText('[EEE1][SSSS1]55pWWWNNN')).toBeTruthy();
    expect(screen.getByText('Self-drawn')).toBeTruthy();
    expect(screen.getByText('Flowers: 2')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('100 points, the same as in the link');
  });

  it('names fans in the reader’s language', () => {
    withI18n(<SharedHandView payload={payload} />, 'zh');
    expect(screen.getByText('大四喜')).toBeTruthy();
  });

  it('a damaged link shows a clear error and no score', () => {
    const i = 10;
    const damaged = payload.slice(0, i) + (payload[i] === 'A' ? 'B' : 'A') + payload.slice(i + 1);
    withI18n(<SharedHandView payload={damaged} />);
    expect(screen.getByRole('alert').textContent).toContain('damaged or was changed');
    expect(screen.queryByTestId('shared-total')).toBeNull();
  });
});

describe('<ShareHand />', () => {
  it('shows the link and its QR code; the link opens the same hand', async () => {
    withI18n(<ShareHand hand={hand} ctx={ctx} result={result} base="https://mahjong.example/" />);
    const link = (screen.getByTestId('share-link') as HTMLInputElement).value;
    expect(link).toBe(`https://mahjong.example/#/h/${payload}`);
    expect(screen.getByRole('link', { name: 'Open link' }).getAttribute('href')).toBe(link);
    const qr = await screen.findByRole('img', { name: 'QR code of the hand link' });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    cleanup();
    withI18n(<SharedHandView payload={link} />);
    expect(screen.getByTestId('shared-total').textContent).toBe('100 points');
  });
});
