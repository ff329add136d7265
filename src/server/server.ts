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
  // Requests still being handled; close() waits for them so no transaction is cut off.
  let active = 0;
  const fetch = async (req: Request, env: unknown): Promise<Response> => {
    active++;
    try {
      return await app.fetch(req, env as object);
    } finally {
      active--;
    }
  };
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch, port: options.port ?? 8080, hostname: host }, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${host}:${port}`,
    store,
    close: async () => {
      const http = server as ServerType & { closeIdleConnections?: () => void; closeAllConnections?: () => void };
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      http.closeIdleConnections?.();
      while (active > 0) await new Promise((r) => setTimeout(r, 10));
      // What is left are open standings streams, which would hold the listener forever.
      http.closeAllConnections?.();
      await closed;
      await db.close();
    },
  };
}
