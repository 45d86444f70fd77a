package dev.flowform.cli;

import dev.flowform.config.OutputValue;
import dev.flowform.state.OutputRecord;
import dev.flowform.state.StateStore;
import java.util.ArrayList;
import java.util.List;

/**
 * Root module outputs between the configuration, the state and the terminal: what {@code apply}
 * records after a successful run and what {@code flowform output} prints.
 *
 * <p>Sensitive outputs follow Terraform's display ({@code <sensitive>} in listings) but, unlike
 * Terraform, flowform never stores their value: the state keeps a salted hash
 * ({@link StateStore#replaceOutputs}), so no command can print it, not even with {@code --json}.
 */
final class Outputs {

    /** How a sensitive output is shown (Terraform's {@code output} spelling). */
    static final String SENSITIVE = "<sensitive>";

    private Outputs() {
    }

    /** @return the outputs as the state stores them (values as JSON; sensitive ones are hashed by the store) */
    static List<OutputRecord> records(List<OutputValue> values) {
        List<OutputRecord> out = new ArrayList<>();
        for (OutputValue v : values) {
            out.add(OutputRecord.of(v.name(), JsonText.compact(v.value()), v.type(), v.sensitive(), v.description()));
        }
        return out;
    }

    /** @return {@code name = value} lines, values in the layout of {@code fmt}, sensitive ones as {@value #SENSITIVE} */
    static String human(List<OutputRecord> outputs) {
        StringBuilder out = new StringBuilder();
        for (OutputRecord o : outputs) {
            out.append(o.name()).append(" = ").append(value(o)).append('\n');
        }
        return out.toString();
    }

    /** @return the value of one output for people: JSON laid out like fmt, or {@value #SENSITIVE} */
    static String value(OutputRecord o) {
        return o.sensitive() ? SENSITIVE : JsonText.prettyText(o.valueJson());
    }

    /**
     * @return the outputs in the shape of Terraform's {@code output -json}, as indented JSON text: name to
     *     {@code sensitive}, {@code type} and {@code value}; a sensitive output has {@code value_hash} instead of
     *     {@code value}
     */
    static String json(List<OutputRecord> outputs) {
        StringBuilder doc = new StringBuilder("{");
        for (OutputRecord o : outputs) {
            if (doc.length() > 1) {
                doc.append(',');
            }
            doc.append(JsonText.compact(o.name())).append(":{\"sensitive\":").append(o.sensitive())
                    .append(",\"type\":").append(JsonText.compact(o.valueType()));
            if (o.sensitive()) {
                doc.append(",\"value_hash\":").append(JsonText.compact(o.valueHash()));
            } else {
                doc.append(",\"value\":").append(o.valueJson());
            }
            doc.append('}');
        }
        return JsonText.prettyText(doc.append('}').toString());
    }
}
