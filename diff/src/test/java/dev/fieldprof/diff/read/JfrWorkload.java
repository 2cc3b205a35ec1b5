package dev.fieldprof.diff.read;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * The child JVM's workload for {@link JfrReaderTest}: about a second and a half of CPU in two
 * recognizable methods, one reached through a lambda, allocating as it goes.
 */
public final class JfrWorkload {
    static volatile long sink;

    public static void main(String[] args) {
        long until = System.nanoTime() + 1_500_000_000L;
        IntUnaryOperator step = x -> hashRounds(x);
        int x = 1;
        while (System.nanoTime() < until) {
            x = step.applyAsInt(x);
            sink += allocate(x).size();
        }
    }

    static int hashRounds(int seed) {
        int h = seed;
        for (int i = 0; i < 200_000; i++) {
            h = h * 31 + (h >>> 7) + i;
        }
        return h;
    }

    static List<String> allocate(int seed) {
        List<String> list = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            list.add(Integer.toString(seed + i));
        }
        return list;
    }
}
