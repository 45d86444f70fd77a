package dev.flowform.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Method and path to the request Kubernetes authorization sees, as the API server's RequestInfoFactory derives it. */
class ApiRequestTest {

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            GET    | /apis/kafka.strimzi.io/v1beta2/namespaces/r/kafkaconnects/mm2       | get kafka.strimzi.io/kafkaconnects in r
            GET    | /apis/kafka.strimzi.io/v1beta2/namespaces/r/kafkaconnects           | list kafka.strimzi.io/kafkaconnects in r
            GET    | /apis/kafka.strimzi.io/v1beta2/namespaces/r/kafkaconnects?watch=true&resourceVersion=5 | watch kafka.strimzi.io/kafkaconnects in r
            GET    | /apis/kafka.strimzi.io/v1beta2/kafkaconnects                        | list kafka.strimzi.io/kafkaconnects (cluster)
            POST   | /api/v1/namespaces/r/pods                                           | create core/pods in r
            PUT    | /apis/kafka.strimzi.io/v1beta2/namespaces/r/kafkaconnects/mm2/status | update kafka.strimzi.io/kafkaconnects/status in r
            PATCH  | /api/v1/namespaces/r/pods/p-0?fieldManager=kubectl                  | patch core/pods in r
            DELETE | /api/v1/namespaces/r/pods/p-0                                       | delete core/pods in r
            DELETE | /api/v1/namespaces/r/pods?labelSelector=a%3Db                        | deletecollection core/pods in r
            GET    | /api/v1/namespaces/r                                                | get core/namespaces in r
            GET    | /api/v1/namespaces                                                  | list core/namespaces (cluster)
            GET    | /version?timeout=32s                                                | get /version
            GET    | /apis/kafka.strimzi.io/v1beta2                                      | get /apis/kafka.strimzi.io/v1beta2
            GET    | /api/v1                                                             | get /api/v1
            """)
    void derives_the_verb_group_resource_and_namespace(String method, String path, String expected) {
        assertThat(ApiRequest.of(method, path, null, null)).hasToString(expected);
    }

    @org.junit.jupiter.api.Test
    void keeps_only_a_fingerprint_of_the_bearer_token() {
        ApiRequest r = ApiRequest.of("GET", "/api/v1/namespaces/r/pods", "ua", "Bearer s3cret");
        assertThat(r.bearer()).isEqualTo(ApiRequest.tokenFingerprint("s3cret")).hasSize(16);
        assertThat(r.toString()).doesNotContain("s3cret");
        assertThat(ApiRequest.of("GET", "/api", null, null).bearer()).isNull();
    }
}
