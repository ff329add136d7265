/**
 * All 42 tiles plus the face-down tile, as a grid of buttons. Used as the
 * correction picker (in a dialog) and as the manual-entry keyboard.
 */
import { useEffect, useRef, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { VISION_CODES } from '../../engine/index.ts';
import { TileFace } from '../tiles/TileFace.tsx';
import { tileName } from '../i18n/index.ts';

const GROUPS: { key: string; codes: readonly string[] }[] = [
  { key: 'tile.groupSuited', codes: VISION_CODES.slice(0, 27) },
  { key: 'tile.groupHonors', codes: VISION_CODES.slice(27, 34) },
  { key: 'tile.groupFlowers', codes: VISION_CODES.slice(34) },
];

export function TileGrid({ onPick, current, label, tileHeight = 44 }: { onPick: (code: string) => void; current?: string; label: string; tileHeight?: number }) {
  const { t } = useTranslation();
  return (
    <div className="tile-grid" role="group" aria-label={label}>
      {GROUPS.map((g) => (
        <div key={g.key} className="tile-grid-group" role="group" aria-label={t(g.key)}>
          {g.codes.map((code) => (
            <button
              key={code}
              type="button"
              className="tile-key"
              data-code={code}
              aria-label={tileName(t, code)}
              aria-pressed={current === undefined ? undefined : current === code}
              onClick={() => onPick(code)}
            >
              <TileFace code={code} height={tileHeight} decorative />
            </button>
          ))}
        </div>
      ))}
    </div>
  );
}

/** A bottom sheet dialog: focus moves in, Escape closes, focus returns to the opener. */
export function Sheet({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    // the current choice first (the tile as it reads now), else the first button
    const first = ref.current?.querySelector<HTMLElement>('[aria-pressed="true"]') ?? ref.current?.querySelector<HTMLElement>('button');
    first?.focus();
    // Escape closes the sheet wherever the focus is (a modal dialog: the page behind takes no keys)
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') { e.preventDefault(); close.current(); } };
    document.addEventListener('keydown', onKey);
    return () => { document.removeEventListener('keydown', onKey); opener?.focus?.(); };
  }, []);
  // Tab and Shift+Tab cycle inside the sheet (aria-modal: focus must not reach the page behind)
  const trapTab = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Tab' || !ref.current) return;
    const items = [...ref.current.querySelectorAll<HTMLElement>('button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])')];
    if (!items.length) return;
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next = e.shiftKey ? (at <= 0 ? items.length - 1 : at - 1) : (at === -1 || at === items.length - 1 ? 0 : at + 1);
    e.preventDefault();
    items[next]!.focus();
  };
  return (
    <div className="sheet-backdrop" onClick={onClose}>
      <div
        ref={ref}
        className="sheet"
        role="dialog"
        aria-modal="true"
        aria-label={title}
        onClick={(e) => e.stopPropagation()}
        onKeyDown={trapTab}
      >
        <div className="sheet-head">
          <h3>{title}</h3>
          <button type="button" className="btn ghost" onClick={onClose}>{t('common.close')}</button>
        </div>
        {children}
      </div>
    </div>
  );
}
