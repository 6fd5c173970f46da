package dev.codeinterp.server.packages;

class RuncPackagesTest extends PackagesContract {
    @Override
    String runtime() {
        return "runc";
    }
}
