/**
 * The event API on both databases: PGlite (embedded, in memory) always, and a real PostgreSQL
 * server when TEST_DATABASE_URL is set (CI sets it: scripts/setup-test-deps.sh starts one). In
 * CI a missing TEST_DATABASE_URL fails the run instead of skipping the PostgreSQL half.
 */
import { describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { openDb } from '../../src/server/db.ts';
import { EventStore } from '../../src/server/store.ts';
import { eventApiSuite } from './http-suite.ts';
import { names, typedWin } from './fixtures.ts';

eventApiSuite('PGlite', () => openDb());

const url = process.env.TEST_DATABASE_URL;
if (url) {
  // A schema of its own per run, dropped afterwards, so runs never see each other's rows.
  const schema = `test_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
  const dropSchema = async (name: string): Promise<void> => {
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
    await admin.end({ timeout: 5 });
  };
  eventApiSuite('PostgreSQL', async () => {
    const db = await openDb({ url, schema });
    const close = db.close.bind(db);
    return {
      ...db,
      kind: db.kind,
      close: async () => {
        await close();
        await dropSchema(schema);
      },
    };
  });
  describe('two servers on one PostgreSQL', () => {
    it('a change made through one reaches the standings streams of the other (LISTEN/NOTIFY)', async () => {
      const shared = `${schema}_two`;
      const a = await openDb({ url, schema: shared });
      const b = await openDb({ url, schema: shared });
      try {
        const storeA = new EventStore(a);
        const storeB = new EventStore(b);
        const heard: string[] = [];
        storeB.onChange((id) => heard.push(id));
        await new Promise((r) => setTimeout(r, 300)); // LISTEN is set up
        const { event } = await storeA.createEvent({ name: 'Two servers', rules: 'mcr', players: names(4), tables: 1, sessions: 1 });
        await storeA.applyOps(event.id, 1, 1, [{ opId: 'two-servers-op-1', kind: 'put', handId: 'two-servers-h1', at: 1, hand: typedWin(0, 8, 1) }]);
        for (let i = 0; i < 50 && !heard.includes(event.id); i++) await new Promise((r) => setTimeout(r, 100));
        expect(heard).toContain(event.id);
        expect((await storeB.standings(event.id)).players.find((p) => p.rank === 1)?.score).toBe(32);
      } finally {
        await a.close();
        await b.close();
        await dropSchema(shared);
      }
    });
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
