-- Romi Rami Online, SQLite schema, migration 19: kept names compared by how they look.
--
-- `name_key` is the name fully case-folded (`text::name_key`: "Straße" and "STRASSE" are one name);
-- `name_skeleton` is its Unicode TR39 skeleton, case-insensitive (`text::name_skeleton`: "Аnnа" with Cyrillic а,
-- "Αnna" with a Greek Alpha and "Anna" are one). A new guest or claim whose key or skeleton is a kept name's is
-- refused. The server fills both for every claim at its start (`Store::rekey_claimed_names`): a claim whose
-- skeleton an older claim has already keeps none (NULL).
ALTER TABLE claimed_names ADD COLUMN name_skeleton TEXT;
CREATE UNIQUE INDEX claimed_names_skeleton ON claimed_names (name_skeleton);
