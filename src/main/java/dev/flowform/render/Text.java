package dev.flowform.render;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Text helpers for renderers: word wrapping and elapsed-time formatting. */
public final class Text {
    private Text() {
    }

    /** @return {@code text} wrapped at {@code width} characters, keeping existing line breaks */
    public static List<String> wrap(String text, int width) {
        List<String> out = new ArrayList<>();
        for (String para : text.split("\n", -1)) {
            StringBuilder line = new StringBuilder();
            for (String word : para.split(" ")) {
                if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                    out.add(line.toString());
                    line.setLength(0);
                }
                if (line.length() > 0) {
                    line.append(' ');
                }
                line.append(word);
            }
            out.add(line.toString());
        }
        return out;
    }

    /** @return {@code 01m05s} style elapsed time (Terraform's progress format), e.g. {@code 00m10s} */
    public static String elapsed(Duration d) {
        long s = Math.max(0, d.toSeconds());
        return String.format("%02dm%02ds", s / 60, s % 60);
    }

    /** @return a human duration such as {@code 3.2s} or {@code 1m13s} */
    public static String duration(Duration d) {
        long ms = Math.max(0, d.toMillis());
        if (ms < 60_000) {
            return String.format("%.1fs", ms / 1000.0);
        }
        return (ms / 60_000) + "m" + String.format("%02d", (ms / 1000) % 60) + "s";
    }
}
