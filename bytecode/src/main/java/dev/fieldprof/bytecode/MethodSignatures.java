package dev.fieldprof.bytecode;

import org.objectweb.asm.Type;

/**
 * The one place that maps a method as bytecode names it (internal class name, method name,
 * descriptor) to the Soot signature that identifies it in a ProgramModel, e.g. {@code
 * <com.example.Foo: int bar(java.lang.String,int[])>}.
 */
public final class MethodSignatures {

    private MethodSignatures() {}

    /** Soot signature of a method given its owner's internal name and its JVM descriptor. */
    public static String sootSignature(String internalOwner, String name, String descriptor) {
        Type method = Type.getMethodType(descriptor);
        StringBuilder out = new StringBuilder(64);
        out.append('<').append(internalOwner.replace('/', '.')).append(": ");
        out.append(javaTypeName(method.getReturnType())).append(' ').append(name).append('(');
        Type[] arguments = method.getArgumentTypes();
        for (int i = 0; i < arguments.length; i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(javaTypeName(arguments[i]));
        }
        return out.append(")>").toString();
    }

    /** Java source-like type name as Soot prints it: {@code int}, {@code java.lang.String[]}. */
    public static String javaTypeName(Type type) {
        // Type.getClassName keeps '$' of nested classes and appends "[]" per dimension, as Soot
        // does.
        return type.getClassName();
    }

    /** The class part of a Soot signature: {@code com.example.Foo}. */
    public static String declaringClass(String sootSignature) {
        int colon = sootSignature.indexOf(':');
        if (!sootSignature.startsWith("<") || colon < 0) {
            throw new IllegalArgumentException("not a Soot method signature: " + sootSignature);
        }
        return sootSignature.substring(1, colon);
    }

    /** The method name part of a Soot signature: {@code bar}. */
    public static String methodName(String sootSignature) {
        int open = sootSignature.indexOf('(');
        int space = sootSignature.lastIndexOf(' ', open);
        if (open < 0 || space < 0) {
            throw new IllegalArgumentException("not a Soot method signature: " + sootSignature);
        }
        return sootSignature.substring(space + 1, open);
    }

    /** Class name of a class file entry ({@code a/b/C.class}), or null if it is not one. */
    public static String internalNameOfEntry(String entryName) {
        if (!entryName.endsWith(".class")) {
            return null;
        }
        String name = entryName;
        if (name.startsWith("META-INF/versions/")) {
            // Multi-release jar: META-INF/versions/N/a/b/C.class holds another version of a/b/C.
            int slash = name.indexOf('/', "META-INF/versions/".length());
            if (slash < 0) {
                return null;
            }
            name = name.substring(slash + 1);
        }
        if (name.startsWith("META-INF/")
                || name.endsWith("module-info.class")
                || name.endsWith("package-info.class")) {
            return null;
        }
        return name.substring(0, name.length() - ".class".length());
    }
}
