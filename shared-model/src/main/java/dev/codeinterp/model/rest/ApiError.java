package dev.codeinterp.model.rest;

import dev.codeinterp.model.Limit;

/**
 * The body of every 4xx/5xx answer of the REST API. {@code limit} and {@code retryAfterSeconds} are
 * set only when an admission limit refused the request (the same seconds go in {@code Retry-After}).
 */
public record ApiError(String error, Limit limit, Integer retryAfterSeconds) {

    public static ApiError of(String message) {
        return new ApiError(message, null, null);
    }
}
