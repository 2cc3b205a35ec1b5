package dev.fieldprof.workloads;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.LongSupplier;

/**
 * A seeded random walk over a library's public constructors and methods with small random
 * arguments, feeding the objects calls return back in as receivers and arguments: the
 * random-testing stand-in for field use that drives the soundness check (static-analysis) and
 * simulates one device of the accuracy study (benchmarks).
 *
 * <p>A seed names one run: the API is sorted and returned objects are kept in insertion order, so
 * the same seed makes the same sequence of calls on the same classes (the values those calls
 * compute may still depend on identity hash codes). What would block, spawn threads, stop or
 * reconfigure the JVM is never called, and strings, collections and arrays larger than {@link
 * #MAX_SIZE} are not reused, so that a run stays bounded in time and heap.
 *
 * <p>A driver is immutable once built; each {@link #run} has its own state, but calls the library
 * on the calling thread, so runs of libraries with static state should not overlap.
 *
 * <pre>{@code
 * RandomApiDriver driver = new RandomApiDriver(loader, classNames, "com.google.gson");
 * RandomApiDriver.Run run = driver.run(seed, 400); // exactly 400 random calls
 * }</pre>
 */
public final class RandomApiDriver {

    /**
     * What one run did.
     *
     * @param calls calls chosen, including those skipped for want of a receiver or argument
     * @param vmError whether a VM or linkage error struck during the run (it can strike between a
     *     call and the callee's entry, so such a run's counts may break what analyses assume)
     */
    public record Run(int calls, boolean vmError) {}

    private static final String[] WORDS = {
        "",
        " ",
        "abc",
        "Hello World",
        "42",
        "-7.25",
        "x,y,,z",
        "\u00e4\u00f6\u00dc",
        "false",
        "null",
        "{\"k\":[1,2],\"v\":{\"w\":null}}",
        "[3,2,1]",
        "tab\there",
        "0xFF",
        "MiXeD",
        "2e5",
        "'q'",
        "p.q.r",
        "  pad  ",
        "Zz09Zz09"
    };

    /** Largest string, collection, map or array the driver keeps for reuse. */
    public static final int MAX_SIZE = 4096;

    private final List<Executable> candidates;
    private final List<Class<?>> classes;

    /**
     * Collects the public API of the named classes under {@code packagePrefix}, skipping what would
     * block, spawn threads or stop the JVM. Classes are loaded without initialization; those that
     * cannot be loaded or linked are left out.
     *
     * @param loader loads the library's classes
     * @param classNames the library's binary class names, in a fixed order (it fixes which class a
     *     seed picks where a {@code Class} argument is needed)
     * @param packagePrefix only classes whose names start with it are driven
     */
    public RandomApiDriver(ClassLoader loader, List<String> classNames, String packagePrefix) {
        List<Class<?>> found = new ArrayList<>();
        for (String name : classNames) {
            String lower = name.toLowerCase(Locale.ROOT);
            if (!name.startsWith(packagePrefix)
                    || lower.contains("concurrent")
                    || lower.contains("thread")
                    || lower.contains("timed")
                    // random(count, start, end, ...) loops forever when the range admits no
                    // character: a device must not hang on an input no program would pass.
                    || name.endsWith(".RandomStringUtils")) {
                continue;
            }
            try {
                Class<?> type = Class.forName(name, false, loader);
                if (Modifier.isPublic(type.getModifiers())) {
                    found.add(type);
                }
            } catch (Throwable e) {
                // a class that cannot even be loaded is not part of the usable API
            }
        }
        List<Executable> api = new ArrayList<>();
        for (Class<?> type : found) {
            try {
                if (!type.isInterface() && !Modifier.isAbstract(type.getModifiers())) {
                    api.addAll(List.of(type.getConstructors()));
                }
                for (Method method : type.getDeclaredMethods()) {
                    if (Modifier.isPublic(method.getModifiers()) && !risky(method.getName())) {
                        api.add(method);
                    }
                }
            } catch (Throwable e) {
                // linkage of a signature type failed: leave the class out
            }
        }
        // Reflection returns members in no fixed order; sorting makes a seed name one run.
        api.sort(Comparator.comparing(Executable::toGenericString));
        this.candidates = List.copyOf(api);
        this.classes = List.copyOf(found);
    }

    /** Public constructors and methods the driver chooses from. */
    public int apiSize() {
        return candidates.size();
    }

    /** Public classes whose API the driver chooses from. */
    public int classCount() {
        return classes.size();
    }

