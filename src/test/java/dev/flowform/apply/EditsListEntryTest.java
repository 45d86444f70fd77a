package dev.flowform.apply;

import dev.flowform.plan.FieldEdit;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A path ending at a {@code [key=value]} segment sets (replaces or appends) or removes the whole list entry. */
class EditsListEntryTest {

    private static Map<String, Object> object() {
        Map<String, Object> dc1 = new LinkedHashMap<>(Map.of("source", Map.of("alias", "dc1"), "topicsPattern", ".*"));
        Map<String, Object> spec = new LinkedHashMap<>(Map.of("mirrors", new ArrayList<>(List.of(dc1))));
        return new LinkedHashMap<>(Map.of("spec", spec));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> mirrors(Map<String, Object> o) {
        return (List<Map<String, Object>>) ((Map<String, Object>) o.get("spec")).get("mirrors");
    }

    @Test
    void appends_replaces_and_removes_an_entry_selected_by_a_dotted_key() {
        Map<String, Object> o = object();
        Map<String, Object> east = Map.of("source", Map.of("alias", "east"), "topicsPattern", "orders.*");

        assertThat(Edits.apply(o, List.of(FieldEdit.set(List.of("spec", "mirrors", "[source.alias=east]"), east, false))))
                .isTrue();
        assertThat(mirrors(o)).hasSize(2).last().isEqualTo(east);
        assertThat(Edits.apply(o, List.of(FieldEdit.set(List.of("spec", "mirrors", "[source.alias=east]"), east, false))))
                .as("setting the same entry again changes nothing").isFalse();
        assertThat(Edits.apply(o, List.of(FieldEdit.remove(List.of("spec", "mirrors", "[source.alias=dc1]"), false))))
                .isTrue();
        assertThat(mirrors(o)).containsExactly(east);
        assertThat(Edits.apply(o, List.of(FieldEdit.remove(List.of("spec", "mirrors", "[source.alias=dc1]"), false))))
                .as("removing an absent entry changes nothing").isFalse();
    }

    @Test
    void an_entry_set_to_a_value_that_is_not_an_object_is_refused() {
        assertThatThrownBy(() -> Edits.apply(object(), List.of(FieldEdit.set(List.of("spec", "mirrors", "[source.alias=x]"),
                "text", false)))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not an object");
    }
}
