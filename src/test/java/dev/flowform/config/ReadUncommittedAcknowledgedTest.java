package dev.flowform.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.diag.Diagnostics;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.DesiredFlow;
import dev.flowform.model.DesiredState;
import dev.flowform.model.LiveState;
import dev.flowform.model.StrimziApi;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanRequest;
import dev.flowform.plan.Planner;
import dev.flowform.plan.StateRef;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code acknowledge_read_uncommitted}: an exactly-once flow that reads uncommitted records runs its
 * source connector with {@code exactly.once.support=requested} (Kafka rejects {@code required}),
 * keeps the workers at {@code enabled}, and plans without the planner's read_committed error.
 */
class ReadUncommittedAcknowledgedTest {

    @TempDir
    Path dir;

    @Test
    void the_source_connector_requests_exactly_once_and_the_plan_is_applyable() {
        Fixtures.writeMain(dir, """
                {
                  "environment": {"demo": {"namespace": "kafka"}},
                  "connect_cluster": {"mm2": {"bootstrap_servers": "dc2:9093"}},
                  "replication_flow": {
                    "orders": {
                      "connect_cluster": "mm2",
                      "source": {"alias": "dc1", "bootstrap_servers": "dc1:9093"},
                      "target": {"alias": "dc2", "bootstrap_servers": "dc2:9093"},
                      "isolation_level": "read_uncommitted",
                      "acknowledge_read_uncommitted": true
                    }
                  }
                }
                """);
        LoadResult result = new ConfigLoader().load(dir, null, Map.of());
        assertThat(Fixtures.errors(result)).isEmpty();
        assertThat(Fixtures.lines(result.diagnostics())).singleElement().asString()
                .contains("Exactly-once flow reads uncommitted records", "exactly.once.support=requested");

        Diagnostics diags = new Diagnostics();
        DesiredState desired = DesiredStateFactory.build(result.configuration(), diags);
        assertThat(diags.list()).isEmpty();
        DesiredFlow flow = desired.flows().get(0);
        assertThat(flow.exactlyOnce()).isTrue();
        DesiredConnector source = flow.connectors().get(0);
        assertThat(source.config()).containsEntry("exactly.once.support", "requested")
                .containsEntry("source.consumer.isolation.level", "read_uncommitted");
        assertThat(source.exactlyOnce()).isFalse();
        assertThat(desired.clusters().get(0).eos().value()).isEqualTo("enabled");

        Plan plan = Planner.plan(desired, LiveState.empty(StrimziApi.V1), new PlanRequest("demo", new StateRef("l", 0),
                Instant.parse("2026-11-30T00:00:00Z")));
        assertThat(plan.isApplyable()).as("%s", plan.diagnostics()).isTrue();
    }
}
