package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A line when a cell is queued and when it finishes, logged inside the session's and the cell's
 * {@link LogContext}, so a request's id and its execution's id meet on one line. The code and the
 * output are never logged: only that a cell exists, how it ended and how long it took.
 */
final class CellLog {
    private static final Logger log = LoggerFactory.getLogger(CellLog.class);

    private CellLog() {
    }

    static void record(SessionEvent e) {
        switch (e.event().type()) {
            case QUEUED -> log.info("cell queued");
            case FINISHED -> {
                Event.Finished f = (Event.Finished) e.event();
                log.info("cell finished: {} in {} ms", f.status().wire(), f.durationMs());
            }
            default -> {
            }
        }
    }
}
