package dev.fieldprof.diff.normalize;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place where frame names are normalized, so that names the JVM or a code generator makes
 * up at run time cannot make two versions of a program differ: lambda and other hidden classes
 * ({@code Foo$$Lambda$733/0x0000000800c02a00}, {@code Foo$$Lambda.0x...}, {@code
 * LambdaForm$MH/0x...}), javac's numbered lambda bodies ({@code lambda$run$3}) and anonymous
 * classes ({@code Foo$2}), dynamic proxies ({@code jdk.proxy2.$Proxy12}), reflection accessors
 * ({@code GeneratedMethodAccessor34}), and the class-name suffixes of CGLIB, Spring, ByteBuddy,
 * Mockito and Hibernate. Annotations that async-profiler appends ({@code _[j]}, {@code _[i]},
 * {@code _[k]}, {@code _[0]}) are dropped. Stateless.
 */
public final class FrameNames {
    private record Rule(Pattern pattern, String replacement) {}

    private static final List<Rule> RULES =
            List.of(
                    // async-profiler's frame type annotations: _[j] jitted, _[i] inlined, ...
                    rule("_\\[[a-z0-9]\\]$", ""),
                    // Lambda proxies: Foo$$Lambda$733/0x..., Foo$$Lambda/0x..., Foo$$Lambda.0x...,
                    // Foo$$Lambda+0x..., Foo$$Lambda$733.
                    rule(
                            "\\$\\$Lambda(?:\\$\\d+)?(?:[/.+]0x[0-9a-fA-F]+)?(?:\\.\\d+)?",
                            "\\$\\$Lambda"),
                    // Any other hidden class: LambdaForm$MH/0x..., Species_L/0x...
                    rule("[/+.]0x[0-9a-fA-F]{6,}(?:\\.\\d+)?", ""),
                    // javac's lambda bodies: lambda$process$3 and lambda$static$0
                    rule("\\.lambda\\$([\\w$]*?)\\$\\d+$", ".lambda\\$$1"),
                    // Dynamic proxies: com.sun.proxy.$Proxy12, jdk.proxy2.$Proxy12
                    rule("(?:jdk\\.proxy\\d+|com\\.sun\\.proxy)\\.\\$Proxy\\d+", "\\$Proxy"),
                    rule("\\$Proxy\\d+", "\\$Proxy"),
                    // Reflection accessors generated per call site
                    rule(
                            "(?:jdk\\.internal|sun)\\.reflect\\.Generated(Serialization)?(Method|Constructor)Accessor\\d+",
                            "reflect.Generated$1$2Accessor"),
                    // CGLIB / Spring: Foo$$EnhancerByCGLIB$$1a2b3c, Foo$$SpringCGLIB$$0,
                    // Foo$$FastClassBySpringCGLIB$$abc
                    rule(
                            "\\$\\$(EnhancerByCGLIB|EnhancerBySpringCGLIB|FastClassByCGLIB|FastClassBySpringCGLIB|SpringCGLIB)\\$\\$[0-9a-zA-Z_]+",
                            "\\$\\$$1"),
                    // ByteBuddy, Mockito, Hibernate: Foo$ByteBuddy$abc123, Foo$MockitoMock$12345
                    rule(
                            "\\$(ByteBuddy|MockitoMock|HibernateProxy|\\$Accessor)\\$[0-9a-zA-Z_$]+?(?=\\.[^.]*$|$)",
                            "\\$$1"),
                    // Anonymous classes: Foo$2.run -> Foo$anon.run (numbers shift when code moves)
                    rule("\\$\\d+(?=[.$])", "\\$anon"),
                    // Synthetic accessors of nested classes before Java 11: access$000
                    rule("\\.access\\$\\d+$", ".access\\$"));

    private FrameNames() {}

    private static Rule rule(String regex, String replacement) {
        return new Rule(Pattern.compile(regex), replacement);
    }

    /** The normalized form of a frame name; names without generated parts come back unchanged. */
    public static String normalize(String frame) {
        String name = frame;
        for (Rule rule : RULES) {
            Matcher matcher = rule.pattern().matcher(name);
            if (matcher.find()) {
                name = matcher.replaceAll(rule.replacement());
            }
        }
        return name;
    }

    /** The class part of {@code package.Class.method}, or "" when there is no dot. */
    public static String className(String frame) {
        int dot = frame.lastIndexOf('.');
        return dot < 0 ? "" : frame.substring(0, dot);
    }

    /** The method part of {@code package.Class.method}. */
    public static String methodName(String frame) {
        return frame.substring(frame.lastIndexOf('.') + 1);
    }
}
