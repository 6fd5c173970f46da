package dev.codeinterp.web.view;

import dev.codeinterp.model.json.Json;
import org.teavm.jso.dom.html.HTMLElement;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An {@code application/json} output as a collapsible tree: objects and arrays are
 * {@code <details>} (the first two levels open), keys and values are text nodes, so strings that
 * look like HTML stay strings. Past {@link #MAX_NODES} values the rest is summarised.
 */
final class JsonTreeView {
    static final int MAX_NODES = 5000;
    private static final int OPEN_LEVELS = 2;

    private record Child(String key, Object value) {
    }

    private int shown;

    private JsonTreeView() {
    }

    static HTMLElement render(Object value) {
        HTMLElement root = Dom.el("div", "json-tree");
        root.setAttribute("data-testid", "json-tree");
        root.appendChild(new JsonTreeView().node(null, value, 0));
        return root;
    }

    private HTMLElement node(String key, Object value, int depth) {
        shown++;
        if (value instanceof Map<?, ?> map) {
            return branch(key, "{", "}", map.size() + (map.size() == 1 ? " key" : " keys"), map.entrySet().stream()
                    .map(e -> new Child(String.valueOf(e.getKey()), e.getValue())).toList(), depth);
        }
        if (value instanceof List<?> list) {
            List<Child> items = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                items.add(new Child(String.valueOf(i), list.get(i)));
            }
            return branch(key, "[", "]", list.size() + (list.size() == 1 ? " item" : " items"), items, depth);
        }
        HTMLElement leaf = Dom.el("div", "json-leaf");
        label(leaf, key);
        leaf.appendChild(Dom.text("span", "json-" + kind(value), Json.write(value)));
        return leaf;
    }

    private HTMLElement branch(String key, String open, String close, String size, List<Child> children, int depth) {
        HTMLElement details = Dom.el("details", "json-branch");
        if (depth < OPEN_LEVELS) {
            details.setAttribute("open", "");
        }
        HTMLElement summary = Dom.el("summary", null);
        label(summary, key);
        summary.appendChild(Dom.text("span", "json-punct", open));
        summary.appendChild(Dom.text("span", "json-size", size));
        details.appendChild(summary);
        HTMLElement body = Dom.el("div", "json-children");
        for (Child child : children) {
            if (shown >= MAX_NODES) {
                body.appendChild(Dom.text("div", "json-more", "… (more values not shown)"));
                break;
            }
            body.appendChild(node(child.key(), child.value(), depth + 1));
        }
        details.appendChild(body);
        details.appendChild(Dom.text("span", "json-punct", close));
        return details;
    }

    private static void label(HTMLElement into, String key) {
        if (key != null) {
            into.appendChild(Dom.text("span", "json-key", key));
            into.appendChild(Dom.text("span", "json-punct", ": "));
        }
    }

    private static String kind(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String) {
            return "string";
        }
        return value instanceof Boolean ? "boolean" : "number";
    }
}
