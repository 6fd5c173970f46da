package dev.codeinterp.model.local;

/**
 * What the local runtime page ({@code /local/runtime.html}) is told about its assets and limits,
 * inlined as a JSON data block. Its keys are camelCase: the page's JavaScript reads them as they are.
 * The limits are the server's own settings ({@code CODEINTERP_TIMEOUT}, {@code _MAX_TIMEOUT},
 * {@code _OUTPUT_CAP}, {@code _INPUT_TIMEOUT}, {@code _INTERRUPT_GRACE}): the page keeps no defaults
 * of its own, so a cell meets the same limits in both modes.
 */
public record LocalRuntimeConfig(String pyodideVersion, String indexUrl, String packagesUrl, String runtimeUrl,
                                 String wheelsUrl, long maxUploadBytes, long timeoutMs, long maxTimeoutMs, long maxOutputBytes,
                                 long inputTimeoutMs, long interruptGraceMs) {
}
