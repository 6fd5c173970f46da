-- Which container runs a session's interpreter, and how many of its runner's output lines are
-- stored: a server that restarts adopts the container and asks the runner for the lines after
-- those (stored in the same transaction as the events they carried, so none is lost or doubled).
ALTER TABLE sessions ADD COLUMN sandbox VARCHAR(80) NULL;
ALTER TABLE sessions ADD COLUMN sandbox_lines BIGINT NOT NULL DEFAULT 0;
