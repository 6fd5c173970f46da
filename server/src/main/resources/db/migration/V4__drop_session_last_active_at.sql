-- sessions.last_active_at was written once at creation and never again, and nothing read it: idle
-- reaping uses the live session's clock, and a session's last activity is on record anyway as the
-- time of its newest event (events.created_at).
ALTER TABLE sessions DROP COLUMN last_active_at;
