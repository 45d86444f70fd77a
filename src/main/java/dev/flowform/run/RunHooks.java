package dev.flowform.run;

import dev.flowform.diag.Diagnostic;
import java.util.List;
import java.util.Map;

/**
 * What every operation of the run layer tells its view while it works (Terraform's {@code views} for the
 * local backend): the operations compose the messages, the view decides how they are shown (human text
 * or machine-readable lines), and nothing in the run layer prints.
 */
public interface RunHooks {

    /**
     * The configuration files were read; diagnostics that follow may point into them.
     *
     * @param sources file name to text
     */
    void configurationRead(Map<String, String> sources);

    /**
     * Problems to show, in this order: errors (the operation then stops) and warnings.
     *
     * @param diagnostics the problems, possibly none
     */
    void diagnostics(List<Diagnostic> diagnostics);

    /**
     * The command is about to contact the cluster.
     *
     * @param line e.g. {@code Connecting to https://k8s:6443 (context "prod" from kubeconfig ~/.kube/config), namespace "x"}
     */
    void connecting(String line);

    /**
     * A note for the user that is neither an error nor a warning diagnostic.
     *
     * @param level   {@code info} or {@code warn}
     * @param message the text
     */
    void note(String level, String message);
}
