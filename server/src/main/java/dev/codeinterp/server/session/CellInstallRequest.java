package dev.codeinterp.server.session;

import dev.codeinterp.model.runner.RunnerInstall;
import dev.codeinterp.model.runner.RunnerMessage;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.server.packages.PackageFetchException;
import dev.codeinterp.server.packages.PackageRefusedException;
import dev.codeinterp.server.packages.PackageRequest;

import java.util.List;
import java.util.function.Consumer;

/**
 * A running cell's {@code %pip install} (docs/runner-protocol.md, {@code install_request}): the
 * allowlist decides at once; what it allows is fetched on the host, off the session's worker so an
 * interrupt still acts, through the same step as a cell's {@code packages}; the answer goes back to
 * the runner, which installs offline from the read-only cache. The cell's clock stands still from the
 * request until the runner's next event for that cell, bounded by the fetch and install bounds.
 */
final class CellInstallRequest {
    static final String REFUSED = "PackageRefused";
    static final String FETCH_FAILED = "PackageFetchError";

    private final InstallStep installs;
    private final Consumer<Signal> inbox;
    private final Consumer<String> runner;
    private Thread fetching; // worker-only: at most one fetch per session at a time, whatever a cell asks

    /** {@code inbox}: where the fetched answer returns to the worker; {@code runner}: a line to the current sandbox. */
    CellInstallRequest(InstallStep installs, Consumer<Signal> inbox, Consumer<String> runner) {
        this.installs = installs;
        this.inbox = inbox;
        this.runner = runner;
    }

    /** On the worker: the running cell {@code cell} asked for {@code request}'s packages. */
    void onRequest(RunningCell cell, RunnerMessage.InstallRequest request, long now) {
        String executionId = cell.executionId();
        PackageRequest checked;
        try {
            checked = installs.checkFromCell(request.language(), request.packages());
        } catch (PackageRefusedException e) {
            runner.accept(WireCodec.encodeRunnerInstallRefused(executionId, REFUSED, e.getMessage()));
            return;
        }
        if (checked.isEmpty()) { // all of them are in the image already
            runner.accept(WireCodec.encodeRunnerInstall(executionId,
                    new RunnerInstall(request.language(), request.packages(), true, 0, List.of())));
            return;
        }
        if (fetching != null && fetching.isAlive()) {
            runner.accept(WireCodec.encodeRunnerInstallRefused(executionId, FETCH_FAILED,
                    "an earlier %pip install of this session is still being fetched; try again once it is done"));
            return;
        }
        long number = cell.packagesRequested(now, installs.preparationBound());
        if (number < 0) {
            return; // the cell is being stopped; the interrupt ends the runner's wait
        }
        fetching = new Thread(() -> inbox.accept(fetched(executionId, number, checked)), "pip-" + executionId);
        fetching.setDaemon(true);
        fetching.start();
    }

    private Signal.InstallReady fetched(String executionId, long number, PackageRequest checked) {
        try {
            return new Signal.InstallReady(executionId, number, installs.prepare(checked), null, null);
        } catch (PackageFetchException e) {
            return new Signal.InstallReady(executionId, number, null, FETCH_FAILED, e.getMessage());
        } catch (RuntimeException e) { // the cell must still get an answer
            return new Signal.InstallReady(executionId, number, null, FETCH_FAILED, "the packages could not be fetched: " + e);
        }
    }

    /** On the worker: a fetch ended; its answer goes to the runner if the cell still waits for it. */
    void onReady(RunningCell cell, Signal.InstallReady ready) {
        if (cell == null || !cell.executionId().equals(ready.executionId()) || !cell.awaitingPackages(ready.request())) {
            return; // interrupted, timed out or ended meanwhile: the fetched files stay cached for next time
        }
        runner.accept(ready.install() != null ? WireCodec.encodeRunnerInstall(ready.executionId(), ready.install())
                : WireCodec.encodeRunnerInstallRefused(ready.executionId(), ready.ename(), ready.message()));
    }
}
