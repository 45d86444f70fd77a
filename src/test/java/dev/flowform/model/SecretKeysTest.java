package dev.flowform.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SecretKeysTest {

    @ParameterizedTest
    @CsvSource({
        "source.cluster.sasl.jaas.config, true",
        "ssl.keystore.password, true",
        "ssl.key.password, true",
        "ssl.keystore.key, true",
        "sasl.oauthbearer.client.secret, true",
        "basic.auth.user.info, true",
        "token, true",
        "config.providers.secrets.class, false",
        "config.providers, false",
        "sasl.login.callback.handler.class, false",
        "topics, false",
        "exactly.once.support, false",
    })
    void recognises_credential_keys_but_not_class_names(String key, boolean sensitive) {
        assertThat(SecretKeys.isSensitive(key)).isEqualTo(sensitive);
    }
}
