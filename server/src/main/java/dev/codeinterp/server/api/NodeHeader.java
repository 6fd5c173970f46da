package dev.codeinterp.server.api;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;

import java.io.IOException;
import java.util.EnumSet;

/**
 * {@code X-CodeInterp-Node} on every answer (API, MCP, static files, refusals): which node of a
 * cluster answered, for whoever debugs routing through the front door. Installed first, so even a
 * refusal by a later filter carries it.
 */
final class NodeHeader extends HttpFilter {
    static final String NAME = "X-CodeInterp-Node";
    private final String node;

    NodeHeader(String node) {
        this.node = node;
    }

    void install(ServletContextHandler context) {
        FilterHolder holder = new FilterHolder(this);
        holder.setAsyncSupported(true);
        context.addFilter(holder, "/*", EnumSet.of(DispatcherType.REQUEST));
    }

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain) throws IOException, ServletException {
        res.setHeader(NAME, node);
        chain.doFilter(req, res);
    }
}
