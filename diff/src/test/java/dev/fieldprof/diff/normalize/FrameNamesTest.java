package dev.fieldprof.diff.normalize;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FrameNamesTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "com.acme.Foo$$Lambda$733/0x0000000800c02a00.apply | com.acme.Foo$$Lambda.apply",
                "com.acme.Foo$$Lambda$733.0x0000000800c02a00.apply | com.acme.Foo$$Lambda.apply",
                "com.acme.Foo$$Lambda.0x000001f2c3004a18.apply | com.acme.Foo$$Lambda.apply",
                "com.acme.Foo$$Lambda/0x000001f2c3004a18.apply | com.acme.Foo$$Lambda.apply",
                "com.acme.Foo$$Lambda+0x000001f2c3004a18.apply | com.acme.Foo$$Lambda.apply",
                "com.acme.Foo$$Lambda$12.apply | com.acme.Foo$$Lambda.apply",
                "java.lang.invoke.LambdaForm$MH/0x0000000800c0d000.invoke |"
                        + " java.lang.invoke.LambdaForm$MH.invoke",
                "com.acme.Foo.lambda$process$3 | com.acme.Foo.lambda$process",
                "com.acme.Foo.lambda$static$0 | com.acme.Foo.lambda$static",
                "jdk.proxy2.$Proxy12.handle | $Proxy.handle",
                "com.sun.proxy.$Proxy7.handle | $Proxy.handle",
                "jdk.internal.reflect.GeneratedMethodAccessor34.invoke |"
                        + " reflect.GeneratedMethodAccessor.invoke",
                "sun.reflect.GeneratedConstructorAccessor5.newInstance |"
                        + " reflect.GeneratedConstructorAccessor.newInstance",
                "com.acme.Service$$EnhancerByCGLIB$$a1b2c3d4.save |"
                        + " com.acme.Service$$EnhancerByCGLIB.save",
                "com.acme.Service$$SpringCGLIB$$0.save | com.acme.Service$$SpringCGLIB.save",
                "com.acme.Service$$FastClassBySpringCGLIB$$9f8e.invoke |"
                        + " com.acme.Service$$FastClassBySpringCGLIB.invoke",
                "com.acme.Service$ByteBuddy$x7Yz12.save | com.acme.Service$ByteBuddy.save",
                "com.acme.Service$MockitoMock$1234567.save | com.acme.Service$MockitoMock.save",
                "com.acme.Foo$2.run | com.acme.Foo$anon.run",
                "com.acme.Foo$2$1.run | com.acme.Foo$anon$anon.run",
                "com.acme.Foo.access$000 | com.acme.Foo.access$",
                "java.util.HashMap.get_[j] | java.util.HashMap.get",
                "java.util.HashMap.hash_[i] | java.util.HashMap.hash",
                "com.acme.Foo$Inner.run | com.acme.Foo$Inner.run",
                "java.util.HashMap.get | java.util.HashMap.get",
            })
    void normalizesGeneratedNames(String frame, String expected) {
        assertThat(FrameNames.normalize(frame)).isEqualTo(expected);
    }
}
