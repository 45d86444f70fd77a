package dev.flowform.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.ManageMode;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checked-in example folders other than {@code realistic}, and folder-level problems. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ExampleFoldersTest {

    private final ConfigLoader loader = new ConfigLoader();

    @Test
    void should_merge_files_and_accept_every_array_form_and_comment() {
        LoadResult result = loader.load(Fixtures.example("array-forms"), null, Map.of());

        assertThat(Fixtures.errors(result)).isEmpty();
        assertThat(Fixtures.lines(result.diagnostics())).containsExactly("20-clusters.flow.json:14:18: Comment key in an object value: "
                + "\"//\" is a comment only directly inside a block; inside an object value it is an ordinary key and is kept as data.");
        Configuration config = result.configuration();
        assertThat(config.environment().namespace()).isEqualTo("kafka-demo");
        assertThat(config.clusters()).extracting(DesiredConnectCluster::address)
                .containsExactly("connect_cluster.east", "connect_cluster.west");
        assertThat(config.clusters()).extracting(DesiredConnectCluster::namespace).containsExactly("kafka-east", "kafka-demo");
        assertThat(config.clusters().get(0).replicas()).isEqualTo(2);
        assertThat(config.clusters().get(1).bootstrapServers()).isEqualTo("west-kafka-bootstrap:9093");
        assertThat(config.flows()).extracting(ReplicationFlowBlock::address)
                .containsExactly("replication_flow.alpha", "replication_flow.zeta");
        ReplicationFlowBlock alpha = config.flows().get(0);
        assertThat(alpha.manage()).isEqualTo(ManageMode.OWN);
        assertThat(alpha.source().alias()).isEqualTo("east");
        assertThat(alpha.target().bootstrapServers()).isEqualTo("west-kafka-bootstrap:9093");
        assertThat(alpha.config()).containsExactly(Map.entry("//", "inside an object value this is a key, not a comment"));
        assertThat(config.flows().get(1).connectorConfig()).containsExactly(Map.entry("source", Map.of("a", "1")));
        assertThat(config.flows().get(1).source()).isNull();
    }

    @Test
    void should_report_every_error_of_every_file_in_file_order() {
        LoadResult result = loader.load(Fixtures.example("broken"), "demo", Map.of());

        assertThat(result.configuration()).isNull();
        assertThat(result.diagnostics().list()).allMatch(Diagnostic::isError);
        assertThat(Fixtures.lines(result.diagnostics())).containsExactly(
                "a.flow.json:4:56: Incorrect attribute value type: Inappropriate value for argument \"replicas\": expected number, "
                        + "got string (a string converts only when it spells a number).",
                "b.flow.json:7:26: Invalid value for argument: \"read_commited\" is not a valid value for \"isolation_level\": "
                        + "expected one of \"read_committed\", \"read_uncommitted\". Did you mean \"read_committed\"?",
                "b.flow.json:11:5: Duplicate connect_cluster block: A connect_cluster named \"mm2\" was already declared at "
                        + "a.flow.json:4:5. Names must be unique.",
                "c.flow.json:2:3: Unsupported block type: Blocks of type \"variabel\" are not expected here; the block types are "
                        + "\"variable\", \"locals\", \"environment\", \"connect_cluster\", \"replication_flow\", \"module\", \"output\", \"backend\", \"mirrormaker2\". "
                        + "Did you mean \"variable\"?");
        assertThat(result.diagnostics().list()).filteredOn(d -> d.range().filename().equals("b.flow.json"))
                .extracting(Diagnostic::address)
                .containsExactly("replication_flow.orders", "connect_cluster.mm2");
    }

    @Test
    void should_report_a_missing_folder(@TempDir Path tmp) {
        LoadResult result = loader.load(tmp.resolve("nope"), null, Map.of());

        assertThat(Fixtures.lines(result.diagnostics())).containsExactly(
                "Configuration folder not found: The folder " + tmp.resolve("nope") + " does not exist.");
    }

    @Test
    void should_report_a_folder_without_configuration_files(@TempDir Path tmp) {
        Fixtures.write(tmp, Map.of("main.tf.json", "{}", "notes.json", "{}"));
        Fixtures.write(tmp.resolve("sub"), Map.of("nested.flow.json", "{}"));

        LoadResult result = loader.load(tmp, null, Map.of());

        assertThat(Fixtures.lines(result.diagnostics())).containsExactly("No configuration files: The folder " + tmp
                + " contains no *.flow.json files; configuration is written in Terraform's JSON syntax in files such as main.flow.json.");
    }

    @Test
    void should_report_a_file_given_instead_of_a_folder(@TempDir Path tmp) {
        Fixtures.write(tmp, Map.of("main.flow.json", "{}"));

        LoadResult result = loader.load(tmp.resolve("main.flow.json"), null, Map.of());

        assertThat(Fixtures.errors(result)).singleElement().asString().startsWith("Configuration folder not found: ")
                .contains("is a file, not a folder");
    }
}
