package dev.codeinterp.server.sandbox;

/** The languages contract under runc. */
class RuncLanguagesTest extends LanguagesContract {
    @Override
    String runtime() {
        return "runc";
    }
}
