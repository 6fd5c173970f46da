package dev.codeinterp.web.embed;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.embed.EmbedMessage;

/** What the host hears live of a cell's events ({@code id}: the run's request id, or null for a cell typed in the widget). */
final class HostEvents {
    private HostEvents() {
    }

    /** The live message for {@code event}, or null for events the host does not hear one by one. */
    static EmbedMessage.FromWidget of(Event event, String id) {
        switch (event.type()) {
            case STREAM: {
                Event.Stream s = (Event.Stream) event;
                return new EmbedMessage.Stream(id, s.name().wire(), s.text());
            }
            case DISPLAY_DATA:
                return new EmbedMessage.Display(id, ((Event.DisplayData) event).data());
            case EXECUTE_RESULT:
                return new EmbedMessage.Display(id, ((Event.ExecuteResult) event).data());
            case ARTIFACT: {
                Event.Artifact a = (Event.Artifact) event;
                return new EmbedMessage.FileWritten(id, a.name(), a.size(), a.mime());
            }
            case INPUT_REQUEST: { // the widget shows the input box; the host may point its visitor to it
                Event.InputRequest r = (Event.InputRequest) event;
                return new EmbedMessage.InputRequest(id, r.prompt(), r.password());
            }
            case FINISHED:
                return new EmbedMessage.Finished(id, ((Event.Finished) event).status().wire());
            default:
                return null;
        }
    }
}
