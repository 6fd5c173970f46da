-- Which workspace (a host tmpfs under <data>/workspaces) holds a session's files; it outlives sandboxes.
ALTER TABLE sessions ADD COLUMN workspace VARCHAR(64) NULL;