    /**
     * Whether a method of this name is never called: it may block, or stop or reconfigure the JVM.
     */
    static boolean risky(String methodName) {
        String lower = methodName.toLowerCase(Locale.ROOT);
        for (String word :
                new String[] {
                    "sleep",
                    "wait",
                    "join",
                    "exit",
                    "halt",
                    "interrupt",
                    "thread",
                    "getenv",
                    "setproperty",
                    "setdefault",
                    // StrBuilder.readFrom(its own asReader()) appends what it reads until the heap
                    // is gone: one such call would end the run in an OutOfMemoryError.
                    "readfrom"
                }) {
            if (lower.contains(word)) {
                return true;
            }
        }
        return lower.equals("main");
    }

    /** Makes exactly {@code calls} random calls (at least 0). */
    public Run run(long seed, int calls) {
        return run(seed, () -> 0L, 0, calls, calls);
    }

    /**
     * Makes random calls until at least {@code minCalls} were made and {@code events} reports at
     * least {@code targetEvents}, or {@code maxCalls} were made.
     *
     * @throws IllegalArgumentException unless 0 ≤ minCalls ≤ maxCalls
     * @throws IllegalStateException if no public API was found to drive
     */
    public Run run(long seed, LongSupplier events, long targetEvents, int minCalls, int maxCalls) {
        if (minCalls < 0 || maxCalls < minCalls) {
            throw new IllegalArgumentException(
                    "need 0 <= minCalls <= maxCalls, got " + minCalls + " and " + maxCalls);
        }
        if (candidates.isEmpty()) {
            throw new IllegalStateException("no public API to drive");
        }
        Session session = new Session(new Random(seed));
        int calls = 0;
        while (calls < maxCalls && (calls < minCalls || events.getAsLong() < targetEvents)) {
            session.call(candidates.get(session.random.nextInt(candidates.size())));
            calls++;
        }
        return new Run(calls, session.vmError);
    }

    /**
     * Whether a value is too big to reuse: a builder appended to itself doubles at every call, and
     * one such object would soon make every call on it, and the run's counts, grow without bound.
     */
    static boolean oversized(Object value) {
        if (value instanceof CharSequence text) {
            return text.length() > MAX_SIZE;
        }
        if (value instanceof java.util.Collection<?> collection) {
            return collection.size() > MAX_SIZE;
        }
        if (value instanceof Map<?, ?> map) {
            return map.size() > MAX_SIZE;
        }
        return value.getClass().isArray() && Array.getLength(value) > MAX_SIZE;
    }

    /** The state of one run: its generator and the objects calls returned so far. */
    private final class Session {
        final Random random;
        // Insertion order, not identity hashes, so that a seed replays the same run.
        final Map<Class<?>, List<Object>> pool = new LinkedHashMap<>();
        boolean vmError;

        Session(Random random) {
            this.random = random;
        }

        void call(Executable target) {
            try {
                Object[] args = arguments(target.getParameterTypes());
                if (args == null) {
                    return;
                }
                Object result;
                if (target instanceof Constructor<?> constructor) {
                    result = constructor.newInstance(args);
                } else {
                    Method method = (Method) target;
                    Object receiver = null;
                    if (!Modifier.isStatic(method.getModifiers())) {
                        receiver = pick(method.getDeclaringClass());
                        if (receiver == null) {
                            return;
                        }
                    }
                    result = method.invoke(receiver, args);
                    if (receiver != null && oversized(receiver)) {
                        forget(receiver);
                    }
                }
                remember(result);
            } catch (InvocationTargetException e) {
                note(e.getCause());
            } catch (Throwable e) {
                note(e);
            }
        }

        private void note(Throwable e) {
            // Library exceptions are ordinary outcomes of random inputs; VM and linkage errors
            // can strike between a call and the callee's entry, so a run that saw one is marked.
            for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
                if (t instanceof VirtualMachineError || t instanceof LinkageError) {
                    vmError = true;
                }
            }
        }

        private void remember(Object value) {
            if (value == null || oversized(value)) {
                return;
            }
            List<Object> objects = pool.computeIfAbsent(value.getClass(), c -> new ArrayList<>());
            if (objects.size() < 8) {
                objects.add(value);
            } else {
                objects.set(random.nextInt(objects.size()), value);
            }
        }

        private void forget(Object value) {
            List<Object> objects = pool.get(value.getClass());
            if (objects != null) {
                objects.removeIf(o -> o == value);
            }
        }

