package dev.codeinterp.model.assistant;

import dev.codeinterp.model.AssistantStatus;

/** When a turn ends, whoever runs its loop (the server, or local mode in the browser). */
public final class TurnRules {
    private TurnRules() {
    }

    /**
     * What the model's answer in round {@code round} (0 first) means: the turn ends with the status
     * returned, or, when null, its tool calls run and their results go back for another round.
     */
    public static AssistantStatus outcome(Completion answer, int round, int maxToolRounds) {
        if (answer.toolCalls().isEmpty()) {
            return answer.finishReason() == FinishReason.LENGTH ? AssistantStatus.LENGTH : AssistantStatus.ANSWERED;
        }
        return round >= maxToolRounds ? AssistantStatus.ROUNDS : null;
    }
}
