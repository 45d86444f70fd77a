package dev.flowform.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Checks {@link ArchitectureRules} on flowform's compiled main classes (target/classes, tests excluded). */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class CompiledArchitectureTest {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.flowform");

    @Test
    void each_layer_uses_only_the_layers_inside_it() {
        ArchitectureRules.LAYERS.check(MAIN);
    }

    @Test
    void only_cli_uses_picocli() {
        ArchitectureRules.PICOCLI_ONLY_IN_CLI.check(MAIN);
    }

    @Test
    void only_the_kafka_package_links_to_kafka() {
        ArchitectureRules.KAFKA_ONLY_IN_KAFKA.check(MAIN);
    }

    @Test
    void top_level_packages_have_no_cycles() {
        ArchitectureRules.NO_PACKAGE_CYCLES.check(MAIN);
    }

    @Test
    void config_sub_packages_have_no_cycles() {
        ArchitectureRules.NO_CONFIG_CYCLES.check(MAIN);
    }

    static List<ArchRule> purity() {
        return ArchitectureRules.CORE_PURITY;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("purity")
    void the_core_is_pure(ArchRule rule) {
        rule.check(MAIN);
    }

    static List<ArchRule> edges() {
        return ArchitectureRules.EDGE_RULES;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("edges")
    void the_edges_use_only_what_they_may(ArchRule rule) {
        rule.check(MAIN);
    }

    @Test
    void no_two_classes_share_a_simple_name() {
        ArchitectureRules.UNIQUE_SIMPLE_NAMES.check(MAIN);
    }
}
