-- Each session's newest event number, kept on its row: a write of events bumps it first, in the same
-- transaction, and numbers its events from it. The bump locks the row until the commit, so writers of
-- one session (several server processes on one PostgreSQL) take turns, and a write that is rolled back
-- takes its numbers back with it: seq stays ordered and gap-free whoever writes (EventRepository.record).
ALTER TABLE sessions ADD COLUMN last_seq BIGINT NOT NULL DEFAULT 0;
UPDATE sessions SET last_seq = COALESCE((SELECT MAX(events.seq) FROM events WHERE events.session_id = sessions.id), 0);
