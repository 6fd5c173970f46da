package dev.codeinterp.server;

class RunscPackagesTest extends PackagesContract {
    @Override
    String runtime() {
        return "runsc";
    }
}
