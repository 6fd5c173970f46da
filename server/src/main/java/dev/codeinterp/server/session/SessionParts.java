package dev.codeinterp.server.session;

import dev.codeinterp.server.files.Workspaces;
import dev.codeinterp.server.metrics.ServerMetrics;
import dev.codeinterp.server.sandbox.SandboxPool;
import dev.codeinterp.server.store.EventRepository;
import dev.codeinterp.server.store.ExecutionRepository;
import dev.codeinterp.server.store.SessionForks;
import dev.codeinterp.server.store.SessionRepository;

import java.time.Duration;

/**
 * What sessions are made of and kept in, wired once by the composition root. {@code links} says where
 * the API serves workspace files, for the artifact events; {@code installs} serves the cells'
 * {@code packages}; {@code activity} hears of every event (the pool refills in the quiet);
 * {@code idleTtl} closes idle sessions where {@code suspend} cannot keep their variables.
 */
public record SessionParts(SandboxPool pool, Workspaces workspaces, SessionRepository sessions, ExecutionRepository executions,
                           EventRepository eventLog, ExecutionLimits limits, CellLimits cellLimits, String runtime,
                           Duration idleTtl, Admission admission, FileLinks links, ServerMetrics metrics, InstallStep installs,
                           CellActivity activity, SuspendPolicy suspend, SessionForks forkStore) {
}
