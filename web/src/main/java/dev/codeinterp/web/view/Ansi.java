package dev.codeinterp.web.view;

import org.teavm.jso.dom.html.HTMLElement;

/** Renders text with ANSI SGR colour codes as styled spans; other escapes are dropped, never shown raw. */
public final class Ansi {
    private Ansi() {
    }

    static void render(String text, HTMLElement into) {
        String colour = null;
        boolean bold = false;
        StringBuilder run = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == 0x1b && i + 1 < text.length() && text.charAt(i + 1) == '[') {
                int end = i + 2;
                while (end < text.length() && (Character.isDigit(text.charAt(end)) || text.charAt(end) == ';')) {
                    end++;
                }
                if (end >= text.length()) {
                    break;
                }
                flush(run, colour, bold, into);
                if (text.charAt(end) == 'm') {
                    String[] codes = text.substring(i + 2, end).split(";");
                    for (String code : codes) {
                        int n = code.isEmpty() ? 0 : parse(code);
                        if (n == 0) {
                            colour = null;
                            bold = false;
                        } else if (n == 1) {
                            bold = true;
                        } else if (n == 22) {
                            bold = false;
                        } else if ((n >= 30 && n <= 37) || (n >= 90 && n <= 97)) {
                            colour = "ansi-" + (n % 10) + (n >= 90 ? " ansi-bright" : "");
                        } else if (n == 39) {
                            colour = null;
                        }
                    }
                }
                i = end + 1;
            } else {
                run.append(c);
                i++;
            }
        }
        flush(run, colour, bold, into);
    }

    private static int parse(String code) {
        try {
            return Integer.parseInt(code);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static void flush(StringBuilder run, String colour, boolean bold, HTMLElement into) {
        if (run.length() == 0) {
            return;
        }
        if (colour == null && !bold) {
            into.appendChild(Dom.document().createTextNode(run.toString()));
        } else {
            into.appendChild(Dom.text("span", (colour == null ? "" : colour) + (bold ? " ansi-bold" : ""), run.toString()));
        }
        run.setLength(0);
    }
}
