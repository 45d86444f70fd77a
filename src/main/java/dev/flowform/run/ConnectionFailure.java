package dev.flowform.run;

import dev.flowform.diag.Diagnostic;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.RequestConfig;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;

/**
 * Why the Kubernetes API server could not be used, as one error for the user: what failed (connection
 * refused, unknown host, timeout, TLS, 401, 403 with the verb and resource RBAC denied) and where (the
 * server URL and context). Built from what fabric8 throws, whose own message is often only "An error
 * has occurred." with the cause underneath.
 *
 * @param summary the error's summary line
 * @param detail  the error's detail: the server, the cause and what to check
 */
record ConnectionFailure(String summary, String detail) {

    /** The longest the first contact with the API server may take before it counts as a timeout. */
    static final Duration PROBE_DEADLINE = Duration.ofSeconds(6);

    /** A dump of the bytes received, as netty appends to "not an SSL/TLS record". */
    private static final Pattern HEX_DUMP = Pattern.compile("\\s*\\b[0-9a-fA-F]{32,}\\b");

    private static final Pattern FORBIDDEN = Pattern.compile(
            "cannot (\\S+) resource \"([^\"]+)\"(?: in API group \"([^\"]*)\")?(?: in the namespace \"([^\"]+)\")?");

    /**
     * Makes the first contact with the API server: one {@code GET /version} through {@code client}'s connections,
     * without retries, within {@link #PROBE_DEADLINE}, so an unusable server is reported before anything is read.
     *
     * @param client the client that will read
     * @param where  the server and context, for messages
     * @return the failure, or empty when the server answered (a 404 counts as an answer)
     */
    static Optional<ConnectionFailure> probe(KubernetesClient client, String where) {
        int limit = (int) PROBE_DEADLINE.toMillis();
        RequestConfig once = new RequestConfigBuilder(client.getConfiguration().getRequestConfig())
                .withRequestRetryBackoffLimit(0).withRequestTimeout(limit).build();
        // a view of client, never closed here: closing it would close the connections client reads with
        KubernetesClient probing = client.newClient(once).adapt(KubernetesClient.class);
        CompletableFuture<Void> call = CompletableFuture.runAsync(probing::getKubernetesVersion, task -> {
            Thread t = new Thread(task, "flowform-probe");
            t.setDaemon(true);
            t.start();
        });
        try {
            call.get(limit, TimeUnit.MILLISECONDS);
            return Optional.empty();
        } catch (TimeoutException e) {
            return Optional.of(of(new TimeoutException(), where));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof KubernetesClientException k && k.getCode() == 404) {
                return Optional.empty();
            }
            return Optional.of(of(e.getCause(), where));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of(new ConnectionFailure("Interrupted", "Interrupted while contacting " + where + "."));
        } finally {
            call.cancel(true);
        }
    }

    /**
     * @param environment the environment whose cluster failed
     * @return this failure as one error about the environment
     */
    Diagnostic diagnostic(String environment) {
        return Diagnostic.error(summary, detail).withAddress("environment." + environment);
    }

    /**
     * Explains {@code error} from a request to {@code where}.
     *
     * @param error what the request threw
     * @param where the server and context, for messages
     * @return the error to print
     */
    static ConnectionFailure of(Throwable error, String where) {
        List<Throwable> chain = chain(error);
        for (Throwable t : chain) {
            if (t instanceof KubernetesClientException k && k.getCode() > 0) {
                return http(k, where);
            }
        }
        String cause = innermostMessage(chain);
        String because = cause == null ? "" : " (" + cause + ")";
        // java.net.http (fabric8's JDK client) reports a name it cannot resolve as an UnresolvedAddressException
        // under a ConnectException; other clients throw UnknownHostException
        if (find(chain, UnknownHostException.class) != null || find(chain, UnresolvedAddressException.class) != null) {
            return new ConnectionFailure("Unknown host: cannot connect to " + where,
                    "The name of the API server cannot be resolved" + because
                            + ". Check the server address in the kubeconfig.");
        }
        if (chain.stream().anyMatch(ConnectionFailure::isTimeout)) {
            return new ConnectionFailure("Timeout: cannot connect to " + where, "The API server did not answer within "
                    + PROBE_DEADLINE.toSeconds() + " s" + because + ". Check that it is "
                    + "reachable from here (VPN, firewall, proxy).");
        }
        if (find(chain, SSLException.class) != null || find(chain, CertificateException.class) != null) {
            return new ConnectionFailure("TLS failure: cannot connect to " + where, "The TLS handshake with the API server "
                    + "failed" + because + ". Check the server address (https to a "
                    + "plain-HTTP port fails too) and the certificate-authority data of the kubeconfig's cluster entry.");
        }
        if (find(chain, NoRouteToHostException.class) != null) {
            return new ConnectionFailure("No route to host: cannot connect to " + where, "No network path leads to the "
                    + "API server" + because + ".");
        }
        if (find(chain, ConnectException.class) != null) {
            return new ConnectionFailure("Connection refused: cannot connect to " + where, "Nothing accepts connections at "
                    + "the API server's address" + because + ". Check that the cluster is "
                    + "running, and the server address and port in the kubeconfig.");
        }
        return new ConnectionFailure("Cannot connect to " + where, "The request to the API server failed: "
                + (cause == null ? "no detail given" : cause) + ".");
    }

    /** A 401, a 403 (with what RBAC denied, from the Status message), or another HTTP error. */
    private static ConnectionFailure http(KubernetesClientException k, String where) {
        String message = k.getStatus() != null && k.getStatus().getMessage() != null ? k.getStatus().getMessage()
                : k.getMessage();
        if (k.getCode() == 401) {
            return new ConnectionFailure("Unauthorized (401) at " + where, "The API server rejected the credentials "
                    + "(" + message + "). Refresh the token or client certificate of the kubeconfig's user.");
        }
        if (k.getCode() == 403) {
            Matcher m = FORBIDDEN.matcher(message == null ? "" : message);
            String denied = "a request";
            if (m.find()) {
                String resource = m.group(2) + (m.group(3) == null || m.group(3).isEmpty() ? "" : "." + m.group(3));
                denied = "\"" + m.group(1) + "\" on " + resource + (m.group(4) == null ? "" : " in namespace " + m.group(4));
            }
            return new ConnectionFailure("Forbidden (403): RBAC denies " + denied, "The API server at " + where
                    + " refused: " + message + ". Grant the kubeconfig's user that permission (a Role or ClusterRole "
                    + "bound to it), or use a context whose user has it.");
        }
        return new ConnectionFailure("HTTP " + k.getCode() + " from " + where, "The API server answered HTTP "
                + k.getCode() + ": " + message + ".");
    }

    private static boolean isTimeout(Throwable t) {
        return t instanceof TimeoutException || t instanceof SocketTimeoutException || t instanceof HttpTimeoutException
                || t instanceof HttpConnectTimeoutException || t.getClass().getSimpleName().contains("Timeout");
    }

    private static List<Throwable> chain(Throwable error) {
        List<Throwable> out = new ArrayList<>();
        Set<Throwable> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = error; t != null && seen.add(t); t = t.getCause()) {
            out.add(t);
        }
        return out;
    }

    private static Throwable find(List<Throwable> chain, Class<? extends Throwable> type) {
        return chain.stream().filter(type::isInstance).findFirst().orElse(null);
    }

    /** @return the message of the deepest cause that has one other than fabric8's "An error has occurred.", or null */
    private static String innermostMessage(List<Throwable> chain) {
        for (int i = chain.size() - 1; i >= 0; i--) {
            String m = chain.get(i).getMessage();
            if (m != null && !m.isBlank() && !m.startsWith("An error has occurred")) {
                return HEX_DUMP.matcher(m.strip()).replaceAll(" …");
            }
        }
        return null;
    }
}
