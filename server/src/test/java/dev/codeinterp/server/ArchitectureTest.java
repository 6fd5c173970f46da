package dev.codeinterp.server;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** Dependencies point down only: api → session → sandbox/store → config; no Docker or SQL in handlers. */
class ArchitectureTest {
    private static final JavaClasses SERVER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.codeinterp.server");

    @Test
    void layers_depend_only_on_the_layers_below() {
        layeredArchitecture().consideringOnlyDependenciesInLayers().withOptionalLayers(true)
                .layer("Main").definedBy("dev.codeinterp.server")
                .layer("Api").definedBy("dev.codeinterp.server.api..", "dev.codeinterp.server.mcp..")
                .layer("Session").definedBy("dev.codeinterp.server.session..")
                .layer("Sandbox").definedBy("dev.codeinterp.server.sandbox..")
                .layer("Files").definedBy("dev.codeinterp.server.files..")
                .layer("Store").definedBy("dev.codeinterp.server.store..")
                .layer("Config").definedBy("dev.codeinterp.server.config..")
                .whereLayer("Main").mayNotBeAccessedByAnyLayer()
                .whereLayer("Api").mayOnlyBeAccessedByLayers("Main")
                .whereLayer("Session").mayOnlyBeAccessedByLayers("Main", "Api")
                .whereLayer("Sandbox").mayOnlyBeAccessedByLayers("Main", "Api", "Session")
                .whereLayer("Store").mayOnlyBeAccessedByLayers("Main", "Session")
                .check(SERVER);
    }

    @Test
    void handlers_touch_neither_docker_nor_sql() {
        noClasses().that().resideInAnyPackage("dev.codeinterp.server.api..", "dev.codeinterp.server.mcp..")
                .should().dependOnClassesThat().resideInAnyPackage("com.github.dockerjava..", "org.jooq..", "java.sql..")
                .check(SERVER);
    }

    @Test
    void only_the_sandbox_layer_speaks_docker_and_only_the_store_speaks_sql() {
        noClasses().that().resideOutsideOfPackage("dev.codeinterp.server.sandbox..")
                .should().dependOnClassesThat().resideInAPackage("com.github.dockerjava..")
                .check(SERVER);
        noClasses().that().resideOutsideOfPackages("dev.codeinterp.server.store..", "dev.codeinterp.server.session..")
                .should().dependOnClassesThat().resideInAnyPackage("org.jooq..", "java.sql..", "org.flywaydb..")
                .check(SERVER);
    }
}
