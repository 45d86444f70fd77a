package dev.flowform.cli;

import dev.flowform.config.OutputValue;
import dev.flowform.state.OutputRecord;
import dev.flowform.state.OutputTable;
import java.util.List;

/**
 * How root module outputs are shown: after {@code Apply complete!} and by {@code flowform output}. The state keeps
 * them ({@link OutputTable}).
 *
 * <p>Sensitive outputs follow Terraform's display ({@code <sensitive>} in listings) but, unlike
 * Terraform, flowform never stores their value: the state keeps a salted hash
 * ({@link OutputTable#replace}), so no command can print it, not even with {@code --json}.
 */
final class Outputs {

    /** How a sensitive output is shown (Terraform's {@code output} spelling). */
    static final String SENSITIVE = "<sensitive>";

    private Outputs() {
    }

    /**
     * Records the configuration's outputs in the state after a successful apply and prints them
     * the way Terraform does after {@code Apply complete!}.
     *
     * @return 0, or 1 after printing the error when the state cannot be written
     */
    static int saveAfterApply(Session session, Terminal term) {
        List<OutputValue> values = session.config().outputs();
        try {
            session.state().outputs().replaceWithConfigured(values);
        } catch (RuntimeException e) {
            term.error("Cannot record the outputs", "The apply succeeded, but writing its outputs to the state of environment \""
                    + session.environment() + "\" failed: " + e.getMessage());
            return 1;
        }
        if (!values.isEmpty()) {
            term.println("");
            term.println(term.style().green(term.style().bold("Outputs:")));
            term.println("");
            term.print(human(session.state().outputs().all()));
        }
        return 0;
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
