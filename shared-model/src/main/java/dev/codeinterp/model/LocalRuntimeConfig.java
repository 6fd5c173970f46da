package dev.codeinterp.model;

/**
 * What the local runtime page ({@code /local/runtime.html}) is told about its assets and limits,
 * inlined as a JSON data block. Its keys are camelCase: the page's JavaScript reads them as they are.
 */
public record LocalRuntimeConfig(String pyodideVersion, String indexUrl, String packagesUrl, String runtimeUrl,
                                 String wheelsUrl, long maxUploadBytes, long timeoutMs, long maxOutputBytes,
                                 long inputTimeoutMs) {
}
