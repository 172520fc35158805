-- Businesses, people, their phones and their roles in each business: what the
-- demo identities and sign-in need. Later migrations add the operational model.
-- STRICT tables: a wrong type is an error, not a silent conversion.

CREATE TABLE businesses (
  id             TEXT PRIMARY KEY,
  name           TEXT NOT NULL CHECK (length(trim(name)) > 0),
  identifier     TEXT NOT NULL UNIQUE,
  contact_number TEXT NOT NULL CHECK (contact_number GLOB '233[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]'),
  contact_email  TEXT NOT NULL CHECK (contact_email LIKE '%_@_%._%'),
  town           TEXT NOT NULL,
  region         TEXT NOT NULL,
  sector         TEXT NOT NULL,
  logo_url       TEXT,
  status         TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
  created_at     TEXT NOT NULL
) STRICT;

CREATE TABLE users (
  id         TEXT PRIMARY KEY,
  -- Stored trimmed and lower-case so one person is one row.
  email      TEXT NOT NULL UNIQUE CHECK (email = lower(trim(email)) AND email LIKE '%_@_%._%'),
  name       TEXT NOT NULL CHECK (length(trim(name)) > 0),
  gender     TEXT NOT NULL CHECK (gender IN ('female', 'male', 'unspecified')),
  status     TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  created_at TEXT NOT NULL
) STRICT;

-- Linked numbers for one-time codes, stored as 233XXXXXXXXX.
CREATE TABLE user_phones (
  user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  msisdn     TEXT NOT NULL CHECK (msisdn GLOB '233[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]'),
  created_at TEXT NOT NULL,
  PRIMARY KEY (user_id, msisdn)
) STRICT;

-- An employee: a person's role in one business.
CREATE TABLE memberships (
  business_id TEXT NOT NULL REFERENCES businesses (id),
  user_id     TEXT NOT NULL REFERENCES users (id),
  role        TEXT NOT NULL CHECK (role IN ('Super Administrator', 'Administrator', 'Operations', 'Finance', 'Viewer')),
  status      TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'invited', 'deactivated')),
  created_at  TEXT NOT NULL,
  PRIMARY KEY (business_id, user_id)
) STRICT;

-- "Which businesses may this person enter" at sign-in.
CREATE INDEX memberships_by_user ON memberships (user_id, status);
