package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Status;
import dev.codeinterp.server.store.EventRepository;
import dev.codeinterp.server.store.ExecutionRepository;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a previous server process left unfinished: each cell it left queued or running ends as
 * interrupted (a running one also hears that its interpreter is gone), in its session's event log,
 * so every cell still ends with exactly one {@code finished}.
 */
final class CrashRecovery {
    private static final Logger log = LoggerFactory.getLogger(CrashRecovery.class);

    private CrashRecovery() {
    }

    static void interruptUnfinished(ExecutionRepository executions, EventRepository eventLog) {
        Map<String, List<ExecutionRepository.UnfinishedExecution>> bySession = new LinkedHashMap<>();
        for (ExecutionRepository.UnfinishedExecution u : executions.unfinished()) {
            bySession.computeIfAbsent(u.sessionId(), k -> new ArrayList<>()).add(u);
        }
        bySession.forEach((sessionId, cells) -> {
            SessionEvents events = new SessionEvents(sessionId, eventLog.lastSeq(sessionId), eventLog);
            for (ExecutionRepository.UnfinishedExecution cell : cells) {
                if (cell.wasRunning()) {
                    events.emit(cell.executionId(), new Event.Restarted("the server restarted; the interpreter's state is gone"));
                }
                events.emit(cell.executionId(), new Event.Finished(Status.INTERRUPTED, null, null, null, null));
            }
        });
        if (!bySession.isEmpty()) {
            log.info("marked cells of {} session(s) interrupted after a restart", bySession.size());
        }
    }
}
