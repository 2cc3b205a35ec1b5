package dev.fieldprof.diff.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TerminalTextTest {

    @Test
    void removesCsiSequencesWhole() {
        assertThat(TerminalText.inert("<a.B: void \u001b[31;1mred\u001b[0m()>"))
                .isEqualTo("<a.B: void red()>");
        assertThat(TerminalText.inert("x\u001b[2J\u001b[Hy")).isEqualTo("xy");
        assertThat(TerminalText.inert("x\u009b2Ky")).isEqualTo("xy");
    }

    @Test
    void removesOscStringsWithTheirTerminator() {
        assertThat(TerminalText.inert("a\u001b]0;pwned\u0007b")).isEqualTo("ab");
        assertThat(TerminalText.inert("a\u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\b"))
                .isEqualTo("alinkb");
    }

    @Test
    void removesOtherControlsAndBidiFormatting() {
        assertThat(TerminalText.inert("a\rb\nc\td\u0000e\u007ff\u0085g\u001bch"))
                .isEqualTo("abcdefgh");
        assertThat(TerminalText.inert("admin\u202e\u2066txt.exe\u2069\u202a\u202b\u202c\u202d"))
                .isEqualTo("admintxt.exe");
    }

    @Test
    void keepsPrintableTextOfAnyScriptAndNull() {
        assertThat(TerminalText.inert("<ü.Ω: void 計算(int[])>")).isEqualTo("<ü.Ω: void 計算(int[])>");
        assertThat(TerminalText.inert(null)).isNull();
    }
}
