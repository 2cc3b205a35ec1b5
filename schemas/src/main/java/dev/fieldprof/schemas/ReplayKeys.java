package dev.fieldprof.schemas;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Keys of the replay topic: the coordinates of the original report, {@code topic/partition/offset}.
 * The frequency job counts one replayed report per key, so a report replayed twice counts once, and
 * the replay command knows which letters it has already replayed.
 */
public final class ReplayKeys {
    /** Longest key the job accepts (a Kafka topic name has at most 249 characters). */
    public static final int MAX_LENGTH = 300;

    private ReplayKeys() {}

    /** The key of the report read from {@code topic} at {@code partition} and {@code offset}. */
    public static String of(String topic, int partition, long offset) {
        return topic + "/" + partition + "/" + offset;
    }

    /**
     * The key in {@code bytes} as the job and the replay command compare it: present when the bytes
     * are a well-formed key ({@code topic/partition/offset}, partition and offset not negative).
     */
    public static Optional<String> parse(byte[] bytes) {
        if (bytes == null || bytes.length == 0 || bytes.length > MAX_LENGTH) {
            return Optional.empty();
        }
        String key = new String(bytes, StandardCharsets.UTF_8);
        int last = key.lastIndexOf('/');
        int middle = last <= 0 ? -1 : key.lastIndexOf('/', last - 1);
        if (middle <= 0) {
            return Optional.empty();
        }
        try {
            int partition = Integer.parseInt(key.substring(middle + 1, last));
            long offset = Long.parseLong(key.substring(last + 1));
            if (partition < 0 || offset < 0) {
                return Optional.empty();
            }
            return Optional.of(of(key.substring(0, middle), partition, offset));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
