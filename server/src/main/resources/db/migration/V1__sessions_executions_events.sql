-- Sessions, their cells and every event the cells produced, numbered per session.
CREATE TABLE sessions (
    id              VARCHAR(64)  NOT NULL PRIMARY KEY,
    token_hash      VARCHAR(128) NOT NULL,
    runtime         VARCHAR(16)  NOT NULL,
    one_shot        BOOLEAN      NOT NULL,
    created_at      BIGINT       NOT NULL,
    last_active_at  BIGINT       NOT NULL,
    closed_at       BIGINT       NULL
);

CREATE TABLE executions (
    id               VARCHAR(64)  NOT NULL PRIMARY KEY,
    session_id       VARCHAR(64)  NOT NULL REFERENCES sessions (id),
    code             TEXT         NOT NULL,
    status           VARCHAR(16)  NOT NULL,
    execution_count  BIGINT       NULL,
    queued_at        BIGINT       NOT NULL,
    finished_at      BIGINT       NULL,
    duration_ms      BIGINT       NULL,
    cpu_ms           BIGINT       NULL,
    peak_memory_kb   BIGINT       NULL
);

CREATE INDEX executions_by_session ON executions (session_id, queued_at);
CREATE INDEX executions_by_status ON executions (status);

CREATE TABLE events (
    session_id    VARCHAR(64)  NOT NULL REFERENCES sessions (id),
    seq           BIGINT       NOT NULL,
    execution_id  VARCHAR(64)  NOT NULL,
    type          VARCHAR(32)  NOT NULL,
    created_at    BIGINT       NOT NULL,
    body          TEXT         NOT NULL,
    PRIMARY KEY (session_id, seq)
);
