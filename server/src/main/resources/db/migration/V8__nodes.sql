-- The servers (nodes) sharing this store, and which one runs each session. A node proves it is the
-- one that registered an id with key_hash, the SHA-256 of a secret kept in its data directory, so a
-- second process claiming a live node's id is refused. heartbeat_at (ms) is refreshed every few
-- seconds; a node whose heartbeat is older than the loss timeout is marked 'lost' by any other node,
-- and its sessions with it. state: 'active', 'draining', 'stopped' (left cleanly), 'lost'.
CREATE TABLE nodes (
    id VARCHAR(40) NOT NULL PRIMARY KEY,
    url VARCHAR(400) NOT NULL,
    runtime VARCHAR(40) NOT NULL,
    capacity INTEGER NOT NULL,
    sessions INTEGER NOT NULL DEFAULT 0,
    key_hash VARCHAR(64) NOT NULL,
    state VARCHAR(16) NOT NULL,
    started_at BIGINT NOT NULL,
    heartbeat_at BIGINT NOT NULL
);
-- Null on rows written before nodes existed: the first node that starts on this store takes them.
ALTER TABLE sessions ADD COLUMN node_id VARCHAR(40) NULL;
-- Why a session cannot be used any more though it was never closed (its node was lost), else null.
ALTER TABLE sessions ADD COLUMN lost VARCHAR(400) NULL;
CREATE INDEX sessions_node_open ON sessions (node_id, closed_at);
-- The session limits are counted in the store, across nodes, at every create (SessionQuota).
CREATE INDEX sessions_client_open ON sessions (client, closed_at);
