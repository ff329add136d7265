/**
 * `npm run event`: build the app when dist/ is missing or older than its sources, then serve an
 * event on PGlite (data in EVENT_DATA_DIR, default .event-data/) or, with DATABASE_URL, on
 * PostgreSQL. PORT (default 8080) and HOST (default 127.0.0.1) set the address;
 * EVENT_JOIN_LIMIT the joins allowed per client address per minute (default 30).
 * `--no-build` serves dist/ as it is.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { startServer } from './server.ts';

const root = process.cwd();
const dist = path.join(root, 'dist');

function newest(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...readdirSync(p).map((f) => newest(path.join(p, f))));
}

function buildIfStale(): void {
  const built = existsSync(path.join(dist, 'index.html')) ? statSync(path.join(dist, 'index.html')).mtimeMs : 0;
  const sources = Math.max(...['src/app', 'src/engine', 'src/vision', 'src/event', 'public', 'model', 'index.html', 'vite.config.ts'].map((p) => newest(path.join(root, p))));
  if (built >= sources) return;
  console.log(built ? 'event: dist/ is older than the app sources; building' : 'event: building the app (dist/)');
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'], { stdio: 'inherit' });
}

async function main(): Promise<void> {
  if (!process.argv.includes('--no-build')) buildIfStale();
  const url = process.env.DATABASE_URL;
  const dataDir = path.resolve(process.env.EVENT_DATA_DIR ?? '.event-data');
  const server = await startServer({
    url: url || undefined,
    dataDir: url ? undefined : dataDir,
    port: Number(process.env.PORT ?? 8080),
    host: process.env.HOST ?? '127.0.0.1',
    staticDir: dist,
    ...(process.env.EVENT_JOIN_LIMIT ? { joinLimit: { max: Number(process.env.EVENT_JOIN_LIMIT), windowMs: 60_000 } } : {}),
  });
  console.log(`event server on ${server.url} (${url ? 'PostgreSQL' : `PGlite in ${dataDir}`})`);
  console.log(`directors: ${server.url}/#/event`);
  const stop = () => { void server.close().then(() => process.exit(0)); };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: unknown) => {
  console.error(`event server: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
