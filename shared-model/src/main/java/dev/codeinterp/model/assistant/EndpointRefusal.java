package dev.codeinterp.model.assistant;

/** A model endpoint's non-200 answer in words for the person, the same in both modes. */
public final class EndpointRefusal {
    private EndpointRefusal() {
    }

    /** {@code settings} names what to check on a 404 (where the base URL and model are set). */
    public static AssistantException of(int status, String retryAfter, String body, String settings) {
        String detail = OpenAiWire.errorBody(body);
        String said = detail.isEmpty() ? "" : ": " + detail;
        switch (status) {
            case 401:
            case 403:
                return new AssistantException("The model endpoint refused the API key (HTTP " + status + ")" + said);
            case 404:
                return new AssistantException("The model endpoint answered 404: check " + settings + said);
            case 429: {
                String wait = retryAfter != null && retryAfter.matches("\\d{1,6}") ? " Try again in " + retryAfter + " s." : " Try again later.";
                return new AssistantException("The model endpoint is rate-limiting requests (HTTP 429)" + said + "." + wait);
            }
            default:
                return new AssistantException("The model endpoint answered HTTP " + status + said);
        }
    }
}
