package dev.flowform.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.model.EosMode;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.strimzi.Strimzi;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkerConfigTest {

    private static Map<String, Object> v1beta2Spec() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("group.id", "dr-connect");
        config.put("status.storage.topic", "dr-status");
        config.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        config.put("config.storage.replication.factor", 3);
        config.put("ssl.keystore.location", "/tmp/ks");
        config.put("ssl.endpoint.identification.algorithm", "");
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("bootstrapServers", "dr:9093");
        spec.put("replicas", 3);
        spec.put("config", config);
        return spec;
    }

    @Test
    void rendersFixedKeysFirstThenSortedConfigWithoutForbiddenKeys() {
        WorkerConfig.Rendered r = WorkerConfig.render(v1beta2Spec(), StrimziApi.V1BETA2);
        assertThat(r.body()).isEqualTo("""
                bootstrap.servers=dr:9093
                group.id=dr-connect
                config.storage.topic=connect-cluster-configs
                offset.storage.topic=connect-cluster-offsets
                status.storage.topic=dr-status
                config.storage.replication.factor=3
                ssl.endpoint.identification.algorithm=
                value.converter=org.apache.kafka.connect.converters.ByteArrayConverter
                """);
        assertThat(r.fileText()).startsWith("# Do not change this generated file.").contains(r.body())
                .endsWith("plugin.path=/opt/kafka/plugins\n");
        assertThat(r.configurationHash()).isEqualTo(Strimzi.sha1Prefix(r.fileText()));
    }

    @Test
    void v1TakesGroupAndTopicsFromSpecAndIgnoresThemInConfig() {
        Map<String, Object> spec = v1beta2Spec();
        spec.put("groupId", "g1");
        spec.put("configStorageTopic", "c1");
        spec.put("offsetStorageTopic", "o1");
        spec.put("statusStorageTopic", "s1");
        String body = WorkerConfig.render(spec, StrimziApi.V1).body();
        assertThat(body).startsWith("bootstrap.servers=dr:9093\ngroup.id=g1\nconfig.storage.topic=c1\n"
                + "offset.storage.topic=o1\nstatus.storage.topic=s1\n");
        assertThat(body).doesNotContain("dr-connect").doesNotContain("dr-status");
    }

    @Test
    void revisionIgnoresReplicasButFollowsConfig() {
        Map<String, Object> spec = v1beta2Spec();
        String rev = WorkerConfig.revision(spec, WorkerConfig.render(spec, StrimziApi.V1BETA2));
        spec.put("replicas", 5);
        assertThat(WorkerConfig.revision(spec, WorkerConfig.render(spec, StrimziApi.V1BETA2))).isEqualTo(rev);
        assertThat(WorkerConfig.fingerprint(spec)).isEqualTo(WorkerConfig.fingerprint(v1beta2Spec()));
        @SuppressWarnings("unchecked")
        Map<String, Object> config = (Map<String, Object>) spec.get("config");
        config.put(EosMode.CONFIG_KEY, "preparing");
        assertThat(WorkerConfig.revision(spec, WorkerConfig.render(spec, StrimziApi.V1BETA2))).isNotEqualTo(rev).hasSize(8);
    }

    @Test
    void readsTheEosModeLikeAWorker() {
        assertThat(WorkerConfig.eosMode(null)).isEqualTo(EosMode.DISABLED);
        assertThat(WorkerConfig.eosMode("a=b\nexactly.once.source.support = Enabled\n")).isEqualTo(EosMode.ENABLED);
        assertThat(WorkerConfig.eosMode("# exactly.once.source.support=enabled\nexactly.once.source.support:preparing"))
                .isEqualTo(EosMode.PREPARING);
        assertThat(WorkerConfig.eosMode("exactly.once.source.support=maybe")).isEqualTo(EosMode.DISABLED);
        assertThat(WorkerConfig.parse("bootstrap.servers=h:9093")).containsEntry("bootstrap.servers", "h:9093");
    }

    @Test
    void recognisesPropertiesRenderedFromASpec() {
        Map<String, Object> spec = v1beta2Spec();
        String body = WorkerConfig.render(spec, StrimziApi.V1BETA2).body();
        assertThat(WorkerConfig.carries(spec, body)).isTrue();
        assertThat(WorkerConfig.carries(spec, "group.id=dr-connect\nstatus.storage.topic=dr-status\n"
                + "value.converter=org.apache.kafka.connect.converters.ByteArrayConverter\n"
                + "config.storage.replication.factor=3\nssl.endpoint.identification.algorithm=\n")).isTrue();
        @SuppressWarnings("unchecked")
        Map<String, Object> config = (Map<String, Object>) spec.get("config");
        config.put(EosMode.CONFIG_KEY, "enabled");
        assertThat(WorkerConfig.carries(spec, body)).as("EOS mode differs").isFalse();
        assertThat(WorkerConfig.carries(spec, body + "exactly.once.source.support=enabled\n")).isTrue();
        config.put("config.storage.replication.factor", 1);
        assertThat(WorkerConfig.carries(spec, body + "exactly.once.source.support=enabled\n")).isFalse();
        assertThat(WorkerConfig.carries(spec, null)).isFalse();
    }
}
