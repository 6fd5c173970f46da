package dev.codeinterp.model.notebook;

import dev.codeinterp.model.AssistantStatus;
import dev.codeinterp.model.Event;
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
 * left out. An assistant turn becomes markdown cells: the prompt as "**You:** …", and the assistant's
 * words as they came, a new cell after each code cell it ran, so the notebook reads in the order it happened.
 */
public final class NotebookExport {
    public static final int NBFORMAT = 4;
    public static final int NBFORMAT_MINOR = 5;
    /** The MIME type notebooks are served and saved as. */
    public static final String MIME = "application/x-ipynb+json";

    private final Map<String, NotebookCellDraft> cells = new LinkedHashMap<>();
    /** Every cell, code ({@link NotebookCellDraft}) or markdown ({@link NotebookMarkdownDraft}), in the order it began. */
    private final List<Object> order = new ArrayList<>();
    /** Preferred ids of the cells in {@link #order}. */
    private final List<String> orderIds = new ArrayList<>();
    /** The answer cell each assistant turn is writing into, by the turn's execution id. */
    private final Map<String, NotebookMarkdownDraft> answers = new LinkedHashMap<>();
    /** How many answer cells each assistant turn has begun (they are named -answer, -answer-2, …). */
    private final Map<String, Integer> answerPieces = new LinkedHashMap<>();

    /**
     * The name a conversation's notebook is saved under: codeinterp-&lt;first 8 characters of its
     * id&gt;.ipynb, after the node hint a cluster's session ids start with ({@code n2.}), which every
     * conversation of a node shares.
     */
    public static String fileName(String conversationId) {
        String id = withoutNodeHint(conversationId);
        StringBuilder name = new StringBuilder("codeinterp-");
        for (int i = 0; i < id.length() && i < 8; i++) {
            char c = id.charAt(i);
            name.append(isCellId(String.valueOf(c)) ? c : '_');
        }
        return name.append(".ipynb").toString();
    }

    /** The id after a leading node hint ({@code n2.}: lower case, digits, dashes, then a dot), else the id as it is. */
    private static String withoutNodeHint(String id) {
        int dot = id.indexOf('.');
        if (dot < 1 || dot > 32) {
            return id;
        }
        for (int i = 0; i < dot; i++) {
            char c = id.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' && i > 0)) {
                return id;
            }
        }
        return id.substring(dot + 1);
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
                    NotebookCellDraft cell = new NotebookCellDraft((Event.Queued) e.event());
                    cells.put(e.executionId(), cell);
                    begin(e.executionId(), cell);
                }
                break;
            case UPDATE_DISPLAY_DATA: {
                // the display it replaces may be in an earlier cell, as in Jupyter: the latest one showing that id
                Event.UpdateDisplayData u = (Event.UpdateDisplayData) e.event();
                List<NotebookCellDraft> drafts = new ArrayList<>(cells.values());
                for (int i = drafts.size() - 1; i >= 0; i--) {
                    if (drafts.get(i).update(u)) {
                        break;
                    }
                }
                break;
            }
            case PROMPT:
                begin(e.executionId() + "-prompt",
                        new NotebookMarkdownDraft("user", "**You:** " + ((Event.Prompt) e.event()).text()));
                break;
            case ASSISTANT_TEXT:
                answer(e.executionId()).append(((Event.AssistantText) e.event()).text());
                break;
            case ASSISTANT_DONE: {
                Event.AssistantDone done = (Event.AssistantDone) e.event();
                if (done.status() != AssistantStatus.ANSWERED) {
                    NotebookMarkdownDraft answer = answer(e.executionId());
                    answer.append((answer.isBlank() ? "" : "\n\n") + "*The assistant stopped (" + done.status().wire() + ")"
                            + (done.message() == null || done.message().isBlank() ? "" : ": " + done.message()) + "*");
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

    private void begin(String preferredId, Object cell) {
        order.add(cell);
        orderIds.add(preferredId);
    }

    /** The assistant turn's answer cell to write into: a new one when another cell began since its last words. */
    private NotebookMarkdownDraft answer(String turnId) {
        NotebookMarkdownDraft answer = answers.get(turnId);
        if (answer == null || order.get(order.size() - 1) != answer) {
            int pieces = answerPieces.merge(turnId, 1, Integer::sum);
            answer = new NotebookMarkdownDraft("assistant", "");
            answers.put(turnId, answer);
            begin(turnId + "-answer" + (pieces == 1 ? "" : "-" + pieces), answer);
        }
        return answer;
    }

    /** How many code cells (executions) the notebook has. */
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
        for (int i = 0; i < order.size(); i++) {
            Object cell = order.get(i);
            if (cell instanceof NotebookMarkdownDraft text && text.isBlank()) {
                continue;
            }
            String id = cellId(orderIds.get(i), ids);
            ids.add(id);
            out.add(cell instanceof NotebookCellDraft code ? code.toCell(id) : ((NotebookMarkdownDraft) cell).toCell(id));
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
