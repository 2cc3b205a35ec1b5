package dev.fieldprof.cli.load;

import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.schemas.OrderPair;
import dev.fieldprof.schemas.PairRule;
import dev.fieldprof.schemas.ProgramModel;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The program model a load run simulates when no model file is given: {@code methods} methods whose
 * true shares fall off as 1/(rank+1) (Zipf), with the order pairs F(m_{i+1}) ≤ F(m_i) that this
 * distribution satisfies, and the analyzer's default privacy configuration (ε = ln 9, t = 1, k =
 * 5·|V|), so the job's windows cost what they cost for an analyzed program of that size.
 */
final class SyntheticProgram {
    static final String CONFIG_ID = "default";

    private SyntheticProgram() {}

    static ProgramModel model(String appVersion, int methods) {
        if (methods < 2) {
            throw new IllegalArgumentException("--methods must be >= 2, got " + methods);
        }
        List<String> signatures = new ArrayList<>();
        List<OrderPair> pairs = new ArrayList<>();
        for (int id = 0; id < methods; id++) {
            // Zero-padded so that sorted order is id order (ProgramModels.build numbers by it).
            signatures.add(String.format("load.Synthetic.m%05d()V", id));
            if (id > 0) {
                pairs.add(
                        OrderPair.newBuilder()
                                .setLeft(id)
                                .setRight(id - 1)
                                .setRule(PairRule.OTHER)
                                .build());
            }
        }
        return ProgramModels.build(
                appVersion,
                Instant.now(),
                signatures,
                pairs,
                ProgramModels.privacyConfig(
                        CONFIG_ID, ProgramModels.DEFAULT_EPSILON, 1, null, methods),
                Map.of());
    }
}
