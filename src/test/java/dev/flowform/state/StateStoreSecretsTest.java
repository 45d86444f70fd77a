package dev.flowform.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class StateStoreSecretsTest {

    @Test
    void secrets_encrypted_for_a_saved_plan_decrypt_only_in_the_same_environment() {
        try (StateStore prod = StateStore.inMemory("prod", Clock.systemUTC());
             StateStore other = StateStore.inMemory("prod", Clock.systemUTC())) {
            String stored = prod.cipher().encrypt("password=\"s3cret\"");

            assertThat(stored).startsWith(SecretCipher.ENCRYPTED_PREFIX).doesNotContain("s3cret");
            assertThat(prod.cipher().encrypt("password=\"s3cret\"")).as("random nonce").isNotEqualTo(stored);
            assertThat(prod.cipher().decrypt(stored)).isEqualTo("password=\"s3cret\"");
            assertThatThrownBy(() -> other.cipher().decrypt(stored)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not encrypted for environment");
            assertThatThrownBy(() -> prod.cipher().decrypt("(sensitive value)")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("plan --out");
            assertThat(prod.stateRef().serial()).as("encryption does not change the state").isZero();
        }
    }
}
