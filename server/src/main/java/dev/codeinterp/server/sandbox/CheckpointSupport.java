package dev.codeinterp.server.sandbox;

/**
 * Whether sandboxes can be checkpointed here (suspend, resume, fork keep variables), and if not,
 * why, in words for {@code /healthz} and the UI.
 */
public record CheckpointSupport(boolean supported, String why) {
    public static CheckpointSupport yes() {
        return new CheckpointSupport(true, null);
    }

    public static CheckpointSupport no(String why) {
        return new CheckpointSupport(false, why);
    }
}
