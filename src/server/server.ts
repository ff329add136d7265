/**
 * Starting and stopping the event server: the database (PGlite in a folder, or PostgreSQL from
 * a URL), the store and the HTTP listener. Used by main.ts, the tests and the bench.
 */
import { serve, type ServerType } from '@hono/node-server';
import { createApp, type AppOptions } from './app.ts';
import { openDb, type DbOptions } from './db.ts';
import { EventStore } from './store.ts';

export interface ServerOptions extends DbOptions, Omit<AppOptions, 'store'> {
  port?: number;
  host?: string;
}

export interface RunningServer {
  url: string;
  store: EventStore;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const db = await openDb(options);
  const store = new EventStore(db);
  const app = createApp({ ...options, store });
  const host = options.host ?? '127.0.0.1';
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? 8080, hostname: host }, () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${host}:${port}`,
    store,
    close: async () => {
      // Open standings streams would hold the listener forever: end them first.
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}
