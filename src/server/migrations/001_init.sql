-- Events, their tables (one row per session and table), table tokens, hand rows, applied ops
-- and the referee's flags. Times are ms since 1970 (bigint). Keys and tokens are SHA-256 hex.
CREATE TABLE events (
  id text PRIMARY KEY,
  name text NOT NULL,
  rules text NOT NULL,
  players jsonb NOT NULL,
  table_count integer NOT NULL,
  session_count integer NOT NULL,
  director_hash text NOT NULL,
  created_at bigint NOT NULL,
  revision bigint NOT NULL DEFAULT 0
);

CREATE TABLE event_tables (
  event_id text NOT NULL REFERENCES events (id) ON DELETE CASCADE,
  session integer NOT NULL,
  tbl integer NOT NULL,
  code text NOT NULL UNIQUE,
  players jsonb NOT NULL,
  version integer NOT NULL DEFAULT 0,
  PRIMARY KEY (event_id, session, tbl)
);

CREATE TABLE table_tokens (
  token_hash text PRIMARY KEY,
  event_id text NOT NULL,
  session integer NOT NULL,
  tbl integer NOT NULL,
  created_at bigint NOT NULL,
  FOREIGN KEY (event_id, session, tbl) REFERENCES event_tables (event_id, session, tbl) ON DELETE CASCADE
);

CREATE TABLE hands (
  event_id text NOT NULL,
  session integer NOT NULL,
  tbl integer NOT NULL,
  hand_id text NOT NULL,
  hand jsonb,
  at bigint NOT NULL,
  op_id text NOT NULL,
  first_at bigint NOT NULL,
  photo text,
  check_json jsonb,
  PRIMARY KEY (event_id, session, tbl, hand_id),
  FOREIGN KEY (event_id, session, tbl) REFERENCES event_tables (event_id, session, tbl) ON DELETE CASCADE
);

CREATE TABLE applied_ops (
  event_id text NOT NULL,
  session integer NOT NULL,
  tbl integer NOT NULL,
  op_id text NOT NULL,
  PRIMARY KEY (event_id, session, tbl, op_id),
  FOREIGN KEY (event_id, session, tbl) REFERENCES event_tables (event_id, session, tbl) ON DELETE CASCADE
);

CREATE TABLE flags (
  id text PRIMARY KEY,
  event_id text NOT NULL,
  session integer NOT NULL,
  tbl integer NOT NULL,
  hand_id text NOT NULL,
  server_points integer,
  table_points integer NOT NULL,
  reason text NOT NULL,
  created_at bigint NOT NULL,
  status text NOT NULL DEFAULT 'open',
  resolution text,
  note text,
  UNIQUE (event_id, session, tbl, hand_id),
  FOREIGN KEY (event_id, session, tbl, hand_id) REFERENCES hands (event_id, session, tbl, hand_id) ON DELETE CASCADE
);
