package dev.flowform.state;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks that an existing H2 database file is whole before H2 opens it (H2 would open a truncated file as an older
 * chunk, even an empty database): two header blocks, an MVStore header, a whole number of blocks, and the last chunk
 * the header names (docs/state-backends.md, "H2").
 */
final class H2FileCheck {

    /** H2's two file header blocks of 4096 bytes each. */
    private static final long HEADER_BYTES = 2 * 4096;

    /** How much of the file header and of a chunk header is read: 256 bytes. */
    private static final int HEAD_BYTES = 256;

    private static final Pattern CHUNK_LENGTH = Pattern.compile("(?:^|,)len:([0-9a-f]+)");

    private H2FileCheck() {
    }

    /**
     * @param file an existing database file
     * @throws DamagedStateException when it is not whole
     * @throws StateStoreException  when it cannot be read
     */
    static void check(Path file) {
        long size;
        byte[] head = new byte[HEAD_BYTES];
        int read;
        try (InputStream in = Files.newInputStream(file)) {
            size = Files.size(file);
            read = in.readNBytes(head, 0, head.length);
        } catch (IOException e) {
            throw new StateStoreException("cannot read the state database " + file + ": " + e.getMessage(), e);
        }
        if (size < HEADER_BYTES) {
            throw new DamagedStateException(file, "it is " + size + " bytes long, shorter than an H2 database's two header "
                    + "blocks (the file was truncated or never completely written)");
        }
        Map<String, String> fields = headerFields(new String(head, 0, read, StandardCharsets.ISO_8859_1));
        if (!fields.containsKey("H") || !fields.containsKey("blockSize")) {
            throw new DamagedStateException(file, "it does not start with an H2 MVStore file header");
        }
        long blockSize = hex(file, fields.get("blockSize"));
        if (blockSize <= 0 || size % blockSize != 0) {
            throw new DamagedStateException(file, "it is " + size + " bytes long, not a whole number of " + blockSize
                    + "-byte blocks (the file was truncated)");
        }
        // "block" names the last chunk written when the file was closed cleanly; an open (or killed) store leaves it out
        if (fields.containsKey("block")) {
            long block = hex(file, fields.get("block"));
            long length = chunkLength(file, block, blockSize, size);
            if ((block + length) * blockSize > size) {
                throw new DamagedStateException(file, "its last chunk ends at block " + (block + length) + ", but the file "
                        + "ends at block " + (size / blockSize) + " (the file was truncated)");
            }
        }
    }

    /** @return the {@code key:value} fields of the header's first line, empty when it is not an MVStore header */
    private static Map<String, String> headerFields(String header) {
        Map<String, String> fields = new HashMap<>();
        if (header.startsWith("H:")) {
            for (String part : header.split("\n", 2)[0].trim().split(",")) {
                int colon = part.indexOf(':');
                if (colon > 0) {
                    fields.put(part.substring(0, colon), part.substring(colon + 1));
                }
            }
        }
        return fields;
    }

    private static long hex(Path file, String text) {
        try {
            return Long.parseLong(text, 16);
        } catch (NumberFormatException e) {
            throw new DamagedStateException(file, "its H2 file header is unreadable");
        }
    }

    /**
     * @return the length in blocks the chunk header at {@code block} gives, or 1 when that header is beyond the end of
     *         the file or cannot be read (the caller's length check then decides)
     */
    private static long chunkLength(Path file, long block, long blockSize, long size) {
        if ((block + 1) * blockSize > size) {
            return 1;
        }
        try (FileChannel ch = FileChannel.open(file)) {
            ByteBuffer buf = ByteBuffer.allocate(HEAD_BYTES);
            ch.read(buf, block * blockSize);
            String chunk = new String(buf.array(), 0, buf.position(), StandardCharsets.ISO_8859_1);
            Matcher m = CHUNK_LENGTH.matcher(chunk);
            return chunk.startsWith("chunk:") && m.find() ? Long.parseLong(m.group(1), 16) : 1;
        } catch (IOException | NumberFormatException e) {
            return 1;
        }
    }
}
