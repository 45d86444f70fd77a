package dev.flowform.sim;

import dev.flowform.model.StrimziApi;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code Table} the API server answers a {@code kubectl get} of a custom resource with (Kubernetes API concepts,
 * "Receiving resources as Tables"): {@code Name}, then the CRD's {@code additionalPrinterColumns}, each evaluated over
 * the subset of {@code jsonPath} Strimzi's CRDs use.
 */
final class PrinterColumns {
    private static final Pattern PATH = Pattern.compile(
            "^/apis/(kafka\\.strimzi\\.io|core\\.strimzi\\.io)/([^/?]+)(?:/namespaces/([^/?]+))?/([^/?]+)(?:/([^/?]+))?$");
    private static final Pattern FILTER = Pattern.compile("\\?\\(@\\.([A-Za-z0-9_]+)\\s*==\\s*\"([^\"]*)\"\\)");
    private static final Map<String, Object> NAME_COLUMN = Map.of("name", "Name", "type", "string", "format", "name",
            "description", "Name must be unique within a namespace.", "priority", 0);

    private final Map<String, List<Map<String, Object>>> columnsByPlural = new LinkedHashMap<>();
    private final String version;
    private final Function<RecordedRequest, MockResponse> store;

    /**
     * @param api   the served version, whose CRDs give the columns
     * @param store the mock's CRUD handling of a request
     */
    PrinterColumns(StrimziApi api, Function<RecordedRequest, MockResponse> store) {
        this.version = api.version();
        this.store = store;
        for (Map<String, Object> crd : StrimziCrds.documents(api)) {
            Map<String, Object> served = JsonMaps.map(JsonMaps.list(JsonMaps.at(crd, "spec", "versions")).get(0));
            List<Map<String, Object>> columns = new ArrayList<>();
            JsonMaps.list(served.get("additionalPrinterColumns")).forEach(c -> columns.add(JsonMaps.map(c)));
            columnsByPlural.put(JsonMaps.str(crd, "spec", "names", "plural"), columns);
        }
    }

    /** @return the {@code Table} when {@code request} is a GET of Strimzi objects asking for one, else null */
    MockResponse answer(RecordedRequest request) {
        String accept = request.getHeader("Accept");
        String raw = request.getPath() == null ? "" : request.getPath();
        int q = raw.indexOf('?');
        Matcher m = PATH.matcher(q < 0 ? raw : raw.substring(0, q));
        if (request.method() != HttpMethod.GET || accept == null || !accept.contains("as=Table") || !m.matches()
                || !version.equals(m.group(2)) || !columnsByPlural.containsKey(m.group(4)) || raw.contains("watch=")) {
            return null;
        }
        MockResponse stored = store.apply(new RecordedRequest("HTTP/1.1", HttpMethod.GET, q < 0 ? raw : raw.substring(0, q),
                Headers.builder().build(), new Buffer()));
        if (stored.code() != 200 || stored.getBody() == null) {
            return stored;
        }
        Map<String, Object> body = JsonMaps.map(JsonMaps.MAPPER.readValue(stored.getBody().getBytes(), Map.class));
        List<Map<String, Object>> items = new ArrayList<>();
        if (m.group(5) != null) {
            items.add(body);
        } else {
            JsonMaps.list(body.get("items")).forEach(i -> items.add(JsonMaps.map(i)));
        }
        String include = raw.contains("includeObject=Object") ? "Object" : raw.contains("includeObject=None") ? "None" : "Metadata";
        return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json")
                .setBody(JsonMaps.MAPPER.writeValueAsString(table(columnsByPlural.get(m.group(4)), items, include,
                        JsonMaps.str(body, "metadata", "resourceVersion"))));
    }

    private static Map<String, Object> table(List<Map<String, Object>> columns, List<Map<String, Object>> items,
                                             String include, String resourceVersion) {
        List<Map<String, Object>> definitions = new ArrayList<>();
        definitions.add(NAME_COLUMN);
        for (Map<String, Object> c : columns) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("name", c.get("name"));
            d.put("type", c.get("type"));
            d.put("format", c.getOrDefault("format", ""));
            d.put("description", c.getOrDefault("description", ""));
            d.put("priority", c.getOrDefault("priority", 0));
            definitions.add(d);
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Map<String, Object> item : items) {
            List<Object> cells = new ArrayList<>();
            cells.add(JsonMaps.str(item, "metadata", "name"));
            for (Map<String, Object> c : columns) {
                cells.add(cell(String.valueOf(c.get("type")), first(item, String.valueOf(c.get("jsonPath")))));
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("cells", cells);
            if (include.equals("Object")) {
                row.put("object", item);
            } else if (include.equals("Metadata")) {
                row.put("object", Map.of("kind", "PartialObjectMetadata", "apiVersion", "meta.k8s.io/v1",
                        "metadata", item.getOrDefault("metadata", Map.of())));
            }
            rows.add(row);
        }
        Map<String, Object> table = new LinkedHashMap<>();
        table.put("kind", "Table");
        table.put("apiVersion", "meta.k8s.io/v1");
        table.put("metadata", resourceVersion == null ? Map.of() : Map.of("resourceVersion", resourceVersion));
        table.put("columnDefinitions", definitions);
        table.put("rows", rows);
        return table;
    }

