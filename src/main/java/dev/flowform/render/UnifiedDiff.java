package dev.flowform.render;

import java.util.ArrayList;
import java.util.List;

/**
 * Line diffs in the unified format of {@code diff -u} (what {@code terraform fmt -diff} prints):
 * {@code --- old/NAME} and {@code +++ new/NAME} headers (a leading {@code /} of NAME dropped), then hunks {@code @@ -l,n +l,n @@} with
 * {@value #CONTEXT} lines of context. Lines are compared exactly; the longest common subsequence
 * decides what is kept. Inputs of more than {@value #MAX_CELLS} line pairs are shown as one hunk
 * replacing everything (no quadratic blow-up). When the lines are equal and only line endings or
 * the final newline differ, the headers are followed by a note saying so. Pure.
 */
public final class UnifiedDiff {

    /** Lines of context around each change. */
    public static final int CONTEXT = 3;

    /** Largest product of the two line counts compared line by line. */
    public static final long MAX_CELLS = 4_000_000L;

    private UnifiedDiff() {
    }

    private record Op(char kind, String line) {
    }

    /** @return the unified diff from {@code before} to {@code after} of file {@code name}, or "" when they are equal */
    public static String diff(String name, String before, String after) {
        if (before.equals(after)) {
            return "";
        }
        List<String> a = before.lines().toList();
        List<String> b = after.lines().toList();
        List<Op> ops = ops(a, b);
        StringBuilder out = new StringBuilder();
        String shown = name.startsWith("/") ? name.substring(1) : name;
        out.append("--- old/").append(shown).append('\n').append("+++ new/").append(shown).append('\n');
        int i = 0;
        while (i < ops.size()) {
            if (ops.get(i).kind() == ' ') {
                i++;
                continue;
            }
            int start = Math.max(0, i - CONTEXT);
            int end = i;
            int lastChange = i;
            while (end < ops.size()) {
                if (ops.get(end).kind() != ' ') {
                    lastChange = end;
                } else if (end - lastChange > 2 * CONTEXT) {
                    break;
                }
                end++;
            }
            end = Math.min(ops.size(), lastChange + CONTEXT + 1);
            hunk(ops, start, end, out);
            i = end;
        }
        if (ops.stream().allMatch(o -> o.kind() == ' ')) {
            out.append("(only line endings or the final newline differ)\n");
        }
        return out.toString();
    }

    private static void hunk(List<Op> ops, int start, int end, StringBuilder out) {
        int oldLine = 1;
        int newLine = 1;
        for (int k = 0; k < start; k++) {
            oldLine += ops.get(k).kind() != '+' ? 1 : 0;
            newLine += ops.get(k).kind() != '-' ? 1 : 0;
        }
        int oldCount = 0;
        int newCount = 0;
        for (int k = start; k < end; k++) {
            oldCount += ops.get(k).kind() != '+' ? 1 : 0;
            newCount += ops.get(k).kind() != '-' ? 1 : 0;
        }
        out.append("@@ -").append(oldCount == 0 ? oldLine - 1 : oldLine).append(',').append(oldCount)
                .append(" +").append(newCount == 0 ? newLine - 1 : newLine).append(',').append(newCount).append(" @@\n");
        for (int k = start; k < end; k++) {
            out.append(ops.get(k).kind()).append(ops.get(k).line()).append('\n');
        }
    }

    private static List<Op> ops(List<String> a, List<String> b) {
        List<Op> ops = new ArrayList<>();
        if ((long) a.size() * b.size() > MAX_CELLS) {
            a.forEach(l -> ops.add(new Op('-', l)));
            b.forEach(l -> ops.add(new Op('+', l)));
            return ops;
        }
        int n = a.size();
        int m = b.size();
        int[][] lcs = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                lcs[i][j] = a.get(i).equals(b.get(j)) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        int i = 0;
        int j = 0;
        while (i < n && j < m) {
            if (a.get(i).equals(b.get(j))) {
                ops.add(new Op(' ', a.get(i)));
                i++;
                j++;
            } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
                ops.add(new Op('-', a.get(i++)));
            } else {
                ops.add(new Op('+', b.get(j++)));
            }
        }
        while (i < n) {
            ops.add(new Op('-', a.get(i++)));
        }
        while (j < m) {
            ops.add(new Op('+', b.get(j++)));
        }
        return ops;
    }
}
