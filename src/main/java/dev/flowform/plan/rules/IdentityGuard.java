package dev.flowform.plan.rules;

import dev.flowform.diag.Diagnostic;
import dev.flowform.plan.Rule;
import java.util.List;

/**
 * The cluster identity guard ({@link Rule#SERVER_IDENTITY}): an environment records the API server it was
 * first applied to; a run against another server is refused unless the environment's {@code expected_server}
 * names the new server (changed on purpose). An {@code expected_server} that differs from the server in use is
 * refused too. Pure: the caller reads the server in use and the recorded one.
 */
public final class IdentityGuard {

    private IdentityGuard() {
    }

    /**
     * What the guard compares.
     *
     * @param environment        the environment's name, for messages and the diagnostic's address
     * @param expectedServer     the environment's {@code expected_server} as written, or null when not set
     * @param currentServer      the server in use as {@link #normalise} gives it, or {@code embedded} for the
     *                           embedded cluster
     * @param recordedServer     the server the state recorded at the first apply, or null before it
     * @param recordedNamespaces the namespaces recorded with it, comma-separated, or null
     */
    public record Facts(String environment, String expectedServer, String currentServer, String recordedServer,
                        String recordedNamespaces) {
    }

    /** @return one error when the server in use is not the expected one, else nothing */
    public static List<Diagnostic> check(Facts facts) {
        String current = facts.currentServer();
        String expected = facts.expectedServer() == null ? null : normalise(facts.expectedServer());
        String env = facts.environment();
        if (expected != null && !expected.equals(current)) {
            return List.of(Rule.SERVER_IDENTITY.error("Cluster identity check failed",
                    "Environment \"" + env + "\" sets expected_server = \"" + expected + "\", but its Kubernetes "
                            + "configuration points at " + current + ". Nothing was changed. Check the kubeconfig context, "
                            + "or change expected_server if the environment really moved.", "environment." + env));
        }
        String recorded = facts.recordedServer();
        if (recorded != null && !normalise(recorded).equals(current) && expected == null) {
            String ns = facts.recordedNamespaces();
            return List.of(Rule.SERVER_IDENTITY.error("Cluster identity check failed",
                    "Environment \"" + env + "\" was applied to " + recorded + (ns == null || ns.isEmpty() ? "" : " (namespace "
                            + ns + ")") + ", but its Kubernetes configuration now points at " + current + ". flowform "
                            + "refuses to act on a different cluster with this environment's state. If the environment "
                            + "really moved, set \"expected_server\": \"" + current + "\" in environment \"" + env
                            + "\" on purpose.", "environment." + env));
        }
        return List.of();
    }

    /** @return an API server URL trimmed and without trailing slashes, as servers are compared and recorded */
    public static String normalise(String url) {
        String u = url.trim();
        while (u.endsWith("/")) {
            u = u.substring(0, u.length() - 1);
        }
        return u;
    }
}
