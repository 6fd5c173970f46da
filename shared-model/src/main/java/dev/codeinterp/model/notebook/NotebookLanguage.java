package dev.codeinterp.model.notebook;

import dev.codeinterp.model.Language;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How a {@link Language} is named in a notebook's metadata ({@code kernelspec}, {@code language_info})
 * and which of ours a notebook's name means. The kernels named are the ones Jupyter users install for
 * these languages (ipykernel, IJavascript, bash_kernel), so JupyterLab offers the right one.
 */
final class NotebookLanguage {
    private NotebookLanguage() {
    }

    static Map<String, Object> kernelspec(Language language) {
        Map<String, Object> spec = new LinkedHashMap<>();
        switch (language) {
            case JAVASCRIPT:
                spec.put("name", "javascript");
                spec.put("display_name", "JavaScript (Node.js)");
                break;
            case BASH:
                spec.put("name", "bash");
                spec.put("display_name", "Bash");
                break;
            case PYTHON:
            default:
                spec.put("name", "python3");
                spec.put("display_name", "Python 3 (ipykernel)");
                break;
        }
        spec.put("language", language.wire());
        return spec;
    }

    static Map<String, Object> languageInfo(Language language) {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("name", language.wire());
        switch (language) {
            case JAVASCRIPT:
                info.put("file_extension", ".js");
                info.put("mimetype", "application/javascript");
                break;
            case BASH:
                info.put("file_extension", ".sh");
                info.put("mimetype", "text/x-sh");
                break;
            case PYTHON:
            default:
                info.put("file_extension", ".py");
                info.put("mimetype", "text/x-python");
                break;
        }
        return info;
    }

    /** Our language for a notebook's language or kernel name (python3, ipython, node, sh, …); null when it is none of ours. */
    static Language of(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        if (n.equals("python") || n.equals("python3") || n.equals("ipython") || n.equals("ipython3") || n.equals("pyodide")) {
            return Language.PYTHON;
        }
        if (n.equals("javascript") || n.equals("js") || n.equals("node") || n.equals("nodejs")) {
            return Language.JAVASCRIPT;
        }
        if (n.equals("bash") || n.equals("sh") || n.equals("shell")) {
            return Language.BASH;
        }
        return null;
    }
}
