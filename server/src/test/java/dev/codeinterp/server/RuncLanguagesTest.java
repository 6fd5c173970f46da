package dev.codeinterp.server;

/** The languages contract under runc. */
class RuncLanguagesTest extends LanguagesContract {
    @Override
    String runtime() {
        return "runc";
    }
}
