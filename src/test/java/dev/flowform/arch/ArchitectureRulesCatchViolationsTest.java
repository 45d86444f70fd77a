package dev.flowform.arch;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.flowform.apply.archfixture.LeaseInState;
import dev.flowform.cli.Main;
import dev.flowform.config.lang.archfixture.LangSide;
import dev.flowform.config.syntax.archfixture.SyntaxSide;
import dev.flowform.kafka.archfixture.SimInKafka;
import dev.flowform.plan.archfixture.ImpurePlanner;
import dev.flowform.locking.archfixture.TangledWait;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.state.archfixture.JournalInState;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rules of {@link ArchitectureRules} report the fixtures written to break them (test classes in packages the
 * rules treat as core: {@code plan.archfixture}, {@code diag.archfixture}, ...), so a green
 * {@link CompiledArchitectureTest} means "no violation", not "a rule that matches nothing".
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ArchitectureRulesCatchViolationsTest {

    /** The impure fixture, with one real edge class and one real command-line class so no layer is empty. */
    private static final JavaClasses IMPURE = new ClassFileImporter()
            .importClasses(ImpurePlanner.class, EmbeddedCluster.class, Main.class);

    private static final JavaClasses CYCLES = new ClassFileImporter().importClasses(
            dev.flowform.diag.archfixture.Side.class, dev.flowform.render.archfixture.Side.class,
            SyntaxSide.class, LangSide.class);

    private static List<String> violations(ArchRule rule, JavaClasses classes) {
        EvaluationResult result = rule.evaluate(classes);
        assertThat(result.hasViolation()).as(rule.getDescription()).isTrue();
        return result.getFailureReport().getDetails();
    }

    @Test
    void the_layer_rule_reports_the_core_reaching_an_edge() {
        assertThat(violations(ArchitectureRules.LAYERS, IMPURE)).anySatisfy(d -> assertThat(d)
                .contains("ImpurePlanner.usesAnEdge(", "dev.flowform.sim.EmbeddedCluster"));
    }

    static Stream<Arguments> impurities() {
        String fixture = ImpurePlanner.class.getName();
        return Stream.of(
                Arguments.of(ArchitectureRules.CORE_READS_NO_CLOCK, fixture + ".readsTheClock()", "java.time.Instant.now()"),
                Arguments.of(ArchitectureRules.CORE_IS_NOT_RANDOM, fixture + ".drawsARandomNumber()", "java.util.Random"),
                Arguments.of(ArchitectureRules.CORE_NEVER_SLEEPS, fixture + ".sleeps()", "java.lang.Thread.sleep(long)"),
                Arguments.of(ArchitectureRules.CORE_READS_NO_ENVIRONMENT, fixture + ".readsTheEnvironment()",
                        "java.lang.System.getenv(java.lang.String)"),
                Arguments.of(ArchitectureRules.CORE_TOUCHES_NO_FILES, fixture + ".readsAFile(", "java.nio.file.Files"),
                Arguments.of(ArchitectureRules.CORE_TOUCHES_NO_FILES, fixture + ".readsAFile(", "java.nio.file.Path.toAbsolutePath()"),
                Arguments.of(ArchitectureRules.CORE_PRINTS_NOTHING, fixture + ".prints()", "java.lang.System.out"),
                Arguments.of(ArchitectureRules.CORE_USES_NO_EDGE_LIBRARY, fixture + ".parsesACommandLine()", "picocli.CommandLine"),
                Arguments.of(ArchitectureRules.PICOCLI_ONLY_IN_CLI, fixture + ".parsesACommandLine()", "picocli.CommandLine"),
                Arguments.of(ArchitectureRules.KAFKA_ONLY_IN_KAFKA, fixture + ".linksToKafka()",
                        "org.apache.kafka.common.TopicPartition"));
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("impurities")
    void each_purity_rule_reports_its_impurity(ArchRule rule, String where, String what) {
        assertThat(violations(rule, IMPURE)).anySatisfy(d -> assertThat(d).contains(where, what));
    }

    @Test
    void every_purity_rule_is_in_the_list_the_product_is_checked_with() {
        assertThat(ArchitectureRules.CORE_PURITY).contains(ArchitectureRules.CORE_READS_NO_CLOCK,
                ArchitectureRules.CORE_IS_NOT_RANDOM, ArchitectureRules.CORE_NEVER_SLEEPS,
                ArchitectureRules.CORE_READS_NO_ENVIRONMENT, ArchitectureRules.CORE_TOUCHES_NO_FILES,
                ArchitectureRules.CORE_PRINTS_NOTHING, ArchitectureRules.CORE_USES_NO_EDGE_LIBRARY);
    }

    @Test
    void the_cycle_rules_report_a_cycle_between_top_level_packages_and_between_config_parts() {
        assertThat(String.join("\n", violations(ArchitectureRules.NO_PACKAGE_CYCLES, CYCLES)))
                .contains("diag", "render");
        assertThat(String.join("\n", violations(ArchitectureRules.NO_CONFIG_CYCLES, CYCLES)))
                .contains("config.syntax", "config.lang");
    }

    /** The fixtures that break the rules on which edge may use which. */
    private static final JavaClasses EDGE_FIXTURES = new ClassFileImporter().importClasses(JournalInState.class,
            LeaseInState.class, TangledWait.class, SimInKafka.class);

    static Stream<Arguments> edgeViolations() {
        return Stream.of(
                Arguments.of(ArchitectureRules.STATE_KNOWS_NO_APPLY, JournalInState.class.getName(),
                        "dev.flowform.apply.Journal"),
                Arguments.of(ArchitectureRules.APPLY_KNOWS_NO_STATE, LeaseInState.class.getName() + ".readsTheState(",
                        "dev.flowform.state.StateStore"),
                Arguments.of(ArchitectureRules.KAFKA_KNOWS_NO_SIM, SimInKafka.class.getName() + ".borrowsTheSimulator(",
                        "dev.flowform.sim.connect.SimulatedConnectRuntime"),
                Arguments.of(ArchitectureRules.LOCKING_STANDS_ALONE, TangledWait.class.getName() + ".knowsTheStateLock(",
                        "dev.flowform.state.LockInfo"),
                Arguments.of(ArchitectureRules.PAUSES_GO_THROUGH_THE_SLEEPER, JournalInState.class.getName() + ".dozes()",
                        "java.lang.Thread.sleep(long)"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("edgeViolations")
    void each_edge_rule_reports_its_violation(ArchRule rule, String where, String what) {
        assertThat(violations(rule, EDGE_FIXTURES)).anySatisfy(d -> assertThat(d).contains(where, what));
    }

    @Test
    void every_edge_rule_is_in_the_list_the_product_is_checked_with() {
        assertThat(ArchitectureRules.EDGE_RULES).containsExactlyInAnyOrder(ArchitectureRules.STATE_KNOWS_NO_APPLY,
                ArchitectureRules.APPLY_KNOWS_NO_STATE, ArchitectureRules.KAFKA_KNOWS_NO_SIM,
                ArchitectureRules.LOCKING_STANDS_ALONE,
                ArchitectureRules.PAUSES_GO_THROUGH_THE_SLEEPER);
    }

    @Test
    void the_name_rule_reports_two_classes_with_one_simple_name() {
        assertThat(violations(ArchitectureRules.UNIQUE_SIMPLE_NAMES, CYCLES)).contains(
                "dev.flowform.diag.archfixture.Side shares its simple name with dev.flowform.render.archfixture.Side");
    }
}
