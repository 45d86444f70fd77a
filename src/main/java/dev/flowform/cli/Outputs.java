package dev.flowform.cli;

import dev.flowform.state.OutputRecord;
import dev.flowform.state.OutputTable;
import java.util.List;

/**
 * How root module outputs are shown, after {@code Apply complete!} and by {@code flowform output}: Terraform's display,
 * except that a sensitive value is never stored ({@link OutputTable#replace} keeps a salted hash), so no command
 * prints it.
 */
final class Outputs {

    /** How a sensitive output is shown (Terraform's {@code output} spelling). */
    static final String SENSITIVE = "<sensitive>";

    private Outputs() {
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
