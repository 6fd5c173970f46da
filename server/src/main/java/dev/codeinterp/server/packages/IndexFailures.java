package dev.codeinterp.server.packages;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a failed pip or npm run says, in one line a person can act on. An index or registry this
 * server cannot reach is named, with why (refused, no answer, a name that does not resolve, TLS)
 * and the setting that points elsewhere; any other failure is the tool's own error lines, without
 * its retry logs, tracebacks or object reprs.
 */
final class IndexFailures implements FetchTool.Diagnosis {
    /** pip logs each index page it could not read (at debug level, {@code -vv}): {@code Could not fetch URL <url>: <reason> - skipping}. */
    private static final Pattern PIP_NOT_FETCHED = Pattern.compile("(?m)^Could not fetch URL \\S+: (.*) - skipping$");
    private static final Pattern NPM_CODE = Pattern.compile("(?m)^npm (?:error|ERR!) code (\\S+)$");
    private static final int MAX_LINE = 300;

    private final String what;
    private final String url;
    private final String setting;
    private final boolean pip;

    private IndexFailures(String what, String url, String setting, boolean pip) {
        this.what = what;
        this.url = url;
        this.setting = setting;
        this.pip = pip;
    }

    static IndexFailures pip(String indexUrl) {
        return new IndexFailures("the Python package index", indexUrl, "CODEINTERP_PYTHON_INDEX_URL", true);
    }

    static IndexFailures npm(String registry) {
        return new IndexFailures("the npm registry", registry, "CODEINTERP_NPM_REGISTRY", false);
    }

    @Override
    public String failed(String tool, String stdout, String stderr) {
        String why = pip ? pipUnreachable(stdout) : npmUnreachable(stderr);
        if (why != null) {
            return unreachable(why);
        }
        return tool + " failed: " + (pip ? pipErrors(stderr) : npmErrors(stderr));
    }

    @Override
    public String timedOut(String tool, Duration bound) {
        return what + " " + url + " did not give the packages within CODEINTERP_PACKAGE_FETCH_TIMEOUT (" + bound.toSeconds()
                + " s), so " + tool + " was stopped; the operator can point " + setting + " at an index this server reaches faster";
    }

    private String unreachable(String why) {
        return what + " " + url + " cannot be reached from this server (" + why + "); the operator can point " + setting
                + " at one it reaches";
    }

    /** Why pip could not read the index, when that is why it failed: its first page that failed for the connection or a 5xx. */
    static String pipUnreachable(String debugLog) {
        Matcher m = PIP_NOT_FETCHED.matcher(debugLog);
        while (m.find()) {
            String reason = m.group(1);
            Matcher status = Pattern.compile("^(\\d{3}) ").matcher(reason);
            if (status.find()) {
                int code = Integer.parseInt(status.group(1));
                if (code >= 500 || code == 401 || code == 403 || code == 407) {
                    return "it answered HTTP " + code;
                }
                continue; // 404: the project is not on this index, which is not the index's fault
            }
            return connection(reason);
        }
        return null;
    }

    /** Why npm could not reach the registry, from its error code. */
    static String npmUnreachable(String stderr) {
        Matcher m = NPM_CODE.matcher(stderr);
        if (!m.find()) {
            return null;
        }
        String code = m.group(1);
        return switch (code) {
            case "ECONNREFUSED" -> "connection refused";
            case "ETIMEDOUT", "ESOCKETTIMEDOUT" -> "no answer in time";
            case "FETCH_ERROR" -> stderr.contains("network timeout") ? "no answer in time" : "the request failed";
            case "ENOTFOUND", "EAI_AGAIN" -> "its host name does not resolve";
            case "ECONNRESET", "EPIPE" -> "the connection was dropped";
            case "EHOSTUNREACH", "ENETUNREACH" -> "no route to it";
            case "E500", "E502", "E503", "E504", "E401", "E403", "E407" -> "it answered HTTP " + code.substring(1);
            default -> code.startsWith("CERT_") || code.contains("CERT") || code.startsWith("ERR_TLS") || code.startsWith("ERR_SSL")
                    ? "its TLS certificate was not accepted (" + code + ")" : null;
        };
    }

    private static String connection(String reason) {
        String r = reason.toLowerCase(Locale.ROOT);
        if (r.contains("connection refused")) {
            return "connection refused";
        }
        if (r.contains("timed out") || r.contains("timeout")) {
            return "no answer in time";
        }
        if (r.contains("name or service not known") || r.contains("temporary failure in name resolution")
                || r.contains("nodename nor servname") || r.contains("no address associated") || r.contains("getaddrinfo")) {
            return "its host name does not resolve";
        }
        if (r.contains("network is unreachable") || r.contains("no route to host")) {
            return "no route to it";
        }
        if (r.contains("ssl") || r.contains("certificate")) {
            return "TLS failed";
        }
        if (r.contains("proxy")) {
            return "the proxy did not let the request through";
        }
        if (r.contains("reset") || r.contains("aborted") || r.contains("remotedisconnected")) {
            return "the connection was dropped";
        }
        return "the connection failed";
    }

    /** pip's own {@code ERROR:} lines (the last two at most), without the prefix. */
    static String pipErrors(String stderr) {
        List<String> errors = new ArrayList<>();
        for (String line : stderr.split("\n")) {
            if (line.startsWith("ERROR: ")) {
                errors.add(line.substring(7).strip());
            }
        }
        return oneLine(errors.isEmpty() ? lastLines(stderr) : errors.subList(Math.max(0, errors.size() - 2), errors.size()));
    }

    /** npm's error lines that say something, without its codes, stack frames and log pointers. */
    static String npmErrors(String stderr) {
        List<String> said = new ArrayList<>();
        for (String line : stderr.split("\n")) {
            String l = line.replaceFirst("^npm (error|ERR!) ?", "");
            if (l.equals(line) || l.isBlank() || l.matches("(code|errno|syscall|path|type) .*") || l.startsWith(" ")
                    || l.startsWith("A complete log") || l.startsWith("{") || l.startsWith("}") || l.startsWith("network ")) {
                continue;
            }
            said.add(l.strip());
        }
        return oneLine(said.isEmpty() ? lastLines(stderr) : said.subList(0, Math.min(2, said.size())));
    }

    private static List<String> lastLines(String text) {
        List<String> lines = new ArrayList<>();
        for (String line : text.strip().split("\n")) {
            if (!line.isBlank()) {
                lines.add(line.strip());
            }
        }
        return lines.subList(Math.max(0, lines.size() - 2), lines.size());
    }

    private static String oneLine(List<String> lines) {
        String joined = String.join("; ", lines);
        if (joined.isEmpty()) {
            return "it gave no reason";
        }
        return joined.length() > MAX_LINE ? joined.substring(0, MAX_LINE) + "…" : joined;
    }
}
