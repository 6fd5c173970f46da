package dev.codeinterp.server.session.residency;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Status;
import dev.codeinterp.server.session.SessionEvents;
import dev.codeinterp.server.store.EventRepository;
import dev.codeinterp.server.store.ExecutionRepository;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a previous server process left unfinished in sessions whose sandbox could not be adopted:
 * each cell it left queued or running ends as interrupted (a running one also hears that its
 * interpreter is gone), in its session's event log, so every cell still ends with exactly one
 * {@code finished}. Adopted sessions end or go on with their cells themselves.
 */
final class CrashRecovery {
    private static final Logger log = LoggerFactory.getLogger(CrashRecovery.class);

    private CrashRecovery() {
    }

    static void interruptUnfinished(ExecutionRepository executions, EventRepository eventLog, String node, Set<String> adopted) {
        int sessions = endUnfinished(executions, eventLog, node, adopted, "the server restarted and this session's sandbox did not survive it: "
                + "the interpreter's state is gone");
        if (sessions > 0) {
            log.info("marked cells of {} session(s) interrupted after a restart", sessions);
        }
    }

    /**
     * Ends every cell left queued or running in {@code node}'s sessions but those of {@code skip}: a
     * running one hears {@code whyStopped} as a {@code restarted} event, then each ends interrupted.
     * How many sessions had such cells.
     */
    static int endUnfinished(ExecutionRepository executions, EventRepository eventLog, String node, Set<String> skip,
                             String whyStopped) {
        Map<String, List<ExecutionRepository.UnfinishedExecution>> bySession = new LinkedHashMap<>();
        for (ExecutionRepository.UnfinishedExecution u : executions.unfinished(node)) {
            if (skip.contains(u.sessionId())) {
                continue;
            }
            bySession.computeIfAbsent(u.sessionId(), k -> new ArrayList<>()).add(u);
        }
        bySession.forEach((sessionId, cells) -> {
            SessionEvents events = new SessionEvents(sessionId, eventLog.lastSeq(sessionId), eventLog);
            for (ExecutionRepository.UnfinishedExecution cell : cells) {
                if (cell.wasRunning()) {
                    events.emit(cell.executionId(), new Event.Restarted(whyStopped));
                }
                events.emit(cell.executionId(), new Event.Finished(Status.INTERRUPTED, null, null, null, null));
            }
        });
        return bySession.size();
    }
}
