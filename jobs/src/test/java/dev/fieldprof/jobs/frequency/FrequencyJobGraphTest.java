package dev.fieldprof.jobs.frequency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.testing.CollectingSink;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamEdge;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.junit.jupiter.api.Test;

/** The shape of the job: how often a report crosses the network, and what it costs in between. */
class FrequencyJobGraphTest {

    @Test
    void chainedOperatorsHandRecordsOnAndNoOperatorDecodesTheEstimatesAgain() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        new FrequencyEstimationJob(
                        FrequencyJobOptions.parse("--bootstrap", "unused:9092"),
                        RecordListSource.of(List.of()),
                        RecordListSource.of(List.of()),
                        new CollectingSink(),
                        new CollectingSink())
                .buildInto(env);
        StreamGraph graph = env.getStreamGraph();

        // Without object reuse every chained operator gets a serializer copy of each record.
        assertThat(env.getConfig().isObjectReuseEnabled()).isTrue();
        List<String> afterEstimates = new ArrayList<>();
        for (StreamNode node : graph.getStreamNodes()) {
            for (StreamEdge edge : node.getInEdges()) {
                if (graph.getStreamNode(edge.getSourceId())
                                .getOperatorName()
                                .equals("estimate-windows")
                        && edge.getOutputTag() == null) {
                    afterEstimates.add(node.getOperatorName());
                }
            }
        }
        // The estimates go straight to the sink: the estimator measures its own metrics.
        assertThat(afterEstimates).containsExactly("estimates-sink: Writer");
    }

    @Test
    void aReportIsShuffledTwiceOnItsWayToTheWindowSum() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        new FrequencyEstimationJob(
                        FrequencyJobOptions.parse("--bootstrap", "unused:9092"),
                        RecordListSource.of(List.of()),
                        RecordListSource.of(List.of()),
                        new CollectingSink(),
                        new CollectingSink())
                .buildInto(env);
        StreamGraph graph = env.getStreamGraph();

        List<String> reportEdges = new ArrayList<>();
        for (StreamNode node : graph.getStreamNodes()) {
            for (StreamEdge edge : node.getInEdges()) {
                StreamNode from = graph.getStreamNode(edge.getSourceId());
                if (from.getTypeSerializerOut() != null
                        && from.getTypeSerializerOut()
                                .createInstance()
                                .getClass()
                                .equals(ReportRecord.class)
                        && edge.getOutputTag() == null) {
                    reportEdges.add(
                            from.getOperatorName()
                                    + " -> "
                                    + node.getOperatorName()
                                    + " "
                                    + edge.getPartitioner());
                }
            }
        }
        assertThat(reportEdges)
                .containsExactlyInAnyOrder(
                        "decode-reports -> deduplicate-reports HASH",
                        "deduplicate-reports -> validate-reports HASH",
                        "validate-reports -> bundle-reports FORWARD");
        // Chained too: a report reaches its bundle, and a bundle its window sum, without a copy.
        List<String> tasks = new ArrayList<>();
        for (JobVertex vertex : graph.getJobGraph().getVertices()) {
            if (vertex.getName().contains("validate-reports")) {
                tasks.add(vertex.getName());
            }
        }
        assertThat(tasks)
                .singleElement()
                .asString()
                .startsWith("validate-reports -> bundle-reports -> (frequency-window-sum");
    }
}
