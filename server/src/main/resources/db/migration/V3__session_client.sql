-- Who opened a session (an API key's name, or the remote address when anonymous): quotas count per client,
-- also for sessions a previous server process opened.
ALTER TABLE sessions ADD COLUMN client VARCHAR(200) NULL;
