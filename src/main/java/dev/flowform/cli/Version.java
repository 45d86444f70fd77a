package dev.flowform.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** flowform's version, from the build (resource {@code flowform-version.properties}). */
public final class Version implements CommandLine.IVersionProvider {

    private static final String VERSION = load();

    /** @return e.g. {@code 0.1.0} */
    public static String get() {
        return VERSION;
    }

    private static String load() {
        try (InputStream in = Version.class.getResourceAsStream("/flowform-version.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            String v = p.getProperty("version", "dev");
            return v.startsWith("${") ? "dev" : v;
        } catch (IOException e) {
            return "dev";
        }
    }

    @Override
    public String[] getVersion() {
        return new String[] {"flowform " + VERSION, "Java " + System.getProperty("java.version")};
    }
}
