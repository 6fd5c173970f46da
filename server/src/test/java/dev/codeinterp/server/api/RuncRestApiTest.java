package dev.codeinterp.server.api;

/** The REST contract under runc, the default runtime. */
class RuncRestApiTest extends RestApiContract {
    @Override
    String runtime() {
        return "runc";
    }
}
