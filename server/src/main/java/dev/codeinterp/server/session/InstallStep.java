package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import dev.codeinterp.model.runner.RunnerInstall;
import dev.codeinterp.server.packages.PackageFetchException;
import dev.codeinterp.server.packages.PackageRefusedException;
import dev.codeinterp.server.packages.PackageRequest;
import dev.codeinterp.server.packages.Packages;

import java.time.Duration;
import java.util.List;

/**
 * The session's side of a cell's {@code packages}: refused at submit (nothing stored), fetched when
 * the cell's turn comes (on the worker, before the cell's clock starts), installed by the runner
 * in the sandbox under {@link #installBound()}, apart from the cell's timeout.
 */
public final class InstallStep {
    /** A server without packages: any request for one is refused. */
    public static final InstallStep NONE = new InstallStep(null);

    private final Packages packages;

    public InstallStep(Packages packages) {
        this.packages = packages;
    }

    PackageRequest check(Language language, List<String> names) {
        if (names == null || names.isEmpty()) {
            return PackageRequest.NONE;
        }
        if (packages == null) {
            throw new PackageRefusedException("this server installs no packages");
        }
        return packages.check(language, names);
    }

    /** As {@link #check}, for a running cell's {@code %pip install}: a refusal does not stop the cell, it raises in it. */
    PackageRequest checkFromCell(Language language, List<String> names) {
        if (packages == null) {
            throw new PackageRefusedException("this server installs no packages (it has no package settings)");
        }
        if (names == null || names.isEmpty()) {
            throw new PackageRefusedException("%pip install needs at least one package name");
        }
        return packages.check(language, names, "install it");
    }

    /** How long a running cell's {@code %pip install} may take at most: a fetch and an install. */
    Duration preparationBound() {
        return packages == null ? Duration.ZERO : packages.preparationBound();
    }

    /** What the runner is to install before the cell, or null when nothing is asked. */
    RunnerInstall prepare(PackageRequest request) {
        return request.isEmpty() ? null : packages.prepare(request);
    }

    /** The error a cell ends with when its packages could not be fetched. */
    static Event.Error fetchFailed(PackageFetchException e) {
        return new Event.Error("PackageFetchError", e.getMessage(), List.of());
    }

    Duration installBound() {
        return packages == null ? Duration.ZERO : packages.installBound();
    }

    /** How much longer than its timeout a cell with packages may take to finish. */
    Duration extraWait(PackageRequest request) {
        return request.isEmpty() ? Duration.ZERO : packages.preparationBound();
    }
}
