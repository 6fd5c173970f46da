package dev.codeinterp.server.assistant;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.assistant.AssistantToolDefinitions;
import dev.codeinterp.model.assistant.RunCodeCall;
import dev.codeinterp.model.assistant.ToolCall;
import dev.codeinterp.model.assistant.ToolResultText;
import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.files.WorkspaceFile;
import dev.codeinterp.server.session.Cell;
import dev.codeinterp.server.session.CellLimits;
import dev.codeinterp.server.session.CellRefusedException;
import dev.codeinterp.server.session.LimitExceededException;
import dev.codeinterp.server.session.Session;
import dev.codeinterp.server.session.SessionClosedException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The tools the model may call, and how they run: {@code run_code} submits an ordinary cell to the
 * conversation's own session (same events, limits, timeout and interrupt as a typed cell) and waits
 * for its {@code finished}; {@code list_files} lists the workspace. A bad call (unknown tool, broken
 * arguments, unknown language, code past the size limit) runs nothing and tells the model what was wrong.
 */
final class AssistantTools {
    static final String RUN_CODE = AssistantToolDefinitions.RUN_CODE;
    static final String LIST_FILES = AssistantToolDefinitions.LIST_FILES;

    private final CellLimits cells;
    private final int outputBudget;

    AssistantTools(CellLimits cells, int outputBudget) {
        this.cells = cells;
        this.outputBudget = outputBudget;
    }

    /**
     * Runs one call and returns what goes back to the model. {@code onCell} learns the id of the
     * cell a {@code run_code} started, before it runs; a Stop interrupts that cell.
     */
    String run(Session session, ToolCall call, Consumer<String> onCell, Cancellation cancel) {
        switch (call.name()) {
            case RUN_CODE:
                return runCode(session, call, onCell, cancel);
            case LIST_FILES:
                onCell.accept(null);
                return listFiles(session.workspace());
            default:
                onCell.accept(null);
                return RunCodeCall.unknownTool(call, "run_code and list_files");
        }
    }

    private String runCode(Session session, ToolCall call, Consumer<String> onCell, Cancellation cancel) {
        RunCodeCall args = RunCodeCall.of(call);
        if (args.refusal() != null) {
            onCell.accept(null);
            return args.refusal();
        }
        Cell cell;
        try {
            cell = cells.cell(args.code()).language(args.language()).build();
        } catch (CellRefusedException e) {
            onCell.accept(null);
            return notRun(e);
        }
        BlockingQueue<SessionEvent> seen = new LinkedBlockingQueue<>();
        Consumer<SessionEvent> listener = seen::add;
        session.subscribe(session.lastSeq(), listener);
        try {
            String cellId;
            try {
                cellId = session.submit(cell);
            } catch (LimitExceededException | SessionClosedException e) {
                onCell.accept(null);
                return notRun(e);
            }
            onCell.accept(cellId);
            Runnable unregister = cancel.onCancel(session::interrupt);
            try {
                return ToolResultText.of(awaitFinished(seen, cellId, cell.timeout()), outputBudget);
            } finally {
                unregister.run();
            }
        } finally {
            session.unsubscribe(listener);
        }
    }

    /** The cell's events up to its one {@code finished}; the session guarantees it comes (timeout, restart, close). */
    private List<Event> awaitFinished(BlockingQueue<SessionEvent> seen, String cellId, Duration timeout) {
        List<Event> events = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.plusMinutes(2).toNanos();
        try {
            while (System.nanoTime() < deadline) {
                SessionEvent e = seen.poll(1, TimeUnit.SECONDS);
                if (e == null || !e.executionId().equals(cellId)) {
                    continue;
                }
                events.add(e.event());
                if (e.event() instanceof Event.Finished) {
                    return events;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted");
        }
        events.add(new Event.Error("AssistantTimeout", "the cell did not finish in time", List.of()));
        return events;
    }

    private static String notRun(RuntimeException why) {
        return "error: run_code was not run: " + why.getMessage();
    }

    private String listFiles(Workspace workspace) {
        List<WorkspaceFile> files = workspace == null ? List.of() : workspace.list();
        if (files.isEmpty()) {
            return "The working directory has no files.";
        }
        StringBuilder out = new StringBuilder("name\tsize\ttype\n");
        for (WorkspaceFile f : files) {
            out.append(f.name()).append('\t').append(f.size()).append('\t').append(f.mime()).append('\n');
        }
        return ToolResultText.bounded(out.toString(), outputBudget);
    }
}
