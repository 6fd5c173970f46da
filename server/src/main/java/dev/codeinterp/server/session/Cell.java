package dev.codeinterp.server.session;

import dev.codeinterp.model.Language;
import dev.codeinterp.model.runner.CellInput;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One cell as a session takes it: its code, language, packages, timeout and how its {@code input()}
 * reads. Every way in (REST, WebSocket and so the embed widget, MCP, the assistant) maps its wire shape
 * to a {@link Builder} from {@link CellLimits#cell}; {@link Builder#build()} is the one place a cell is
 * checked (code size, language, timeout), so a cell that exists is one the server accepts.
 */
public final class Cell {
    private final String code;
    private final Language language;
    private final List<String> packages;
    private final Duration timeout;
    private final CellInput input;

    private Cell(String code, Language language, List<String> packages, Duration timeout, CellInput input) {
        this.code = code;
        this.language = language;
        this.packages = packages;
        this.timeout = timeout;
        this.input = input;
    }

    public String code() {
        return code;
    }

    public Language language() {
        return language;
    }

    /** Names to install before the code runs (the session checks them against its allowlist); never null. */
    public List<String> packages() {
        return packages;
    }

    /** Asked, bounded by the maximum, or the default. */
    public Duration timeout() {
        return timeout;
    }

    public CellInput input() {
        return input;
    }

    @Override
    public String toString() {
        return "Cell[" + language.wire() + ", " + code.length() + " chars, " + packages.size() + " packages, timeout "
                + timeout + "]";
    }

    /** What a request asked for, as it came; {@link #build()} checks it. Unset parts take their defaults. */
    public static final class Builder {
        private final CellLimits limits;
        private final String code;
        private String languageName;
        private Language language;
        private List<String> packages = List.of();
        private Double timeoutSeconds;
        private CellInput input = CellInput.NONE;

        Builder(CellLimits limits, String code) {
            this.limits = limits;
            this.code = code;
        }

        /** A language by its wire name; null means Python. */
        public Builder language(String wireName) {
            this.languageName = wireName;
            this.language = null;
            return this;
        }

        /** A language already read (the assistant's tool call reads its own). */
        public Builder language(Language language) {
            this.language = language;
            this.languageName = null;
            return this;
        }

        /** Null means none. */
        public Builder packages(List<String> names) {
            this.packages = names == null ? List.of() : List.copyOf(names);
            return this;
        }

        /** Null means the default. */
        public Builder timeoutSeconds(Double seconds) {
            this.timeoutSeconds = seconds;
            return this;
        }

        public Builder input(CellInput input) {
            this.input = Objects.requireNonNull(input, "input");
            return this;
        }

        /** The cell; a {@link CellRefusedException} naming the first thing wrong, and nothing runs. */
        public Cell build() {
            if (code == null) {
                throw new CellRefusedException("'code' is required");
            }
            Language parsed;
            try {
                parsed = language != null ? language : Language.fromWire(languageName);
            } catch (IllegalArgumentException e) {
                throw new CellRefusedException(e.getMessage());
            }
            limits.checkSize("code", code);
            if (input.stdin() != null) {
                limits.checkSize("stdin", input.stdin());
            }
            return new Cell(code, parsed, packages, limits.timeout(timeoutSeconds), input);
        }
    }
}
