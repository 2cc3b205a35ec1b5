#!/usr/bin/env bash
# The accuracy study on instrumented real programs, end to end: record exact
# per-device counts (AccuracyRuns), then 'fieldprof evaluate --model M --runs R.csv' per program,
# once with the analysed pairs and once with none (the simplex-only projection, same seed).
# Run from the repository root after building the benchmarks class path (benchmarks/README.md);
# the evaluate steps run through the ./fieldprof launcher (3 GB heap by default).
# Environment: DEVICES (1000), REPETITIONS (3), SEED (20261122), OUT (benchmarks/target/accuracy),
# PROGRAMS (lang3,gson,codec,demo), RECORD (1; 0 reuses the recorded runs in OUT), MODES (1: also
# compare the two privacy modes at equal per-report user-level epsilon), CENTRAL (0; 1: also the
# three privacy modes at equal central epsilon, CentralModes, 10,000 and 100,000 devices: about an
# hour on 2 busy cores, most of it the devices' HPKE sealing).
set -euo pipefail

devices=${DEVICES:-1000}
repetitions=${REPETITIONS:-3}
seed=${SEED:-20261122}
out=${OUT:-benchmarks/target/accuracy}
programs=${PROGRAMS:-lang3,gson,codec,demo}
cp="benchmarks/target/classes:$(cat benchmarks/target/cp.txt)"
mkdir -p "$out"

if [ "${RECORD:-1}" = 1 ]; then
  java -Xmx2g -cp "$cp" dev.fieldprof.benchmarks.accuracy.AccuracyRuns \
    --devices "$devices" --seed "$seed" --out "$out" --programs "$programs" | tee "$out/record.txt"
fi

declare -A stem=([lang3]=commons-lang3 [gson]=gson [codec]=commons-codec [demo]=notes)
combined="$out/accuracy.csv"
rm -f "$combined"
for p in ${programs//,/ }; do
  s=${stem[$p]}
  for variant in pairs none; do
    model="$out/$s.model"
    [ "$variant" = none ] && model="$out/$s-nopairs.model"
    echo "== $s, constraints: $variant"
    ./fieldprof evaluate \
      --model "$model" --runs "$out/$s-runs.csv" --devices "$devices" \
      --repetitions "$repetitions" --seed 1 \
      --csv "$out/$s-$variant.csv" --png "$out/$s-$variant.png"
    # One CSV for all programs, with a column naming the constraint set.
    if [ ! -f "$combined" ]; then
      head -1 "$out/$s-$variant.csv" | sed 's/^/constraints,/' > "$combined"
    fi
    tail -n +2 "$out/$s-$variant.csv" | sed "s/^/$variant,/" >> "$combined"
  done
done | tee "$out/study.txt"
echo "wrote $combined and $out/*-pairs.png, $out/*-none.png"

# Both privacy modes at equal per-report user-level epsilon, same devices.
if [ "${MODES:-1}" = 1 ]; then
  for p in ${programs//,/ }; do
    s=${stem[$p]}
    ./fieldprof evaluate \
      --model "$out/$s.model" --runs "$out/$s-runs.csv" --devices "$devices" \
      --repetitions "$repetitions" --seed 1 --compare-modes
  done | tee "$out/modes.txt"
  # The privacy planner's predictions against the real randomizer and estimator.
  for p in ${programs//,/ }; do
    s=${stem[$p]}
    ./fieldprof evaluate \
      --model "$out/$s.model" --runs "$out/$s-runs.csv" --devices "$devices" \
      --repetitions "$repetitions" --seed 1 --check-plan
  done | tee "$out/plan-check.txt"
fi

# The three privacy modes at equal central epsilon, the shuffled one through the ShufflerJob.
if [ "${CENTRAL:-0}" = 1 ]; then
  java -Xmx3g -cp "$cp" dev.fieldprof.benchmarks.accuracy.CentralModes \
    --dir "$out" --programs notes,commons-codec,gson,commons-lang3 \
    --devices "${CENTRAL_DEVICES:-10000,100000}" --epsilons 1,ln3,ln9 --delta 1e-6 --seed 1 \
    2> "$out/central.log" | tee "$out/central.txt"
fi
