package dev.fieldprof.analysis.soot;

import java.util.Arrays;
import soot.Body;
import soot.Local;
import soot.Unit;
import soot.ValueBox;
import soot.jimple.DefinitionStmt;

/**
 * How many definitions each Local of a body has, all of them and those that are {@code @this} or an
 * allocation, counted in one pass. The counts decide most receivers without reaching definitions: a
 * Local defined once holds that value wherever it is used. One instance serves body after body.
 */
final class DefinitionCounts {

    private final IdentityNumbers localNumbers = new IdentityNumbers();
    private int[] definitionCounts = new int[16];
    private int[] sureDefinitionCounts = new int[16];

    /**
     * Counts the definitions of the numbered body's Locals, forgetting the previous body's, and
     * returns whether {@code thisLocal} (null in a static method) is assigned anywhere but by its
     * identity statement.
     */
    boolean count(Body body, StatementNumbering statements, Local thisLocal) {
        localNumbers.reset(body.getLocalCount());
        int locals = 0;
        boolean thisRedefined = false;
        int n = statements.size();
        for (int i = 0; i < n; i++) {
            Unit unit = statements.unit(i);
            if (unit instanceof DefinitionStmt definition) {
                if (definition.getLeftOp() instanceof Local local) {
                    boolean identityThis = NonNullDefinitions.isIdentityThis(definition);
                    locals =
                            countDefinition(
                                    local,
                                    identityThis || NonNullDefinitions.isAllocation(definition),
                                    locals);
                    thisRedefined |= local == thisLocal && !identityThis;
                }
            } else {
                for (ValueBox box : unit.getDefBoxes()) {
                    if (box.getValue() instanceof Local local) {
                        locals = countDefinition(local, false, locals);
                        thisRedefined |= local == thisLocal;
                    }
                }
            }
        }
        return thisRedefined;
    }

    /** The number of {@code local} among the Locals defined in the body last counted, or -1. */
    int numberOf(Local local) {
        return localNumbers.get(local);
    }

    /** The number of definitions of the Local numbered {@code number} (0 for -1). */
    int definitions(int number) {
        return number < 0 ? 0 : definitionCounts[number];
    }

    /** The number of its definitions that are {@code @this} or an allocation (0 for -1). */
    int sureDefinitions(int number) {
        return number < 0 ? 0 : sureDefinitionCounts[number];
    }

    private int countDefinition(Local local, boolean thisOrAllocation, int locals) {
        int number = localNumbers.get(local);
        if (number < 0) {
            number = locals++;
            localNumbers.put(local, number);
            if (definitionCounts.length <= number) {
                definitionCounts = Arrays.copyOf(definitionCounts, 2 * number + 2);
                sureDefinitionCounts = Arrays.copyOf(sureDefinitionCounts, 2 * number + 2);
            }
            definitionCounts[number] = 0;
            sureDefinitionCounts[number] = 0;
        }
        definitionCounts[number]++;
        if (thisOrAllocation) {
            sureDefinitionCounts[number]++;
        }
        return locals;
    }
}
