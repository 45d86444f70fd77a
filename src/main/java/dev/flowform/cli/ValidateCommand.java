package dev.flowform.cli;

import dev.flowform.config.ConfigLoader;
import dev.flowform.config.ValidationResult;
import dev.flowform.config.VariableInputs;
import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.Diagnostics;
import dev.flowform.render.DiagnosticRenderer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code flowform validate}: checks the configuration offline for every environment (or {@code -e}) and prints every
 * problem; exit 0 when valid, 1 otherwise. {@code --json} prints Terraform's {@code validate -json} document plus the
 * {@code environments} checked (docs/configuration.md, "validate and fmt").
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = "Check the configuration without contacting a cluster or reading state.")
public final class ValidateCommand implements Callable<Integer> {

    /** Version of the {@code --json} document. */
    public static final String FORMAT_VERSION = "1.0";

    @ParentCommand
    FlowformCommand parent;

    @Spec
    CommandSpec spec;

    @Option(names = {"--dir", "-chdir"}, paramLabel = "DIR", defaultValue = ".",
            description = "Configuration folder holding *.flow.json files (default: ${DEFAULT-VALUE}).")
    Path dir;

    @Option(names = {"-e", "--env"}, paramLabel = "NAME",
            description = "Check only this environment (default: every declared environment).")
    String environment;

    @Option(names = {"--var", "-var"}, paramLabel = "NAME=VALUE", mapFallbackValue = "",
            description = "Set a variable; repeatable; the last value wins.")
    Map<String, String> vars = new LinkedHashMap<>();

    @Option(names = {"--var-file", "-var-file"}, paramLabel = "FILE",
            description = "Read variable values from a JSON file; repeatable; later files win.")
    List<Path> varFiles = new ArrayList<>();

    @Option(names = {"--json", "-json"}, description = "Print the result as JSON (Terraform's validate -json shape).")
    boolean json;

    @Option(names = {"--no-color", "-no-color"}, description = "Do not colour the output.")
    boolean noColor;

    @Override
    public Integer call() {
        Terminal term = FlowformCommand.terminal(spec, noColor || json);
        VariableInputs inputs = new VariableInputs(parent.context().env(), varFiles, vars);
        ValidationResult result = new ConfigLoader().validate(dir, environment, inputs);
        if (json) {
            term.print(JsonText.pretty(document(result)) + "\n");
            return result.valid() ? 0 : 1;
        }
        term.addSources(result.sources());
        term.diagnostics(result.diagnostics());
        if (!result.valid()) {
            return 1;
        }
        String which = result.environments().isEmpty() ? ""
                : (result.environments().size() == 1 ? " for environment " : " for environments ")
                + String.join(", ", result.environments().stream().map(e -> "\"" + e + "\"").toList());
        term.println((result.diagnostics().isEmpty() ? "" : "\n") + term.style().green(term.style().bold("Success!"))
                + " The configuration is valid" + which
                + (result.diagnostics().isEmpty() ? "." : ", but there were some validation warnings as shown above."));
        return 0;
    }

    /** @return the {@code --json} document as plain data */
    static Map<String, Object> document(ValidationResult result) {
        Diagnostics diags = result.diagnostics();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("format_version", FORMAT_VERSION);
        doc.put("valid", result.valid());
        doc.put("error_count", diags.errorCount());
        doc.put("warning_count", diags.warningCount());
        doc.put("environments", result.environments());
        List<Object> list = new ArrayList<>();
        for (Diagnostic d : diags) {
            list.add(diagnostic(d, result.sources()));
        }
        doc.put("diagnostics", list);
        return doc;
    }

    private static Map<String, Object> position(dev.flowform.diag.SourcePos p) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("line", p.line());
        out.put("column", p.column());
        return out;
    }

    /** @return one diagnostic in the shape of Terraform's JSON diagnostics */
    static Map<String, Object> diagnostic(Diagnostic d, Map<String, String> sources) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("severity", d.severity().jsonName());
        out.put("summary", d.summary());
        out.put("detail", d.detail());
        if (d.address() != null) {
            out.put("address", d.address());
        }
        if (d.range() != null) {
            Map<String, Object> range = new LinkedHashMap<>();
            range.put("filename", d.range().filename());
            range.put("start", position(d.range().start()));
            range.put("end", position(d.range().end()));
            out.put("range", range);
            DiagnosticRenderer.snippet(d, sources).ifPresent(s -> {
                Map<String, Object> snippet = new LinkedHashMap<>();
                snippet.put("context", s.context());
                snippet.put("code", s.code());
                snippet.put("start_line", s.startLine());
                snippet.put("highlight_start_offset", s.highlightStartOffset());
                snippet.put("highlight_end_offset", s.highlightEndOffset());
                snippet.put("values", List.of());
                out.put("snippet", snippet);
            });
        }
        return out;
    }
}