    private static Object cell(String type, Object value) {
        if (value == null) {
            return null;
        }
        return switch (type) {
            case "string" -> value instanceof Map || value instanceof List ? JsonMaps.MAPPER.writeValueAsString(value)
                    : String.valueOf(value);
            case "date" -> age(String.valueOf(value));
            default -> value;
        };
    }

    /**
     * @param jsonPath e.g. {@code .status.conditions[?(@.type=="Ready")].status} or {@code .metadata.labels.strimzi\.io/cluster}
     * @return the first value the path finds, or null
     */
    static Object first(Object object, String jsonPath) {
        List<Object> nodes = new ArrayList<>(List.of(object));
        int i = 0;
        String p = jsonPath.startsWith("{") && jsonPath.endsWith("}") ? jsonPath.substring(1, jsonPath.length() - 1) : jsonPath;
        while (i < p.length() && !nodes.isEmpty()) {
            char c = p.charAt(i);
            if (c == '.') {
                StringBuilder key = new StringBuilder();
                i++;
                while (i < p.length() && p.charAt(i) != '.' && p.charAt(i) != '[') {
                    if (p.charAt(i) == '\\' && i + 1 < p.length()) {
                        i++;
                    }
                    key.append(p.charAt(i++));
                }
                List<Object> next = new ArrayList<>();
                nodes.forEach(n -> {
                    if (n instanceof Map<?, ?> map && map.get(key.toString()) != null) {
                        next.add(map.get(key.toString()));
                    }
                });
                nodes = next;
            } else if (c == '[') {
                int end = p.indexOf(']', i);
                Matcher f = FILTER.matcher(p.substring(i + 1, end < 0 ? p.length() : end));
                if (end < 0 || !f.matches()) {
                    return null;
                }
                List<Object> next = new ArrayList<>();
                nodes.forEach(n -> JsonMaps.list(n).forEach(e -> {
                    if (e instanceof Map<?, ?> map && f.group(2).equals(String.valueOf(map.get(f.group(1))))) {
                        next.add(e);
                    }
                }));
                nodes = next;
                i = end + 1;
            } else {
                return null;
            }
        }
        return nodes.isEmpty() ? null : nodes.get(0);
    }

    /** @return the age of an RFC 3339 time as kubectl shows it (k8s.io/apimachinery duration.HumanDuration) */
    static String age(String timestamp) {
        Instant t;
        try {
            t = Instant.parse(timestamp);
        } catch (RuntimeException e) {
            return "<invalid>";
        }
        return humanDuration(Duration.between(t, Instant.now()));
    }

    static String humanDuration(Duration d) {
        long seconds = d.getSeconds();
        if (seconds < -1) {
            return "<invalid>";
        } else if (seconds < 0) {
            return "0s";
        } else if (seconds < 120) {
            return seconds + "s";
        }
        long minutes = d.toMinutes();
        if (minutes < 10) {
            return seconds % 60 == 0 ? minutes + "m" : minutes + "m" + seconds % 60 + "s";
        } else if (minutes < 180) {
            return minutes + "m";
        }
        long hours = d.toHours();
        if (hours < 8) {
            return minutes % 60 == 0 ? hours + "h" : hours + "h" + minutes % 60 + "m";
        } else if (hours < 48) {
            return hours + "h";
        } else if (hours < 24 * 8) {
            return hours % 24 == 0 ? hours / 24 + "d" : hours / 24 + "d" + hours % 24 + "h";
        } else if (hours < 24 * 365 * 2) {
            return hours / 24 + "d";
        } else if (hours < 24 * 365 * 8) {
            long days = hours / 24 % 365;
            return days == 0 ? hours / 24 / 365 + "y" : hours / 24 / 365 + "y" + days + "d";
        }
        return hours / 24 / 365 + "y";
    }
}
