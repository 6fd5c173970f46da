package dev.codeinterp.server.session;

import org.slf4j.MDC;

/**
 * Puts a session's and an execution's ids in the logging MDC for a stretch of work and puts back
 * what was there before (a request's own ids stay for its closing line).
 */
final class LogContext implements AutoCloseable {
    private final String previousSession;
    private final String previousExecution;

    private LogContext(String sessionId, String executionId) {
        this.previousSession = MDC.get("session_id");
        this.previousExecution = MDC.get("execution_id");
        MDC.put("session_id", sessionId);
        if (executionId != null) {
            MDC.put("execution_id", executionId);
        }
    }

    static LogContext of(String sessionId, String executionId) {
        return new LogContext(sessionId, executionId);
    }

    @Override
    public void close() {
        restore("session_id", previousSession);
        restore("execution_id", previousExecution);
    }

    private static void restore(String key, String value) {
        if (value == null) {
            MDC.remove(key);
        } else {
            MDC.put(key, value);
        }
    }
}
