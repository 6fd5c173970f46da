package dev.codeinterp.server.sandbox;

import dev.codeinterp.model.runner.RunnerMessage;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.server.files.Trees;
import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.files.Workspaces;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * New sandboxes started from a checkpoint of a warmed runner ({@code CODEINTERP_TEMPLATE=pydata}):
 * one runner is started, loads numpy, pandas and matplotlib (the runner's {@code warm}), and is
 * checkpointed once; every sandbox after is that checkpoint restored onto its own empty workspace
 * and told to {@code reseed}, so no two draw the same random numbers. A first {@code import pandas}
 * then costs nothing; each sandbox holds those libraries in memory from its start. The checkpoint
 * is made on first use and made again when it will not restore.
 */
public final class WarmTemplate {
    private static final Logger log = LoggerFactory.getLogger(WarmTemplate.class);
    private static final long WARM_TIMEOUT_S = 120;

    private final SandboxBackend backend;
    private final Workspaces workspaces;
    private final Path folder;
    private Checkpoint checkpoint;
    private long lines;

    public WarmTemplate(SandboxBackend backend, Workspaces workspaces, Path folder) {
        this.backend = backend;
        this.workspaces = workspaces;
        this.folder = folder.toAbsolutePath().normalize();
        Trees.delete(this.folder); // an earlier process's: its image or runner may differ
    }

    /** A sandbox on {@code workspace} restored from the template, its generators reseeded. */
    Sandbox start(Workspace workspace) {
        Checkpoint from;
        long linesWritten;
        synchronized (this) {
            if (checkpoint == null) {
                make();
            }
            from = checkpoint;
            linesWritten = lines;
        }
        Sandbox sandbox;
        try {
            sandbox = backend.restore(from, workspace, linesWritten);
        } catch (CheckpointRefusedException e) {
            forget(from, e);
            throw e;
        }
        sandbox.send(WireCodec.encodeRunnerCommand("reseed")); // before any cell: commands run in order
        return sandbox;
    }

    private synchronized void forget(Checkpoint refused, RuntimeException why) {
        if (checkpoint == refused) {
            log.warn("the warm template did not restore, it is made again: {}", why.getMessage());
            Trees.delete(refused.dir());
            checkpoint = null;
        }
    }

    /** A runner started cold, warmed, and checkpointed (and removed). */
    private void make() {
        long t0 = System.nanoTime();
        Workspace scratch = workspaces.create();
        try {
            Sandbox runner = backend.start(scratch);
            try {
                CompletableFuture<Void> warmed = new CompletableFuture<>();
                runner.onOutput(out -> {
                    if (out.messages().stream().anyMatch(RunnerMessage.Ready.class::isInstance)) {
                        warmed.complete(null); // the runner says ready again once the libraries are loaded
                    }
                }, () -> warmed.completeExceptionally(new SandboxException("the template's runner exited while loading its libraries")));
                runner.send(WireCodec.encodeRunnerCommand("warm"));
                warmed.get(WARM_TIMEOUT_S, TimeUnit.SECONDS);
                lines = runner.linesRead();
                checkpoint = backend.suspend(runner, folder);
            } finally {
                runner.close();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SandboxException("interrupted while the warm template was made", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof SandboxException se ? se : new SandboxException("could not make the warm template: "
                    + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new SandboxException("the template's runner did not load its libraries within " + WARM_TIMEOUT_S + " s", e);
        } finally {
            workspaces.destroy(scratch);
        }
        log.info("warm template made in {} ms: {} MiB", (System.nanoTime() - t0) / 1_000_000, checkpoint.bytes() >> 20);
    }
}
