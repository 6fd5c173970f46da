package dev.codeinterp.web.view;

import org.teavm.jso.dom.html.HTMLElement;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/** A small Python tokenizer for colouring code: keywords, builtins, strings, numbers, comments. */
public final class PythonHighlighter {
    private static final Set<String> KEYWORDS = new HashSet<>(Arrays.asList("False", "None", "True", "and", "as", "assert",
            "async", "await", "break", "class", "continue", "def", "del", "elif", "else", "except", "finally", "for", "from",
            "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
            "while", "with", "yield", "match", "case"));
    private static final Set<String> BUILTINS = new HashSet<>(Arrays.asList("print", "len", "range", "display", "list",
            "dict", "set", "tuple", "int", "float", "str", "bool", "open", "sum", "min", "max", "abs", "sorted", "enumerate",
            "zip", "map", "filter", "type", "isinstance", "super", "self"));

    private PythonHighlighter() {
    }

    static void render(String code, HTMLElement into) {
        int i = 0;
        int n = code.length();
        StringBuilder plain = new StringBuilder();
        while (i < n) {
            char c = code.charAt(i);
            int end;
            String cls;
            if (c == '#') {
                end = code.indexOf('\n', i);
                end = end < 0 ? n : end;
                cls = "tok-comment";
            } else if (c == '"' || c == '\'') {
                end = stringEnd(code, i);
                cls = "tok-string";
            } else if (Character.isDigit(c)) {
                end = i;
                while (end < n && (Character.isLetterOrDigit(code.charAt(end)) || code.charAt(end) == '.' || code.charAt(end) == '_')) {
                    end++;
                }
                cls = "tok-number";
            } else if (Character.isLetter(c) || c == '_') {
                end = i;
                while (end < n && (Character.isLetterOrDigit(code.charAt(end)) || code.charAt(end) == '_')) {
                    end++;
                }
                String word = code.substring(i, end);
                cls = KEYWORDS.contains(word) ? "tok-keyword" : BUILTINS.contains(word) ? "tok-builtin" : null;
            } else {
                plain.append(c);
                i++;
                continue;
            }
            if (cls == null) {
                plain.append(code, i, end);
            } else {
                flush(plain, into);
                into.appendChild(Dom.text("span", cls, code.substring(i, end)));
            }
            i = end;
        }
        flush(plain, into);
    }

    private static int stringEnd(String code, int start) {
        char q = code.charAt(start);
        boolean triple = code.startsWith(String.valueOf(q).repeat(3), start);
        int i = start + (triple ? 3 : 1);
        while (i < code.length()) {
            char c = code.charAt(i);
            if (c == '\\') {
                i += 2;
                continue;
            }
            if (triple ? code.startsWith(String.valueOf(q).repeat(3), i) : c == q) {
                return i + (triple ? 3 : 1);
            }
            if (!triple && c == '\n') {
                return i;
            }
            i++;
        }
        return code.length();
    }

    private static void flush(StringBuilder plain, HTMLElement into) {
        if (plain.length() > 0) {
            into.appendChild(Dom.document().createTextNode(plain.toString()));
            plain.setLength(0);
        }
    }
}
