-- A session's title, as its user named it (PATCH /api/v1/sessions/{id}); null until one is set. Kept
-- as shared-model's SessionTitles makes it: one line of at most 200 code points (400 UTF-16 units).
-- A fork starts with its source's; a key's listing (GET /api/v1/sessions) reads it with the rest.
ALTER TABLE sessions ADD COLUMN title VARCHAR(400) NULL;
