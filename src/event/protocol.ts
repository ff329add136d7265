/**
 * The event server's wire contract (docs/event-api.md, v1): the zod schemas and types shared by
 * the server (src/server/) and the app (src/app/event/), so both validate the same shapes.
 *
 * Pure TypeScript: no DOM, no Node. Sessions and tables are numbered from 1, as printed on the
 * table cards; players inside a sheet are indices 0..3 in seat order A B C D (document 003).
 */
import * as z from 'zod/mini';

/** Limits that keep one request small; a club event is 8 to 50 tables of 4 sessions. */
export const LIMITS = Object.freeze({
  maxTables: 200,
  maxSessions: 12,
  maxNameLength: 60,
  maxEventNameLength: 120,
  /** Ops in one POST .../ops. */
  maxOpsPerRequest: 100,
  /** A photo is a data: URL of a JPEG or PNG the table chose to send. */
  maxPhotoChars: 1_500_000,
  maxLinkChars: 2_000,
  maxCsvChars: 200_000,
  maxNoteChars: 1_000,
});

export const EVENT_RULES = ['mcr', 'fan-pays'] as const;
export type EventRules = (typeof EVENT_RULES)[number];

const int = (min: number, max: number) => z.int().check(z.minimum(min), z.maximum(max));
const text = (min: number, max: number) => z.string().check(z.trim(), z.minLength(min), z.maxLength(max));

/** A client-made id (opId, handId): a UUID or any 8..64 characters of [A-Za-z0-9_-]. */
export const clientId = z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/));
export const playerName = text(1, LIMITS.maxNameLength);
export const rulesSchema = z.enum(EVENT_RULES);

// ---- the sheet hand (src/engine/sheet/record.ts SheetHand) ----

const playerIndex = int(0, 3);

export const penaltySchema = z.strictObject({
  player: playerIndex,
  points: int(1, 100_000),
  split: z.boolean(),
});

export const winHandSchema = z.strictObject({
  kind: z.literal('win'),
  winner: playerIndex,
  selfDrawn: z.boolean(),
  discarder: z.nullable(playerIndex),
  points: int(0, 1_000_000),
  amounts: z.optional(z.array(z.int().check(z.minimum(-10_000_000), z.maximum(10_000_000))).check(z.length(4))),
  source: z.enum(['scored', 'typed']),
  link: z.optional(z.string().check(z.maxLength(LIMITS.maxLinkChars))),
  penalties: z.array(penaltySchema).check(z.maxLength(8)),
});

export const drawHandSchema = z.strictObject({
  kind: z.literal('draw'),
  penalties: z.array(penaltySchema).check(z.maxLength(8)),
});

/** The engine's SheetHand, as sent by a phone. */
export const sheetHandSchema = z.discriminatedUnion('kind', [winHandSchema, drawHandSchema]);

// ---- ops ----

const photoSchema = z.string().check(
  z.maxLength(LIMITS.maxPhotoChars),
  z.regex(/^data:image\/(jpeg|png|webp);base64,[A-Za-z0-9+/=]+$/),
);

/** A change to one hand of a table's sheet; `at` is the phone's clock (ms since 1970) when made. */
export const putOpSchema = z.strictObject({
  opId: clientId,
  kind: z.literal('put'),
  handId: clientId,
  at: z.int().check(z.minimum(0)),
  hand: sheetHandSchema,
  photo: z.optional(photoSchema),
});

export const deleteOpSchema = z.strictObject({
  opId: clientId,
  kind: z.literal('delete'),
  handId: clientId,
  at: z.int().check(z.minimum(0)),
});

export const opSchema = z.discriminatedUnion('kind', [putOpSchema, deleteOpSchema]);
export type PutOp = z.infer<typeof putOpSchema>;
export type DeleteOp = z.infer<typeof deleteOpSchema>;
export type Op = z.infer<typeof opSchema>;

export const opsBodySchema = z.strictObject({
  ops: z.array(opSchema).check(z.minLength(1), z.maxLength(LIMITS.maxOpsPerRequest)),
});
export type OpsBody = z.infer<typeof opsBodySchema>;

// ---- the server's re-scoring and the table sheet ----

