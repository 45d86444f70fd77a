package dev.flowform.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the benchmarks ran on: cores, CPU model, memory, Java, load. */
final class Machine {

    private Machine() {
    }

    static Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("nproc", Runtime.getRuntime().availableProcessors());
        m.put("cpu_model", cpuModel());
        m.put("ram_gib", Math.round(memTotalKb() / 1024.0 / 1024.0 * 10) / 10.0);
        m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + " (" + System.getProperty("java.vendor") + ")");
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        return m;
    }

    static String summary(Map<String, Object> m) {
        return m.get("nproc") + " cores (`nproc`), " + m.get("cpu_model") + ", " + m.get("ram_gib") + " GiB RAM, "
                + m.get("java");
    }

    /** @return the 1-minute load average from /proc/loadavg, or -1 */
    static double load() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static String cpuModel() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/cpuinfo"));
            for (String l : lines) {
                if (l.startsWith("model name")) {
                    return l.substring(l.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            // fall through
        }
        return System.getProperty("os.arch");
    }

    private static long memTotalKb() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (l.startsWith("MemTotal:")) {
                    return Long.parseLong(l.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through
        }
        return 0;
    }
}
