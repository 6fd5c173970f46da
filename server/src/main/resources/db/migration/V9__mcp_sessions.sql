-- MCP protocol sessions, so that one outlives the process that began it (a restart, a drain): id is
-- the id its client holds ("n2.Qk3…"), client who may use it, node_id the node that holds it now.
-- What the client sent in initialize is kept so a node can begin the SDK's session again for it.
-- Its code sessions are listed by id only: no token is stored (the row itself is the proof that
-- this MCP session made them, and only its client can name it).
CREATE TABLE mcp_sessions (
    id                   VARCHAR(64)  NOT NULL PRIMARY KEY,
    client               VARCHAR(200) NOT NULL,
    node_id              VARCHAR(40)  NOT NULL,
    protocol_version     VARCHAR(40)  NOT NULL,
    client_capabilities  TEXT         NOT NULL,
    client_info          TEXT         NOT NULL,
    created_at           BIGINT       NOT NULL,
    last_seen_at         BIGINT       NOT NULL
);
CREATE INDEX mcp_sessions_node ON mcp_sessions (node_id, last_seen_at);

CREATE TABLE mcp_session_code_sessions (
    mcp_session_id  VARCHAR(64) NOT NULL REFERENCES mcp_sessions (id) ON DELETE CASCADE,
    session_id      VARCHAR(64) NOT NULL REFERENCES sessions (id),
    PRIMARY KEY (mcp_session_id, session_id)
);
CREATE INDEX mcp_code_sessions_by_session ON mcp_session_code_sessions (session_id);
