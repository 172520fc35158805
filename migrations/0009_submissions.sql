-- Form submissions sent once (issue 16): a form's submission id, per session,
-- with the answer the portal gave it, so a form re-sent after a lost connection
-- is answered again instead of run twice. Rows older than a day are dropped.
CREATE TABLE submissions (
  session_id TEXT NOT NULL,
  submission_id TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('running', 'done')),
  status INTEGER,
  headers TEXT,
  body BLOB,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (session_id, submission_id)
) WITHOUT ROWID;
CREATE INDEX submissions_by_created ON submissions (created_at);
