package dev.codeinterp.server.packages;

class RuncPipMagicTest extends PipMagicContract {
    @Override
    String runtime() {
        return "runc";
    }
}
