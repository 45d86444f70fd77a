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
            String stored = prod.encryptSecret("password=\"s3cret\"");

            assertThat(stored).startsWith(StateStore.ENCRYPTED_PREFIX).doesNotContain("s3cret");
            assertThat(prod.encryptSecret("password=\"s3cret\"")).as("random nonce").isNotEqualTo(stored);
            assertThat(prod.decryptSecret(stored)).isEqualTo("password=\"s3cret\"");
            assertThatThrownBy(() -> other.decryptSecret(stored)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not encrypted for environment");
            assertThatThrownBy(() -> prod.decryptSecret("(sensitive value)")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("plan --out");
            assertThat(prod.stateRef().serial()).as("encryption does not change the state").isZero();
        }
    }
}
