package dev.flowform.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code backend} block: where the state lives, relative to the declaring file's folder, and its errors. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class BackendBlockTest {

    private static final String ENV = "\"environment\": {\"demo\": {\"namespace\": \"kafka\"}}";

    @TempDir
    Path tmp;

    private final ConfigLoader loader = new ConfigLoader();

    private Path config(String json) {
        return Fixtures.writeMain(tmp.resolve("cfg"), json);
    }

    @Test
    void without_a_block_the_state_lives_in_state_under_the_configuration_folder() {
        Path dir = config("{" + ENV + "}");

        LoadResult r = loader.load(dir, null, Map.of());

        assertThat(Fixtures.errors(r)).isEmpty();
        assertThat(r.configuration().backend().stateDir()).isEqualTo(dir.toAbsolutePath().resolve("state"));
        assertThat(r.configuration().backend().isDefault()).isTrue();
        assertThat(loader.backend(dir).backend().stateDir()).isEqualTo(dir.toAbsolutePath().resolve("state"));
    }

    @Test
    void a_local_path_is_relative_to_the_declaring_folder_not_the_working_directory() {
        Path dir = config("{\"backend\": {\"local\": {\"path\": \"../common-state\"}}, " + ENV + "}");

        LoadResult r = loader.load(dir, null, Map.of());

        assertThat(Fixtures.errors(r)).isEmpty();
        assertThat(r.configuration().backend().stateDir()).isEqualTo(tmp.toAbsolutePath().resolve("common-state"));
        assertThat(r.configuration().backend().isDefault()).isFalse();
        assertThat(r.configuration().backend().declaredAt().toString()).isEqualTo("main.flow.json:1:14");
        assertThat(loader.backend(dir).backend()).isEqualTo(r.configuration().backend());
    }

    @Test
    void a_local_block_without_path_means_state_next_to_the_file_and_an_absolute_path_is_kept() {
        Path bare = config("{\"backend\": {\"local\": {}}, " + ENV + "}");
        assertThat(loader.load(bare, null, Map.of()).configuration().backend().stateDir())
                .isEqualTo(bare.toAbsolutePath().resolve("state"));

        Path abs = tmp.resolve("elsewhere").toAbsolutePath();
        Path dir = Fixtures.writeMain(tmp.resolve("abs"), "{\"backend\": {\"local\": {\"path\": \""
                + abs.toString().replace("\\", "\\\\") + "\"}}, " + ENV + "}");
        assertThat(loader.load(dir, null, Map.of()).configuration().backend().stateDir()).isEqualTo(abs);
    }

    @Test
    void the_quick_look_up_ignores_errors_outside_the_backend_block() {
        Path dir = config("{\"backend\": {\"local\": {\"path\": \"st\"}}, " + ENV + ", \"connect_cluster\": {\"x\": {\"replics\": 1}}}");

        assertThat(loader.load(dir, null, Map.of()).ok()).isFalse();
        ConfigLoader.BackendLookup lookup = loader.backend(dir);
        assertThat(lookup.diagnostics().hasErrors()).isFalse();
        assertThat(lookup.backend().stateDir()).isEqualTo(dir.toAbsolutePath().resolve("st"));
    }

    @Test
    void a_folder_without_configuration_has_the_default_backend() {
        assertThat(loader.backend(tmp.resolve("none")).backend().stateDir())
                .isEqualTo(tmp.toAbsolutePath().resolve("none").resolve("state"));
    }

    @Test
    void an_unknown_backend_type_is_a_located_error_listing_local() {
        Path dir = config("{\n  \"backend\": {\"s3\": {\"bucket\": \"x\"}},\n  " + ENV + "\n}");

        LoadResult r = loader.load(dir, null, Map.of());

        assertThat(Fixtures.errors(r)).containsExactly("main.flow.json:2:15: Unsupported backend type: Backend type \"s3\" "
                + "is not supported. The \"s3\" backend is not supported. The supported backend types are \"local\": "
                + "{\"backend\": {\"local\": {\"path\": \"state\"}}}, a state folder relative to this file, and \"pg\": "
                + "{\"backend\": {\"pg\": {\"schema_name\": \"flowform\"}}}, every environment in one PostgreSQL schema.");
        assertThat(loader.backend(dir).backend()).isNull();
        assertThat(Fixtures.lines(loader.backend(dir).diagnostics())).isEqualTo(Fixtures.errors(r));
    }

    @Test
    void a_misspelt_type_gets_a_did_you_mean() {
        Path dir = config("{\"backend\": {\"locl\": {}}, " + ENV + "}");

        assertThat(Fixtures.errors(loader.load(dir, null, Map.of())))
                .singleElement().asString().contains("Unsupported backend type", "\"locl\"", "Did you mean \"local\"?");
    }

    @Test
    void two_backend_blocks_an_unknown_argument_a_wrong_type_and_a_reference_are_errors() {
        Path two = Fixtures.write(tmp.resolve("two"), Map.of(
                "a.flow.json", "{\"backend\": {\"local\": {\"path\": \"s1\"}}, " + ENV + "}",
                "b.flow.json", "{\"backend\": {\"local\": {\"path\": \"s2\"}}}"));
        assertThat(Fixtures.errors(loader.load(two, null, Map.of()))).singleElement().asString()
                .startsWith("b.flow.json:1:14: Duplicate backend block: A backend block was already declared at a.flow.json:1:14");

        assertThat(Fixtures.errors(loader.load(config("{\"backend\": {\"local\": {\"pth\": \"s\"}}, " + ENV + "}"), null, Map.of())))
                .singleElement().asString().contains("Unsupported argument", "\"pth\"", "backend \"local\" block",
                        "Did you mean \"path\"?");
        assertThat(Fixtures.errors(loader.load(Fixtures.writeMain(tmp.resolve("n"), "{\"backend\": {\"local\": {\"path\": 3}}, "
                + ENV + "}"), null, Map.of()))).singleElement().asString().contains("Incorrect attribute value type",
                "expected string, got number");
        assertThat(Fixtures.errors(loader.load(Fixtures.writeMain(tmp.resolve("r"), "{\"backend\": {\"local\": {\"path\": "
                + "\"${var.x}\"}}, " + ENV + "}"), null, Map.of()))).singleElement().asString().contains("Variables not allowed");
    }

    @Test
    void a_backend_block_in_a_module_is_an_error() {
        Fixtures.writeMain(tmp.resolve("mod"), "{\"backend\": {\"local\": {}}}");
        Path dir = config("{" + ENV + ", \"module\": {\"m\": {\"source\": \"../mod\"}}}");

        assertThat(Fixtures.errors(loader.load(dir, null, Map.of()))).singleElement().asString()
                .contains("Backend in a module", "root configuration folder");
    }

    @Test
    void the_examples_keep_their_state_in_the_repository_state_folder() {
        Path repoState = Path.of("state").toAbsolutePath().normalize();
        for (String example : new String[] {"quickstart", "real-kafka"}) {
            LoadResult r = loader.load(Path.of("examples", example), null, Map.of());
            assertThat(Fixtures.errors(r)).isEmpty();
            assertThat(r.configuration().backend().stateDir()).as(example).isEqualTo(repoState);
        }
        assertThat(loader.backend(Path.of("examples", "multi-env")).backend().stateDir()).isEqualTo(repoState);
    }
}
