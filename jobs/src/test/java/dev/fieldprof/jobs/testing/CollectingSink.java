package dev.fieldprof.jobs.testing;

import dev.fieldprof.jobs.io.EncodedRecord;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * A sink that keeps what it receives in this JVM (the MiniCluster runs in the test's JVM); the job
 * tests of both jobs use it.
 */
public final class CollectingSink implements Sink<EncodedRecord> {
    private static final long serialVersionUID = 1L;
    private static final Map<String, Queue<EncodedRecord>> RECEIVED = new ConcurrentHashMap<>();

    private final String id = UUID.randomUUID().toString();

    public CollectingSink() {
        RECEIVED.put(id, new ConcurrentLinkedQueue<>());
    }

    public List<EncodedRecord> received() {
        return List.copyOf(RECEIVED.get(id));
    }

    @Override
    public SinkWriter<EncodedRecord> createWriter(WriterInitContext context) {
        Queue<EncodedRecord> queue = RECEIVED.get(id);
        return new SinkWriter<>() {
            @Override
            public void write(EncodedRecord element, Context context) {
                queue.add(element);
            }

            @Override
            public void flush(boolean endOfInput) {}

            @Override
            public void close() {}
        };
    }
}