export const CHECK_STATUSES = ['ok', 'typed', 'flagged'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/**
 * The server's reading of one hand. `tablePoints` is what the phone sent (0 for a draw);
 * `serverPoints` the engine's total from the link's tiles and conditions (absent for typed
 * hands and draws); `reason` says why a hand is flagged.
 */
export const handCheckSchema = z.object({
  status: z.enum(CHECK_STATUSES),
  serverPoints: z.optional(z.number()),
  tablePoints: z.number(),
  reason: z.optional(z.string()),
});
export type HandCheck = z.infer<typeof handCheckSchema>;

export const sheetEntrySchema = z.object({
  handId: z.string(),
  hand: sheetHandSchema,
  at: z.number(),
  check: handCheckSchema,
});
export type SheetEntry = z.infer<typeof sheetEntrySchema>;

/** A table's sheet as the server holds it: live hands only, in play order. */
export const tableSheetSchema = z.object({
  session: z.number(),
  table: z.number(),
  players: z.array(z.string()),
  rules: rulesSchema,
  /** Counts every applied op; grows with each change. */
  version: z.number(),
  hands: z.array(sheetEntrySchema),
});
export type TableSheet = z.infer<typeof tableSheetSchema>;

export const opsReplySchema = z.object({
  applied: z.array(z.string()),
  sheet: tableSheetSchema,
});
export type OpsReply = z.infer<typeof opsReplySchema>;

// ---- events, seating and joining ----

/** One table of one session: its four players in seat order A B C D. */
export const seatingEntrySchema = z.strictObject({
  session: int(1, LIMITS.maxSessions),
  table: int(1, LIMITS.maxTables),
  players: z.array(playerName).check(z.length(4)),
});
export type SeatingEntry = z.infer<typeof seatingEntrySchema>;
export const seatingSchema = z.array(seatingEntrySchema).check(z.maxLength(LIMITS.maxTables * LIMITS.maxSessions));

export const createEventBodySchema = z.strictObject({
  name: text(1, LIMITS.maxEventNameLength),
  rules: rulesSchema,
  /** 4 × tables names, each once. */
  players: z.array(playerName).check(z.minLength(4), z.maxLength(4 * LIMITS.maxTables)),
  tables: int(1, LIMITS.maxTables),
  sessions: int(1, LIMITS.maxSessions),
  /** Without it the server draws the seats (a fresh random draw per session). */
  seating: z.optional(seatingSchema),
});
export type CreateEventBody = z.infer<typeof createEventBodySchema>;

/** PUT /api/events/:id/seating: the CSV text (`session,table,A,B,C,D`) or the entries. */
export const seatingBodySchema = z.union([
  z.strictObject({ csv: z.string().check(z.maxLength(LIMITS.maxCsvChars)) }),
  z.strictObject({ seating: seatingSchema }),
]);
export type SeatingBody = z.infer<typeof seatingBodySchema>;

export const tableInfoSchema = z.object({
  session: z.number(),
  table: z.number(),
  /** The join code as printed, `XXXX-XXXX`. */
  code: z.string(),
  players: z.array(z.string()),
});
export type TableInfo = z.infer<typeof tableInfoSchema>;

/** GET /api/events/:id (director): the event with every table's code. */
export const eventInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  rules: rulesSchema,
  players: z.array(z.string()),
  tableCount: z.number(),
  sessionCount: z.number(),
  createdAt: z.number(),
  tables: z.array(tableInfoSchema),
});
export type EventInfo = z.infer<typeof eventInfoSchema>;

export const eventReplySchema = z.object({ event: eventInfoSchema });
export const createEventReplySchema = z.object({ event: eventInfoSchema, directorKey: z.string() });
export type CreateEventReply = z.infer<typeof createEventReplySchema>;

/** The table code alphabet: no 0/O, 1/I/L, 2/Z, 5/S, 8/B look-alikes. */
export const CODE_ALPHABET = '34679ACDEFGHJKMNPQRTUVWXY';
export const CODE_LENGTH = 8;

/** A typed code, any case, with or without the dash and spaces: `k7qw 3mpx` -> `K7QW3MPX`. */
export function normalizeCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

/** The code as printed on the table card: `K7QW-3MPX`. */
export function formatCode(code: string): string {
  const c = normalizeCode(code);
  return `${c.slice(0, 4)}-${c.slice(4)}`;
}

export const joinBodySchema = z.strictObject({ code: z.string().check(z.minLength(1), z.maxLength(32)) });
export type JoinBody = z.infer<typeof joinBodySchema>;

export const joinReplySchema = z.object({
  token: z.string(),
  eventId: z.string(),
  eventName: z.string(),
  rules: rulesSchema,
  session: z.number(),
  table: z.number(),
  players: z.array(z.string()),
});
export type JoinReply = z.infer<typeof joinReplySchema>;

// ---- standings ----

export const standingSchema = z.object({
  name: z.string(),
  rank: z.number(),
  tablePoints: z.number(),
  score: z.number(),
  perSession: z.array(z.object({ session: z.number(), table: z.number(), tablePoints: z.number(), score: z.number() })),
});
export type Standing = z.infer<typeof standingSchema>;

export const standingsSchema = z.object({
  eventId: z.string(),
  name: z.string(),
  rules: z.string(),
  updatedAt: z.number(),
  players: z.array(standingSchema),
});
export type Standings = z.infer<typeof standingsSchema>;

// ---- flags ----

