package dev.codeinterp.server.session;

import dev.codeinterp.model.runner.RunnerInstall;
import dev.codeinterp.server.packages.PackageRequest;
import dev.codeinterp.server.sandbox.RunnerOutput;
import dev.codeinterp.server.sandbox.Sandbox;

/**
 * What a session's worker reacts to, one at a time, from its inbox. Java 17 has no pattern
 * switch, so each signal names its {@link Kind} and the worker switches over that.
 */
sealed interface Signal {
    enum Kind { SUBMIT, OUTPUT, EXITED, INTERRUPT, RESTART, CLOSE, DETACH, DROP, SUSPEND, COPY, CLOCK, INPUT_REPLY, INSTALL_READY }

    Kind kind();

    /** A cell accepted (its {@code queued} event already stored), with its packages as the allowlist read them. */
    record Submit(String executionId, Cell cell, PackageRequest packages) implements Signal {
        public Kind kind() {
            return Kind.SUBMIT;
        }
    }

    /** One read of {@code source}'s output, which may already have been replaced. */
    record Output(Sandbox source, RunnerOutput output) implements Signal {
        public Kind kind() {
            return Kind.OUTPUT;
        }
    }

    /** {@code source}'s runner went away. */
    record Exited(Sandbox source) implements Signal {
        public Kind kind() {
            return Kind.EXITED;
        }
    }

    record InterruptRequest() implements Signal {
        public Kind kind() {
            return Kind.INTERRUPT;
        }
    }

    record RestartRequest(String reason) implements Signal {
        public Kind kind() {
            return Kind.RESTART;
        }
    }

    record CloseRequest() implements Signal {
        public Kind kind() {
            return Kind.CLOSE;
        }
    }

    /**
     * The session is no longer this node's (the others marked the node lost and ended its cells): the
     * worker ends and removes the sandbox, storing nothing.
     */
    record DropRequest() implements Signal {
        public Kind kind() {
            return Kind.DROP;
        }
    }

    /** The server stops: the worker ends and leaves the sandbox running, its cells unfinished, for the next process. */
    record DetachRequest() implements Signal {
        public Kind kind() {
            return Kind.DETACH;
        }
    }

    /**
     * Once no cell waits or runs: the worker hands its sandbox (or null) and workspace to {@code work},
     * which writes them to disk, and ends; {@code work}'s caller hears what it answered, or why not.
     * A busy session refuses it, unless {@code leaving}: it then takes no new cell, and goes once the
     * cells it accepted are done (a move to another node).
     */
    record SuspendRequest(IdleHandOff<?> work, boolean leaving) implements Signal {
        public Kind kind() {
            return Kind.SUSPEND;
        }
    }

    /**
     * Once no cell waits or runs: the worker hands its live sandbox (or null) and workspace (or null)
     * to {@code work}, which copies them, and goes on as it was; {@code work}'s caller hears what it answered.
     */
    record CopyRequest(IdleHandOff<?> work) implements Signal {
        public Kind kind() {
            return Kind.COPY;
        }
    }

    /** Nothing arrived before the next deadline: the running cell's ladder, or a scheduled restart. */
    record ClockTick() implements Signal {
        public Kind kind() {
            return Kind.CLOCK;
        }
    }

    /** A person's answer to the running cell's {@code input()}. */
    record InputReply(String value) implements Signal {
        public Kind kind() {
            return Kind.INPUT_REPLY;
        }
    }

    /**
     * A cell's {@code %pip install} was fetched (or not) off the worker: {@code install} to send, or
     * {@code ename}/{@code message} the cell raises instead. {@code request} tells a late answer from the current one.
     */
    record InstallReady(String executionId, long request, RunnerInstall install, String ename, String message) implements Signal {
        public Kind kind() {
            return Kind.INSTALL_READY;
        }
    }
}
