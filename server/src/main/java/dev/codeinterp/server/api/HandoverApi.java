package dev.codeinterp.server.api;

import dev.codeinterp.server.cluster.SessionHandover;
import io.javalin.http.Context;

import java.io.IOException;

/**
 * {@code PUT /internal/v1/sessions/{id}}: another node of the cluster hands this one a suspended
 * session (it is being drained). Only a node can: the request carries its proof, checked before a
 * byte is written (see {@link SessionHandover}).
 */
final class HandoverApi {
    private final SessionHandover handover;

    HandoverApi(SessionHandover handover) {
        this.handover = handover;
    }

    void arrive(Context ctx) throws IOException {
        var outcome = handover.receive(ctx.pathParam("id"), ctx.header(SessionHandover.FROM), ctx.header(SessionHandover.PROOF),
                "true".equals(ctx.header(SessionHandover.WAS_RUNNING)), ctx.req().getInputStream());
        switch (outcome) {
            case TAKEN -> ctx.status(204);
            case NOT_A_NODE -> ApiErrors.respond(ctx, 403, "only a node of this cluster may hand a session over");
            case NOT_ITS_TO_GIVE -> ApiErrors.respond(ctx, 409, "this session is not the sender's to give");
        }
    }
}
