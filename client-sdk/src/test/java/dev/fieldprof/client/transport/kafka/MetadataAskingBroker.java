package dev.fieldprof.client.transport.kafka;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A broker (a MockProducer) that acknowledges every send and counts down a latch when a topic's
 * metadata is asked for: for tests of the device's warm-up before its first report.
 */
public final class MetadataAskingBroker extends MockProducer<String, byte[]> {
    private final String topic;
    private final CountDownLatch asked;
    private final boolean reachable;
    private volatile String askedTopic;

    /**
     * @param topic the topic the device should ask for
     * @param reachable if false, the metadata request times out, as with a broker not reached
     */
    public MetadataAskingBroker(String topic, boolean reachable) {
        super(true, null, new StringSerializer(), new ByteArraySerializer());
        this.topic = topic;
        this.asked = new CountDownLatch(1);
        this.reachable = reachable;
    }

    @Override
    public synchronized List<PartitionInfo> partitionsFor(String requested) {
        askedTopic = requested;
        asked.countDown();
        if (!reachable || !requested.equals(topic)) {
            throw new TimeoutException("no metadata for " + requested);
        }
        return super.partitionsFor(requested);
    }

    /** Waits up to 10 s for the first metadata request; true if it came, for the expected topic. */
    public boolean askedInTime() throws InterruptedException {
        return asked.await(10, java.util.concurrent.TimeUnit.SECONDS) && topic.equals(askedTopic);
    }
}
