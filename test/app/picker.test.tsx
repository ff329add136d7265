// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ReviewView } from '../../src/app/review/ReviewView.tsx';
import { mount, work } from './helpers.tsx';

afterEach(cleanup);

const HAND = '1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 5p 2s 3s 4s';

describe('the tile picker (a modal sheet)', () => {
  it('opens on the tile as it reads now, keeps Tab inside, and closes with Escape wherever the focus is', async () => {
    const user = userEvent.setup();
    mount(<ReviewView onNext={() => undefined} />, work({ codes: HAND }));
    const opener = screen.getByRole('button', { name: 'Tile 10: 5 Dots' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog');
    // focus starts on the current reading, not on Close
    expect(document.activeElement?.getAttribute('aria-pressed')).toBe('true');
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(document.activeElement?.textContent ?? document.activeElement?.getAttribute('aria-label')).not.toBe('Close');
    // sixty Tabs (and some back) never leave the dialog
    for (let i = 0; i < 60; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
    for (let i = 0; i < 7; i++) {
      await user.tab({ shift: true });
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
    // Escape closes it even when the focus has gone to the page
    (document.activeElement as HTMLElement).blur();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});
