/** The club event strings (src/app/event/locales): every language has the English keys, plural forms aside. */
import { describe, expect, it } from 'vitest';
import { eventResources } from '../../src/app/event/i18n.ts';

const PLURAL = /_(zero|one|two|few|many|other)$/;
function keys(node: unknown, prefix = ''): string[] {
  return Object.entries(node as Record<string, unknown>).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k.replace(PLURAL, '')}`] : keys(v, `${prefix}${k}.`));
}

describe('event strings', () => {
  const english = [...new Set(keys(eventResources.en))].sort();
  for (const lang of ['pl', 'sv', 'zh'] as const) {
    it(`${lang} has exactly the English keys`, () => {
      expect([...new Set(keys(eventResources[lang]))].sort()).toEqual(english);
    });
  }
  it('counts have the plural forms each language needs', () => {
    const table = (lang: keyof typeof eventResources) => Object.keys(eventResources[lang].event.table).filter((k) => k.startsWith('waiting'));
    expect(table('en').sort()).toEqual(['waiting_one', 'waiting_other']);
    expect(table('pl').sort()).toEqual(['waiting_few', 'waiting_many', 'waiting_one', 'waiting_other']);
    expect(table('zh')).toEqual(['waiting_other']);
  });
});
