-- A suspended session: its interpreter written to disk as the checkpoint named here (under
-- <data>/suspended/<session id>/, with the workspace's files beside it) and its container removed.
-- suspended_at is when, last_active_at when it was last used before that; checkpoint is null once
-- its variables were given up (TTL or disk budget; variables_lost says which) or when it had no
-- interpreter to keep.
ALTER TABLE sessions ADD COLUMN suspended_at BIGINT NULL;
ALTER TABLE sessions ADD COLUMN last_active_at BIGINT NULL;
ALTER TABLE sessions ADD COLUMN checkpoint VARCHAR(80) NULL;
ALTER TABLE sessions ADD COLUMN checkpoint_bytes BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN variables_lost VARCHAR(400) NULL;
