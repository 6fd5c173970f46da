package dev.codeinterp.model;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The one vocabulary stands on nothing: it compiles for the JVM and under TeaVM, so it may use the
 * Java library alone (TeaVM's classlib covers java.lang, java.util and little else), and none of its
 * packages may need another in a circle.
 */
class ModelArchitectureTest {
    private static final JavaClasses MODEL = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.codeinterp.model");

    @Test
    void the_vocabulary_uses_only_itself_and_the_java_library() {
        classes().should().onlyDependOnClassesThat()
                .resideInAnyPackage("dev.codeinterp.model..", "java.lang..", "java.util..", "java.nio.charset..", "java.text..")
                .check(MODEL);
    }

    @Test
    void no_two_of_its_packages_depend_on_each_other() {
        slices().matching("dev.codeinterp.model.(*)..").should().beFreeOfCycles().check(MODEL);
    }
}
