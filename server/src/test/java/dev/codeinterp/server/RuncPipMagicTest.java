package dev.codeinterp.server;

class RuncPipMagicTest extends PipMagicContract {
    @Override
    String runtime() {
        return "runc";
    }
}
