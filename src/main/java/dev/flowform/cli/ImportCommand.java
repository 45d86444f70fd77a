package dev.flowform.cli;

import dev.flowform.cli.view.TerminalView;
import dev.flowform.config.imports.Adoption;
import dev.flowform.config.imports.AdoptionWriter;
import dev.flowform.config.syntax.Names;
import dev.flowform.model.LiveState;
import dev.flowform.run.Environment;
import dev.flowform.run.OperationFailed;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code flowform import}: writes {@code manage = "adopt"} configuration ({@link AdoptionWriter}) for the KafkaConnects,
 * KafkaConnectors and KafkaMirrorMaker2s of one namespace into {@code --out}, never overwriting a file without
 * {@code --force} (like Terraform's {@code plan -generate-config-out}); what cannot be adopted is listed on stderr.
 * Changes nothing in the cluster or the state. Exit 0 written, 1 error.
 */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = "Write adopt configuration for the Connect clusters and MirrorMaker 2 flows running in a namespace.")
public final class ImportCommand extends FlowformSubcommand implements Callable<Integer> {

    @Option(names = {"--namespace", "-namespace"}, paramLabel = "NS", required = true,
            description = "Namespace whose KafkaConnects, KafkaConnectors and KafkaMirrorMaker2s to adopt.")
    String namespace;

    @Option(names = {"--out", "-out"}, paramLabel = "DIR", required = true,
            description = "Folder to write the <name>.flow.json files into (created when missing); usually the "
                    + "configuration folder.")
    Path out;

    @Option(names = {"--exactly-once", "-exactly-once"},
            description = "Write every flow with exactly_once = true, so that the next plan is the exactly-once rollout.")
    boolean exactlyOnce;

    @Option(names = {"--force", "-force"}, description = "Overwrite files that already exist in --out.")
    boolean force;

    @Override
    public Integer call() {
        Terminal term = FlowformCommand.terminal(spec, common.noColor);
        if (!Names.isKubernetesName(namespace)) {
            term.error("Invalid value for option --namespace", "\"" + Names.abbreviate(namespace) + "\" is not a valid "
                    + "Kubernetes namespace name.");
            return 1;
        }
        Adoption adoption;
        try (Environment env = CommandEnvironment.open(common, parent.context(), term, new TerminalView(term), null)) {
            LiveState live = env.cluster().readNamespace(namespace);
            adoption = AdoptionWriter.adopt(live, namespace, exactlyOnce);
        } catch (CommandFailed e) {
            return e.exitCode();
        } catch (OperationFailed e) {
            return 1;
        }
        for (Adoption.LeftOut l : adoption.leftOut()) {
            term.errorLine("Left out " + l.object() + ": " + l.reason() + ".");
        }
        if (adoption.files().isEmpty()) {
            term.error("Nothing to import", "Namespace \"" + namespace + "\" holds no KafkaConnect and no KafkaMirrorMaker2.");
            return 1;
        }
        return write(adoption.files(), term);
    }

    /** Writes the files, after checking that none exists (unless {@code --force}). */
    private int write(List<Adoption.File> files, Terminal term) {
        List<Path> existing = files.stream().map(f -> out.resolve(f.name())).filter(Files::exists).toList();
        if (!existing.isEmpty() && !force) {
            term.error("Refusing to overwrite existing files", "Already there: " + String.join(", ",
                    existing.stream().map(Path::toString).toList()) + ". Nothing was written. Move them away, choose "
                    + "another --out, or use --force to overwrite them.");
            return 1;
        }
        try {
            Files.createDirectories(out);
            for (Adoption.File f : files) {
                Files.writeString(out.resolve(f.name()), f.text(), StandardOpenOption.CREATE,
                        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
                term.println("Wrote " + out.resolve(f.name()));
            }
        } catch (IOException e) {
            term.error("Cannot write the configuration", "Writing into " + out + " failed: " + e.getMessage());
            return 1;
        }
        term.println("");
        term.println("Run \"flowform validate\" and \"flowform plan\" in the configuration folder: against the same "
                + "cluster the plan shows " + (exactlyOnce ? "the exactly-once rollout." : "no changes."));
        return 0;
    }
}
