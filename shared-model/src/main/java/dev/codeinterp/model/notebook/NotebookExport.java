package dev.codeinterp.model.notebook;

import dev.codeinterp.model.Language;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.json.Json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A conversation as a Jupyter notebook (nbformat 4.5): one code cell per execution, in the order the
 * cells were queued, with its outputs, execution count and language. Built from the stored events
 * alone, so the server's endpoint and local mode (from its IndexedDB history) write the same file.
 * Feed it every event of the session in seq order; events of no cell (a restart while idle) are
 * left out.
 */
public final class NotebookExport {
    public static final int NBFORMAT = 4;
    public static final int NBFORMAT_MINOR = 5;
    /** The MIME type notebooks are served and saved as. */
    public static final String MIME = "application/x-ipynb+json";

    private final Map<String, NotebookCellDraft> cells = new LinkedHashMap<>();

    /** The name a conversation's notebook is saved under: codeinterp-&lt;first 8 characters of its id&gt;.ipynb. */
    public static String fileName(String conversationId) {
        StringBuilder name = new StringBuilder("codeinterp-");
        for (int i = 0; i < conversationId.length() && i < 8; i++) {
            char c = conversationId.charAt(i);
            name.append(isCellId(String.valueOf(c)) ? c : '_');
        }
        return name.append(".ipynb").toString();
    }

    /** The notebook of these events, as JSON text. */
    public static String of(List<SessionEvent> events) {
        NotebookExport export = new NotebookExport();
        for (SessionEvent e : events) {
            export.add(e);
        }
        return export.toJson();
    }

    public void add(SessionEvent e) {
        switch (e.event().type()) {
            case QUEUED:
                if (!cells.containsKey(e.executionId())) {
                    cells.put(e.executionId(), new NotebookCellDraft((dev.codeinterp.model.Event.Queued) e.event()));
                }
                break;
            case UPDATE_DISPLAY_DATA: {
                // the display it replaces may be in an earlier cell, as in Jupyter: the latest one showing that id
                dev.codeinterp.model.Event.UpdateDisplayData u = (dev.codeinterp.model.Event.UpdateDisplayData) e.event();
                List<NotebookCellDraft> drafts = new ArrayList<>(cells.values());
                for (int i = drafts.size() - 1; i >= 0; i--) {
                    if (drafts.get(i).update(u)) {
                        break;
                    }
                }
                break;
            }
            default: {
                NotebookCellDraft cell = cells.get(e.executionId());
                if (cell != null) {
                    cell.add(e.event());
                }
            }
        }
    }

    public int cellCount() {
        return cells.size();
    }

    public String toJson() {
        return Json.write(notebook());
    }

    /** The notebook as JSON values (maps, lists, strings, numbers). */
    public Map<String, Object> notebook() {
        Language language = mainLanguage();
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("kernelspec", NotebookLanguage.kernelspec(language));
        metadata.put("language_info", NotebookLanguage.languageInfo(language));
        List<Object> out = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (Map.Entry<String, NotebookCellDraft> cell : cells.entrySet()) {
            String id = cellId(cell.getKey(), ids);
            ids.add(id);
            out.add(cell.getValue().toCell(id));
        }
        Map<String, Object> notebook = new LinkedHashMap<>();
        notebook.put("nbformat", (long) NBFORMAT);
        notebook.put("nbformat_minor", (long) NBFORMAT_MINOR);
        notebook.put("metadata", metadata);
        notebook.put("cells", out);
        return notebook;
    }

    /** The language most cells are in (the first one's on a tie); Python for an empty conversation. */
    private Language mainLanguage() {
        Map<Language, Integer> counts = new LinkedHashMap<>();
        for (NotebookCellDraft cell : cells.values()) {
            counts.merge(cell.language(), 1, Integer::sum);
        }
        Language best = Language.PYTHON;
        int most = 0;
        for (Map.Entry<Language, Integer> count : counts.entrySet()) {
            if (count.getValue() > most) {
                best = count.getKey();
                most = count.getValue();
            }
        }
        return best;
    }

    /** nbformat 4.5 wants 1-64 characters of [A-Za-z0-9_-], unique: the execution id when it is that, else cell-N. */
    private static String cellId(String executionId, List<String> taken) {
        if (isCellId(executionId) && !taken.contains(executionId)) {
            return executionId;
        }
        String id = "cell-" + (taken.size() + 1);
        while (taken.contains(id)) {
            id = id + "-";
        }
        return id;
    }

    static boolean isCellId(String s) {
        if (s.isEmpty() || s.length() > 64) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
