package dev.codeinterp.server;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * Dependencies point down only (api → cluster → session → sandbox/files/store → config), no package cycles,
 * metrics fed by all and depending on none of ours but config; Docker only in
 * sandbox, SQL only in store, HTTP only in api (and mcp, its sibling, and the forwarding both use); config depends on nothing.
 */
class ArchitectureTest {
    private static final String API = "dev.codeinterp.server.api..";
    /** The MCP endpoint is a handler like those of api: the same layer, the same rules. */
    private static final String MCP = "dev.codeinterp.server.mcp..";
    /** Requests sent on to the node that holds their session: used by api and mcp alike. */
    private static final String FORWARDING = "dev.codeinterp.server.forwarding..";
    /** The assistant loop: called by api, drives sessions like a person would. */
    private static final String ASSISTANT = "dev.codeinterp.server.assistant..";
    /** This node among the others sharing the store: used by api (routing, health), uses the store. */
    private static final String CLUSTER = "dev.codeinterp.server.cluster..";
    private static final String SESSION = "dev.codeinterp.server.session..";
    /** Where a session lives (suspended, resumed, forked, moved, lost): above the session core, below its one door. */
    private static final String RESIDENCY = "dev.codeinterp.server.session.residency..";
    /** The session core: how a session runs its cells, what it shares with residency. */
    private static final String SESSION_CORE = "dev.codeinterp.server.session";
    /** The core's one door for callers, which wires the core and residency together. */
    private static final String SESSION_MANAGER = "dev\\.codeinterp\\.server\\.session\\.SessionManager(\\$.*)?";
    private static final String SANDBOX = "dev.codeinterp.server.sandbox..";
    private static final String FILES = "dev.codeinterp.server.files..";
    private static final String STORE = "dev.codeinterp.server.store..";
    private static final String CONFIG = "dev.codeinterp.server.config..";
    private static final String PACKAGES = "dev.codeinterp.server.packages..";
    /** One Prometheus registry every layer feeds: it may be used by all and uses none of them. */
    private static final String METRICS = "dev.codeinterp.server.metrics..";

    private static final JavaClasses SERVER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.codeinterp.server");

    @Test
    void layers_depend_only_on_the_layers_below() {
        layeredArchitecture().consideringOnlyDependenciesInLayers().withOptionalLayers(true)
                .layer("Main").definedBy("dev.codeinterp.server")
                .layer("Api").definedBy(API, MCP, FORWARDING)
                .layer("Assistant").definedBy(ASSISTANT)
                .layer("Cluster").definedBy(CLUSTER)
                .layer("Session").definedBy(SESSION)
                .layer("Sandbox").definedBy(SANDBOX)
                .layer("Files").definedBy(FILES)
                .layer("Packages").definedBy(PACKAGES)
                .layer("Store").definedBy(STORE)
                .layer("Config").definedBy(CONFIG)
                .layer("Metrics").definedBy(METRICS)
                .whereLayer("Main").mayNotBeAccessedByAnyLayer()
                .whereLayer("Api").mayOnlyBeAccessedByLayers("Main")
                .whereLayer("Assistant").mayOnlyBeAccessedByLayers("Main", "Api")
                .whereLayer("Cluster").mayOnlyBeAccessedByLayers("Main", "Api")
                .whereLayer("Session").mayOnlyBeAccessedByLayers("Main", "Api", "Assistant", "Cluster")
                .whereLayer("Sandbox").mayOnlyBeAccessedByLayers("Main", "Session")
                .whereLayer("Files").mayOnlyBeAccessedByLayers("Main", "Api", "Assistant", "Session", "Sandbox")
                .whereLayer("Store").mayOnlyBeAccessedByLayers("Main", "Session", "Cluster")
                .whereLayer("Packages").mayOnlyBeAccessedByLayers("Main", "Api", "Session")
                .check(SERVER);
    }

    @Test
    void config_depends_on_nothing_but_the_jdk() {
        classes().that().resideInAPackage(CONFIG)
                .should().onlyDependOnClassesThat().resideInAnyPackage(CONFIG, "java..")
                .check(SERVER);
    }

    @Test
    void files_depend_on_nothing_of_ours_but_config_and_the_shared_model() {
        noClasses().that().resideInAPackage(FILES)
                .should().dependOnClassesThat().resideInAnyPackage("dev.codeinterp.server", API, MCP, SESSION, SANDBOX, STORE,
                        "dev.codeinterp.web..")
                .check(SERVER);
    }

    @Test
    void the_package_fetch_knows_nothing_of_sessions_sandboxes_or_the_api() {
        noClasses().that().resideInAPackage(PACKAGES)
                .should().dependOnClassesThat().resideInAnyPackage("dev.codeinterp.server", API, MCP, SESSION, SANDBOX, STORE, FILES)
                .check(SERVER);
    }

    @Test
    void only_the_sandbox_layer_speaks_docker() {
        noClasses().that().resideOutsideOfPackage(SANDBOX)
                .should().dependOnClassesThat().resideInAPackage("com.github.dockerjava..")
                .check(SERVER);
    }

    @Test
    void only_the_store_speaks_sql() {
        noClasses().that().resideOutsideOfPackage(STORE)
                .should().dependOnClassesThat().resideInAnyPackage("org.jooq..", "java.sql..", "javax.sql..",
                        "org.flywaydb..", "org.sqlite..")
                .check(SERVER);
    }

    @Test
    void no_two_packages_depend_on_each_other_even_through_others() {
        slices().matching("dev.codeinterp.server.(*)..").should().beFreeOfCycles().check(SERVER);
    }

    @Test
    void metrics_depend_on_nothing_of_ours_but_config() {
        noClasses().that().resideInAPackage(METRICS)
                .should().dependOnClassesThat().resideInAnyPackage("dev.codeinterp.server", API, MCP, ASSISTANT, SESSION, SANDBOX,
                        FILES, STORE, PACKAGES)
                .check(SERVER);
    }

    @Test
    void only_the_api_speaks_http() {
        noClasses().that().resideOutsideOfPackages(API, MCP, FORWARDING)
                .should().dependOnClassesThat().resideInAnyPackage("io.javalin..", "org.eclipse.jetty..", "jakarta.servlet..")
                .check(SERVER);
    }

    @Test
    void residency_uses_the_session_core_and_the_core_never_uses_residency() {
        noClasses().that().resideInAPackage(SESSION_CORE).and().haveNameNotMatching(SESSION_MANAGER)
                .should().dependOnClassesThat().resideInAPackage(RESIDENCY)
                .check(SERVER);
        noClasses().that().resideInAPackage(RESIDENCY)
                .should().dependOnClassesThat().haveNameMatching(SESSION_MANAGER)
                .check(SERVER);
    }

    @Test
    void the_handlers_never_reach_the_sandbox_layer() {
        noClasses().that().resideInAnyPackage(API, MCP, FORWARDING)
                .should().dependOnClassesThat().resideInAPackage(SANDBOX)
                .check(SERVER);
    }

    @Test
    void forwarding_knows_nothing_of_the_handlers_that_use_it() {
        noClasses().that().resideInAPackage(FORWARDING)
                .should().dependOnClassesThat().resideInAnyPackage(API, MCP)
                .check(SERVER);
    }
}
