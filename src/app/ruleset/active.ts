/**
 * Which ruleset the scanner scores with. An open table fixes it (the table's
 * ruleset, stored in its sheet record); with no table open the player's own
 * choice applies, MCR by default.
 *
 * The table's ruleset is mirrored here by the session store, and both are kept in
 * localStorage, so the scanner knows it at once on boot without loading the score
 * sheet module (and zod) into the first load.
 */
import { useSyncExternalStore } from 'react';

export type RulesetId = 'mcr' | 'fan-pays';
export const RULESET_IDS: readonly RulesetId[] = ['mcr', 'fan-pays'];

export interface RulesetChoice {
  /** The player's choice when no table is open. */
  global: RulesetId;
  /** The open table's ruleset, or null with no table open. */
  table: RulesetId | null;
}

const GLOBAL_KEY = 'mj.ruleset';
const TABLE_KEY = 'mj.tableRuleset';

const isId = (v: unknown): v is RulesetId => (RULESET_IDS as readonly unknown[]).includes(v);

function readKey(key: string): string | null {
  try { return typeof localStorage !== 'undefined' ? localStorage.getItem(key) : null; } catch { return null; }
}

function writeKey(key: string, value: string | null): void {
  try {
    if (typeof localStorage === 'undefined') return;
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* storage blocked: the choice still holds until reload */ }
}

function fromStorage(): RulesetChoice {
  const g = readKey(GLOBAL_KEY);
  const t = readKey(TABLE_KEY);
  return { global: isId(g) ? g : 'mcr', table: isId(t) ? t : null };
}

let state: RulesetChoice = fromStorage();
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export const rulesetChoice = (): RulesetChoice => state;

/** The ruleset in force: the open table's, else the player's choice. */
export const activeRuleset = (s: RulesetChoice = state): RulesetId => s.table ?? s.global;

export function setGlobalRuleset(id: RulesetId): void {
  if (!isId(id) || state.global === id) return;
  state = { ...state, global: id };
  writeKey(GLOBAL_KEY, id);
  emit();
}

/** Called by the session store whenever its record changes (null: no table open). */
export function setTableRuleset(id: RulesetId | null): void {
  const table = isId(id) ? id : null;
  if (state.table === table) return;
  state = { ...state, table };
  writeKey(TABLE_KEY, table);
  emit();
}

/** Tests: read the stored choice again (or start from `next`). */
export function resetRulesetChoice(next?: RulesetChoice): void {
  state = next ?? fromStorage();
  emit();
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => { listeners.delete(l); };
}

export function useRulesetChoice(): RulesetChoice {
  return useSyncExternalStore(subscribe, rulesetChoice, rulesetChoice);
}

export function useActiveRuleset(): RulesetId {
  return activeRuleset(useRulesetChoice());
}
