package dev.codeinterp.server.metrics;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * Metrics are a leaf every layer may call (like config): they know the shared model and the
 * Prometheus client, nothing of the server; and only they know the Prometheus client.
 */
class MetricsLayerTest {
    private static final JavaClasses SERVER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.codeinterp.server");

    @Test
    void metrics_depend_on_nothing_of_the_server() {
        classes().that().resideInAPackage("dev.codeinterp.server.metrics..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.codeinterp.server.metrics..", "dev.codeinterp.model..",
                        "io.prometheus..", "java..")
                .check(SERVER);
    }

    @Test
    void only_the_metrics_know_prometheus() {
        noClasses().that().resideOutsideOfPackage("dev.codeinterp.server.metrics..")
                .should().dependOnClassesThat().resideInAPackage("io.prometheus..")
                .check(SERVER);
    }
}
