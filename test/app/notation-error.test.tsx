// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NotationForm } from '../../src/app/review/ReviewView.tsx';
import { lang, mount, work } from './helpers.tsx';

afterEach(() => { cleanup(); lang('en'); });

async function enter(text: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Type or paste a hand'), text);
  await user.click(screen.getByRole('button', { name: 'Use this hand' }));
  return screen.getByRole('alert').textContent;
}

describe('notation errors', () => {
  it('in English: what is wrong, the parser\'s detail and the place, each once', async () => {
    mount(<NotationForm />, work({ codes: '' }));
    expect(await enter('123x456m')).toBe('The hand notation could not be read. Unexpected character "x" (character 4)');
  });

  it('in another language: only the translated message and the place, no English', async () => {
    const { store } = mount(<NotationForm />, work({ codes: '' }));
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Type or paste a hand'), '123x456m');
    act(() => lang('pl'));
    await user.click(screen.getByRole('button', { name: 'Użyj tej ręki' }));
    const text = screen.getByRole('alert').textContent ?? '';
    expect(text).toBe('Nie udało się odczytać zapisu ręki. (znak 4)');
    expect(store.get().history.present.tiles).toHaveLength(0);
  });
});
