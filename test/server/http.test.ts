/**
 * The event API on both databases: PGlite (embedded, in memory) always, and a real PostgreSQL
 * server when TEST_DATABASE_URL is set (CI sets it: scripts/setup-test-deps.sh starts one). In
 * CI a missing TEST_DATABASE_URL fails the run instead of skipping the PostgreSQL half.
 */
import { describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { openDb } from '../../src/server/db.ts';
import { eventApiSuite } from './http-suite.ts';

eventApiSuite('PGlite', () => openDb());

const url = process.env.TEST_DATABASE_URL;
if (url) {
  // A schema of its own per run, dropped afterwards, so runs never see each other's rows.
  const schema = `test_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
  eventApiSuite('PostgreSQL', async () => {
    const db = await openDb({ url, schema });
    const close = db.close.bind(db);
    return {
      ...db,
      kind: db.kind,
      close: async () => {
        await close();
        const admin = postgres(url, { max: 1, onnotice: () => {} });
        await admin.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await admin.end({ timeout: 5 });
      },
    };
  });
} else if (process.env.CI) {
  describe('event API on PostgreSQL', () => {
    it('runs in CI', () => {
      expect.fail('CI is set but TEST_DATABASE_URL is not: run scripts/setup-test-deps.sh (it starts PostgreSQL and writes the URL to .tmp/test-database-url), then npm run test:all');
    });
  });
} else {
  describe.skip('event API on PostgreSQL (skipped: TEST_DATABASE_URL is not set)', () => {
    it('needs a PostgreSQL server', () => {});
  });
}