export const RESOLUTIONS = ['accept-server', 'accept-table'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** A hand whose total the server read differently from the table, for the referee. */
export const flagSchema = z.object({
  id: z.string(),
  session: z.number(),
  table: z.number(),
  handId: z.string(),
  hand: sheetHandSchema,
  /** The engine's total; absent when the link could not be read at all. */
  serverPoints: z.optional(z.number()),
  tablePoints: z.number(),
  reason: z.string(),
  /** Only when the table chose to send it (data: URL). */
  photo: z.optional(z.string()),
  createdAt: z.number(),
  status: z.enum(['open', 'resolved']),
  resolution: z.optional(z.enum(RESOLUTIONS)),
  note: z.optional(z.string()),
});
export type Flag = z.infer<typeof flagSchema>;

export const flagsReplySchema = z.object({ flags: z.array(flagSchema) });
export const resolveFlagBodySchema = z.strictObject({
  resolution: z.enum(RESOLUTIONS),
  note: z.optional(z.string().check(z.maxLength(LIMITS.maxNoteChars))),
});
export type ResolveFlagBody = z.infer<typeof resolveFlagBodySchema>;

// ---- backup ----

/** One hand row as stored, tombstones (hand null) included, so a restore merges as before. */
export const backupHandSchema = z.strictObject({
  handId: clientId,
  hand: z.nullable(sheetHandSchema),
  at: z.int().check(z.minimum(0)),
  opId: clientId,
  firstAt: z.int().check(z.minimum(0)),
  photo: z.optional(photoSchema),
});
export type BackupHand = z.infer<typeof backupHandSchema>;

export const backupFlagSchema = z.strictObject({
  session: int(1, LIMITS.maxSessions),
  table: int(1, LIMITS.maxTables),
  handId: clientId,
  resolution: z.enum(RESOLUTIONS),
  note: z.optional(z.string().check(z.maxLength(LIMITS.maxNoteChars))),
});

/** GET .../export/backup.json and POST /api/events/import: the whole event. */
export const eventBackupSchema = z.strictObject({
  format: z.literal('mahjong-event-backup'),
  version: z.literal(1),
  exportedAt: z.int().check(z.minimum(0)),
  event: z.strictObject({
    name: text(1, LIMITS.maxEventNameLength),
    rules: rulesSchema,
    players: z.array(playerName).check(z.minLength(4), z.maxLength(4 * LIMITS.maxTables)),
    tables: int(1, LIMITS.maxTables),
    sessions: int(1, LIMITS.maxSessions),
    createdAt: z.int().check(z.minimum(0)),
    seating: seatingSchema,
  }),
  sheets: z.array(z.strictObject({
    session: int(1, LIMITS.maxSessions),
    table: int(1, LIMITS.maxTables),
    hands: z.array(backupHandSchema).check(z.maxLength(1000)),
  })),
  /** The referee's decisions on flagged hands (the flags themselves are re-made by re-scoring). */
  resolutions: z.array(backupFlagSchema),
});
export type EventBackup = z.infer<typeof eventBackupSchema>;

// ---- health and errors ----

export const healthSchema = z.object({ ok: z.literal(true), db: z.enum(['pglite', 'postgres']) });
export type Health = z.infer<typeof healthSchema>;

export const ERROR_CODES = [
  'BAD_REQUEST', // the body or a parameter does not have the documented shape
  'INVALID_HAND', // a hand breaks the sheet's rules (SheetError detail in the message)
  'INVALID_SEATING', // the seating CSV or entries do not fit the event
  'UNAUTHORIZED', // no or unknown key/token
  'FORBIDDEN', // a valid token for another table or event
  'NOT_FOUND',
  'UNKNOWN_CODE', // POST /api/join with a code no table has
  'SESSION_STARTED', // seating changed after a hand of that session
  'SHEET_FULL', // a new hand on a sheet that holds no more
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const errorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
});
export type ErrorBody = { error: { code: ErrorCode; message: string } };

/** A typed error with its HTTP status; the server sends it as ErrorBody, the app can throw it. */
export class EventApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  constructor(code: ErrorCode, status: number, message: string) {
    super(message);
    this.name = 'EventApiError';
    this.code = code;
    this.status = status;
  }
}

export const isEventApiError = (e: unknown): e is EventApiError => e instanceof EventApiError;

/** The first zod issue in words, naming the field: `ops[0].hand.winner: expected int`. */
export function describeZodError(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid input';
  const path = issue.path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`)).join('').replace(/^\./, '');
  let what: string;
  switch (issue.code) {
    case 'invalid_type': what = `expected ${issue.expected}`; break;
    case 'invalid_value': what = `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`; break;
    case 'too_small': what = `too small (minimum ${String(issue.minimum)})`; break;
    case 'too_big': what = `too big (maximum ${String(issue.maximum)})`; break;
    case 'invalid_format': what = `wrong format (${issue.format})`; break;
    case 'unrecognized_keys': what = `unknown field(s) ${issue.keys.join(', ')}`; break;
    case 'invalid_union': what = 'does not match any allowed shape'; break;
    default: what = issue.code.replace(/_/g, ' ');
  }
  return path ? `${path}: ${what}` : what;
}

/** Parse with a schema or throw EventApiError BAD_REQUEST naming the field. */
export function parseOrThrow<T>(schema: z.ZodMiniType<T>, input: unknown, what = 'body'): T {
  const r = schema.safeParse(input);
  if (!r.success) throw new EventApiError('BAD_REQUEST', 400, `${what}: ${describeZodError(r.error)}`);
  return r.data;
}
