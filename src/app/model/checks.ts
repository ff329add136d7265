/** Tile count checks for the Review step: pure, with i18n keys for the messages. */
import type { TileItem } from './work.ts';
import { isFlowerCode } from './work.ts';
import type { RulesetId } from '../ruleset/active.ts';

/**
 * The confidence that decides whether the player is asked to check a recognised tile (needsCheck).
 * Under MCR every flower and season scores the same point (MCR 081, Flower Tiles), so for a tile
 * read as one it is how sure recognition is that the tile is some flower or season, not which one
 * (TileItem.flowerScore); Fan Pays tells the flowers apart, so there it stays the tile's own score.
 */
export function checkScore(tile: Pick<TileItem, 'code' | 'score' | 'flowerScore'>, ruleset: RulesetId): number | undefined {
  if (ruleset === 'mcr' && isFlowerCode(tile.code) && tile.flowerScore !== undefined && tile.score !== undefined) return Math.max(tile.score, tile.flowerScore);
  return tile.score;
}

export interface Issue {
  severity: 'error' | 'warning';
  key: string;
  values?: Record<string, string | number>;
}

/**
 * `sets`: sets in a complete hand for the ruleset (`Ruleset.shape.sets`): 4 in MCR
 * (14 tiles), 5 in Fan Pays (17 tiles).
 */
export function checkTiles(tiles: TileItem[], sets = 4): Issue[] {
  const issues: Issue[] = [];
  if (tiles.length === 0) return [{ severity: 'error', key: 'check.empty' }];
  const flowers = tiles.filter((t) => isFlowerCode(t.code));
  const main = tiles.filter((t) => !isFlowerCode(t.code));
  const backs = main.filter((t) => t.code === 'back').length;
  const counts = new Map<string, number>();
  for (const t of main) if (t.code !== 'back') counts.set(t.code, (counts.get(t.code) ?? 0) + 1);

  // A set has exactly four of each tile (MCR 000: 136 tiles, 34 kinds x 4).
  for (const [code, n] of counts) {
    if (n > 4) issues.push({ severity: 'error', key: 'check.fiveOfAKind', values: { tile: code, n } });
  }
  const flowerCounts = new Map<string, number>();
  for (const f of flowers) flowerCounts.set(f.code, (flowerCounts.get(f.code) ?? 0) + 1);
  for (const [code, n] of flowerCounts) {
    if (n > 1) issues.push({ severity: 'error', key: 'check.flowerTwice', values: { tile: code, n } });
  }

  // Sets and a pair (14 tiles in MCR, 17 in Fan Pays), plus one for each kong;
  // flowers are laid aside and not counted.
  const base = 3 * sets + 2;
  const max = base + sets;
  const n = main.length;
  const fours = [...counts.values()].filter((c) => c === 4).length;
  const kongCandidates = fours + Math.floor(backs / 2);
  if (n < base) {
    issues.push({ severity: 'error', key: 'check.tooFew', values: { n, missing: base - n, base } });
  } else if (n > max) {
    issues.push({ severity: 'error', key: 'check.tooManyTiles', values: { n, max } });
  } else if (n - base > kongCandidates) {
    issues.push({ severity: 'error', key: 'check.extraTiles', values: { n, kongs: n - base, found: kongCandidates } });
  }
  if (backs % 2 === 1) issues.push({ severity: 'error', key: 'check.oddBacks', values: { n: backs } });
  else if (backs > 0 && backs / 2 > n - base) issues.push({ severity: 'warning', key: 'check.backsNoKong', values: { n: backs } });
  return issues;
}

export const hasErrors = (issues: Issue[]): boolean => issues.some((i) => i.severity === 'error');
