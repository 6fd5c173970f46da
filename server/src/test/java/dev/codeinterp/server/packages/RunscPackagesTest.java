package dev.codeinterp.server.packages;

class RunscPackagesTest extends PackagesContract {
    @Override
    String runtime() {
        return "runsc";
    }
}