        private Object pick(Class<?> type) {
            List<Object> matches = new ArrayList<>();
            for (Map.Entry<Class<?>, List<Object>> entry : pool.entrySet()) {
                if (type.isAssignableFrom(entry.getKey())) {
                    matches.addAll(entry.getValue());
                }
            }
            return matches.isEmpty() ? null : matches.get(random.nextInt(matches.size()));
        }

        private Object[] arguments(Class<?>[] types) {
            Object[] values = new Object[types.length];
            for (int i = 0; i < types.length; i++) {
                Object[] cell = new Object[1];
                if (!value(types[i], cell, 0)) {
                    return null;
                }
                values[i] = cell[0];
            }
            return values;
        }

        private String word() {
            if (random.nextInt(4) == 0) {
                StringBuilder out = new StringBuilder();
                for (int i = random.nextInt(9); i > 0; i--) {
                    out.append("aZ09 ,.-_xY".charAt(random.nextInt(11)));
                }
                return out.toString();
            }
            return WORDS[random.nextInt(WORDS.length)];
        }

        private int small() {
            return random.nextInt(16) - 3;
        }

        /** Puts a random value of {@code type} in cell[0]; false if none can be made. */
        private boolean value(Class<?> type, Object[] cell, int depth) {
            if (type == int.class || type == Integer.class) {
                cell[0] = small();
            } else if (type == long.class || type == Long.class) {
                cell[0] = (long) small();
            } else if (type == short.class || type == Short.class) {
                cell[0] = (short) small();
            } else if (type == byte.class || type == Byte.class) {
                cell[0] = (byte) small();
            } else if (type == double.class || type == Double.class) {
                cell[0] = random.nextInt(5) == 0 ? Double.NaN : small() / 2.0;
            } else if (type == float.class || type == Float.class) {
                cell[0] = small() / 2.0f;
            } else if (type == boolean.class || type == Boolean.class) {
                cell[0] = random.nextBoolean();
            } else if (type == char.class || type == Character.class) {
                cell[0] = "aZ0 ,.\u00e9x".charAt(random.nextInt(8));
            } else if (type.isPrimitive()) {
                return false;
            } else if (random.nextInt(12) == 0) {
                cell[0] = null;
            } else if (type == String.class || type == CharSequence.class) {
                cell[0] = word();
            } else if (type == Object.class) {
                int choice = random.nextInt(4);
                Object existing = choice >= 2 ? pick(Object.class) : null;
                cell[0] = choice == 0 || existing == null ? word() : existing;
                if (choice == 1) {
                    cell[0] = small();
                }
            } else if (type == Number.class) {
                cell[0] = random.nextBoolean() ? (Object) small() : (Object) (small() / 3.0);
            } else if (type == Class.class) {
                Class<?>[] basics = {
                    String.class, Integer.class, Object.class, int.class, List.class
                };
                cell[0] =
                        random.nextBoolean()
                                ? basics[random.nextInt(basics.length)]
                                : classes.get(random.nextInt(classes.size()));
            } else if (type == Locale.class) {
                cell[0] = random.nextBoolean() ? Locale.ROOT : Locale.FRANCE;
            } else if (type == java.nio.charset.Charset.class) {
                cell[0] = StandardCharsets.UTF_8;
            } else if (type.isArray() && depth < 2) {
                int length = random.nextInt(5);
                Object array = Array.newInstance(type.getComponentType(), length);
                for (int i = 0; i < length; i++) {
                    Object[] element = new Object[1];
                    if (!value(type.getComponentType(), element, depth + 1)) {
                        return false;
                    }
                    if (element[0] != null || !type.getComponentType().isPrimitive()) {
                        Array.set(array, i, element[0]);
                    }
                }
                cell[0] = array;
            } else if (type == List.class
                    || type == java.util.Collection.class
                    || type == Iterable.class) {
                List<Object> list = new ArrayList<>();
                for (int i = random.nextInt(5); i > 0; i--) {
                    list.add(random.nextBoolean() ? word() : (Object) small());
                }
                cell[0] = list;
            } else if (type == java.util.Set.class) {
                cell[0] = new LinkedHashSet<>(List.of(word(), word()));
            } else if (type == Map.class) {
                Map<Object, Object> map = new HashMap<>();
                map.put(word(), small());
                cell[0] = map;
            } else {
                Object existing = pick(type);
                if (existing == null && !type.isInterface()) {
                    return false;
                }
                cell[0] = existing;
            }
            return true;
        }
    }
}
