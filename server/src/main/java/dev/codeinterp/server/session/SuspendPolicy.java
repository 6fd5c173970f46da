package dev.codeinterp.server.session;

import java.nio.file.Path;
import java.time.Duration;

/**
 * When idle sessions are suspended to disk and how long their variables are kept there:
 * {@code folder} holds them, {@code after} idle they are suspended (where the runtime can
 * checkpoint; elsewhere the idle TTL closes them as before), {@code keptFor} and {@code diskBudget}
 * bound what suspended sessions keep, the longest suspended giving up their variables first.
 */
public record SuspendPolicy(Path folder, Duration after, Duration keptFor, long diskBudget) {
}
