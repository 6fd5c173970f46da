package dev.codeinterp.server;

class RuncPackagesTest extends PackagesContract {
    @Override
    String runtime() {
        return "runc";
    }
}
