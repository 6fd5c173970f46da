package dev.codeinterp.web;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

/**
 * The page's layers point down only, as docs/ARCHITECTURE.md draws them: the roots (App, EmbedApp)
 * wire views, the conversation list and both modes; views know the list but no mode; the list knows
 * the server mode's calls; both modes speak through the session interfaces; bindings (the thin JS
 * wrappers) know nothing of the app.
 */
class WebArchitectureTest {
    private static final JavaClasses WEB = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.codeinterp.web");

    @Test
    void layers_depend_only_on_the_layers_below() {
        layeredArchitecture().consideringOnlyDependenciesInLayers().withOptionalLayers(true)
                .layer("Roots").definedBy("dev.codeinterp.web", "dev.codeinterp.web.embed")
                .layer("View").definedBy("dev.codeinterp.web.view..")
                .layer("Conversations").definedBy("dev.codeinterp.web.conversations..")
                .layer("Modes").definedBy("dev.codeinterp.web.server..", "dev.codeinterp.web.local..")
                .layer("Session").definedBy("dev.codeinterp.web.session..")
                .layer("Bindings").definedBy("dev.codeinterp.web.bindings..")
                .whereLayer("Roots").mayNotBeAccessedByAnyLayer()
                .whereLayer("View").mayOnlyBeAccessedByLayers("Roots")
                .whereLayer("Conversations").mayOnlyBeAccessedByLayers("Roots", "View")
                .whereLayer("Modes").mayOnlyBeAccessedByLayers("Roots", "Conversations")
                .whereLayer("Session").mayOnlyBeAccessedByLayers("Roots", "View", "Conversations", "Modes")
                .whereLayer("Bindings").mayOnlyBeAccessedByLayers("Roots", "View", "Conversations", "Modes", "Session")
                .check(WEB);
    }

    @Test
    void the_two_modes_know_nothing_of_each_other() {
        noClasses().that().resideInAPackage("dev.codeinterp.web.server..")
                .should().dependOnClassesThat().resideInAPackage("dev.codeinterp.web.local..").check(WEB);
        noClasses().that().resideInAPackage("dev.codeinterp.web.local..")
                .should().dependOnClassesThat().resideInAPackage("dev.codeinterp.web.server..").check(WEB);
    }
}
