package dev.flowform.plan.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.Severity;
import dev.flowform.model.ConnectorRole;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.EosMode;
import dev.flowform.model.ManageMode;
import dev.flowform.plan.Rule;
import dev.flowform.plan.rules.Finding.Subject;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * The connector exactly-once rules answer configuration validation and the planner alike: the same mistake is
 * the same rule in both, each in its own words.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ConnectorRulesTest {

    private static DesiredConnector connector(ConnectorRole role, boolean exactlyOnce, Map<String, String> config) {
        return new DesiredConnector("kafka_connector.orders-" + role.suffix(), "replication_flow.orders",
                "orders-" + role.suffix(), "replication", "mm2", role, ManageMode.OWN, role.connectorClass(), 1, null,
                config, Set.of(), Set.of(), exactlyOnce);
    }

    private static Rule only(List<Finding> findings) {
        assertThat(findings).hasSize(1);
        return findings.get(0).rule();
    }

    @Test
    void a_connector_transaction_boundary_is_the_same_rule_as_an_argument_a_config_key_and_a_desired_connector() {
        assertThat(ConnectorRules.boundaryArgument("connector")).hasValueSatisfying(f -> {
            assertThat(f.rule()).isEqualTo(Rule.TRANSACTION_BOUNDARY);
            assertThat(f.subject()).isEqualTo(Subject.ELEMENT);
        });
        assertThat(ConnectorRules.boundaryArgument("poll")).isEmpty();
        assertThat(ConnectorRules.configEntry(ConnectorRules.TRANSACTION_BOUNDARY, "connector", Set.of("source"), "config"))
                .hasValueSatisfying(f -> {
                    assertThat(f.rule()).isEqualTo(Rule.TRANSACTION_BOUNDARY);
                    assertThat(f.subject()).as("points at the value").isEqualTo(Subject.VALUE);
                });
        assertThat(only(ConnectorRules.desiredConnector(connector(ConnectorRole.SOURCE, false,
                Map.of(ConnectorRules.TRANSACTION_BOUNDARY, " Connector")), "mm2", EosMode.DISABLED)))
                .isEqualTo(Rule.TRANSACTION_BOUNDARY);
    }

    @Test
    void required_belongs_on_the_source_connector_of_enabled_workers_only() {
        assertThat(ConnectorRules.configEntry(ConnectorRules.EXACTLY_ONCE_SUPPORT, "required", Set.of("checkpoint"),
                "connector_config.checkpoint")).hasValueSatisfying(f -> {
                    assertThat(f.rule()).isEqualTo(Rule.REQUIRED_SOURCE_ONLY);
                    assertThat(f.subject()).isEqualTo(Subject.KEY);
                });
        assertThat(ConnectorRules.configEntry(ConnectorRules.EXACTLY_ONCE_SUPPORT, "required", Set.of("source"), "config"))
                .as("on the source connector it is the configuration's concern (the key belongs to an argument)").isEmpty();
        Map<String, String> required = Map.of(ConnectorRules.EXACTLY_ONCE_SUPPORT, "REQUIRED",
                ConnectorRules.SOURCE_ISOLATION_LEVEL, ConnectorRules.READ_COMMITTED);
        assertThat(only(ConnectorRules.desiredConnector(connector(ConnectorRole.CHECKPOINT, true, required), "mm2",
                EosMode.ENABLED))).isEqualTo(Rule.REQUIRED_SOURCE_ONLY);
        assertThat(only(ConnectorRules.desiredConnector(connector(ConnectorRole.SOURCE, true, required), "mm2",
                EosMode.PREPARING))).isEqualTo(Rule.REQUIRED_AFTER_ENABLED);
        assertThat(ConnectorRules.desiredConnector(connector(ConnectorRole.SOURCE, true, required), "mm2", EosMode.ENABLED))
                .isEmpty();
        assertThat(ConnectorRules.workersForFlows("mm2", true, EosMode.PREPARING))
                .hasValueSatisfying(f -> assertThat(f.rule()).isEqualTo(Rule.REQUIRED_AFTER_ENABLED));
        assertThat(ConnectorRules.workersForFlows("mm2", true, EosMode.ENABLED)).isEmpty();
    }

    @Test
    void an_exactly_once_source_reads_committed_records_unless_the_flow_acknowledged_otherwise() {
        assertThat(ConnectorRules.readUncommitted(true, "read_uncommitted", false))
                .hasValueSatisfying(f -> assertThat(f.severity()).isEqualTo(Severity.ERROR));
        assertThat(ConnectorRules.readUncommitted(true, "read_uncommitted", true))
                .hasValueSatisfying(f -> assertThat(f.severity()).isEqualTo(Severity.WARNING));
        assertThat(ConnectorRules.readUncommitted(false, "read_uncommitted", false)).isEmpty();
        assertThat(ConnectorRules.unneededAcknowledgement(true, "read_uncommitted", true)).isEmpty();
        assertThat(ConnectorRules.unneededAcknowledgement(true, null, true))
                .hasValueSatisfying(f -> assertThat(f.rule()).isEqualTo(Rule.READ_COMMITTED));
        assertThat(only(ConnectorRules.desiredConnector(connector(ConnectorRole.SOURCE, true,
                Map.of(ConnectorRules.SOURCE_ISOLATION_LEVEL, "read_uncommitted")), "mm2", EosMode.ENABLED)))
                .isEqualTo(Rule.READ_COMMITTED);
    }

    @Test
    void the_first_error_ends_a_connectors_findings_and_a_warning_comes_only_without_one() {
        Map<String, String> both = Map.of(ConnectorRules.EXACTLY_ONCE_SUPPORT, "required",
                ConnectorRules.CONSUMER_OVERRIDE_ISOLATION, "read_committed");
        assertThat(ConnectorRules.desiredConnector(connector(ConnectorRole.SOURCE, false, both), "mm2", EosMode.DISABLED))
                .extracting(Finding::rule).containsExactly(Rule.REQUIRED_AFTER_ENABLED);
        assertThat(ConnectorRules.desiredConnector(connector(ConnectorRole.SOURCE, false,
                Map.of(ConnectorRules.CONSUMER_OVERRIDE_ISOLATION, "read_committed")), "mm2", EosMode.DISABLED))
                .extracting(Finding::rule, Finding::severity).containsExactly(tuple(Rule.CONSUMER_OVERRIDE, Severity.WARNING));
    }

    @Test
    void the_planner_cites_the_rule_and_configuration_keeps_its_words() {
        Finding f = ConnectorRules.boundaryArgument("connector").orElseThrow();

        Diagnostic cited = f.cited(null, "kafka_connector.orders-source");
        Diagnostic uncited = f.uncited(null, "replication_flow.orders");

        assertThat(cited.detail()).isEqualTo(f.detail() + "\n\n" + Rule.TRANSACTION_BOUNDARY.citation());
        assertThat(uncited.detail()).isEqualTo(f.detail()).doesNotContain("(rule ");
        assertThat(uncited.address()).isEqualTo("replication_flow.orders");
    }
}
