package dev.tether.server.internal;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The API's routes as one table: each {@link Route} row is a method, a path template, who may call
 * it and its handler, and its template is its metric name. Dispatch ({@link TetherHandler}),
 * authorization ({@link #permits}) and metrics ({@link RouteNames}) all read it, so a route added
 * here is dispatched, authorized and metered at once.
 *
 * <p>Design: the templates are held as a tree of path segments (a literal child per name, at most
 * one {@code {param}} child per node), so a request is matched by one walk over its segments with
 * no regular expression. A parameter never matches an empty segment. A {@link Lookup} tells the
 * rows at the path (one per method) or, on a miss, the deepest node reached, which is what a
 * caller's scope is judged by. Immutable once built; thread-safe.
 */
final class RouteTable {
  /** Who presents the request. */
  enum Caller {
    /** The host token or the Unix socket. */
    HOST,
    /** An instance token: only routes of its own {@code /v1/instances/{id}} (or routes without an instance). */
    INSTANCE,
    /** The web console's token (its listener lets only GET and POST through). */
    CONSOLE
  }

  static final Set<Caller> ANYONE = EnumSet.allOf(Caller.class);
  static final Set<Caller> HOST_ONLY = EnumSet.of(Caller.HOST);

  /** A route's work: answers the request (always handles it). */
  @FunctionalInterface
  interface Action {
    void run(TetherHandler api, Call call) throws Exception;
  }

  /** One request matched to its row. */
  record Call(Route route, Lookup at, Request request, Response response, Callback callback, String grantId,
      Caller caller, InstanceRegistry.Entry entry) {
    /** The value of {@code {name}} in the path. */
    String param(String name) {
      return at.param(name);
    }

    /** The instance the path names ({@code /v1/instances/{id}/...}). */
    String instance() {
      return at.instance();
    }
  }

  /**
   * One row: {@code method template}, who may call it, and what answers it; the template is the
   * metric name. An {@code ingress} row puts frames or files into an instance and is held to the
   * ingress rate limits ({@link IngressRateLimits}) before its handler runs.
   */
  record Route(String method, String template, Set<Caller> callers, Action action, boolean ingress) {
    /** A row that is not ingress. */
    Route(String method, String template, Set<Caller> callers, Action action) {
      this(method, template, callers, action, false);
    }

    /** An ingress row (see above). */
    static Route ingress(String method, String template, Set<Caller> callers, Action action) {
      if (!template.startsWith(INSTANCE_PREFIX + "/")) {
        throw new IllegalArgumentException("an ingress route puts into an instance, below " + INSTANCE_PREFIX + ", but was "
            + template);
      }
      return new Route(method, template, callers, action, true);
    }

    Route {
      callers = Set.copyOf(callers);
      if (callers.contains(Caller.CONSOLE) && !"GET".equals(method) && !"POST".equals(method)) {
        throw new IllegalArgumentException("the console reads and sends only (GET, POST) but " + method + " " + template
            + " lets it in");
      }
    }

    /** The metric name: the template, never the raw path. */
    String metric() {
      return template;
    }
  }

  private static final String INSTANCE_PREFIX = "/v1/instances/{id}";

  private final List<Route> routes;
  private final Node root = new Node(null, null, false);
  private final int maxSegments;

  RouteTable(List<Route> routes) {
    this.routes = List.copyOf(routes);
    int max = 0;
    for (Route r : this.routes) {
      String[] s = r.template().split("/", -1);
      if (!s[0].isEmpty()) {
        throw new IllegalArgumentException("a template starts with '/' but was " + r.template());
      }
      max = Math.max(max, s.length);
      Node n = root;
      StringBuilder prefix = new StringBuilder();
      for (int i = 1; i < s.length; i++) {
        prefix.append('/').append(s[i]);
        n = n.child(s[i], INSTANCE_PREFIX.contentEquals(prefix));
      }
      for (Route other : n.routes) {
        if (other.method().equals(r.method())) {
          throw new IllegalStateException("two rows for " + r.method() + " " + r.template());
        }
      }
      n.routes.add(r);
      for (Node up = n; up != null; up = up.parent) {
        up.below.add(r);
      }
    }
    this.maxSegments = max;
  }

  List<Route> routes() {
    return routes;
  }

  /** Walks {@code path} (decoded for dispatch, raw for metrics; null matches nothing). */
  Lookup find(String path) {
    if (path == null || !path.startsWith("/")) {
      return new Lookup(root, false, List.of(), 0);
    }
    String[] s = path.split("/", -1);
    Node n = root;
    List<String[]> params = new ArrayList<>(2);
    for (int i = 1; i < s.length; i++) {
      Node next = n.literals.get(s[i]);
      if (next == null && n.param != null && !s[i].isEmpty()) {
        next = n.param;
        params.add(new String[] {next.name, s[i], next.instance ? "i" : ""});
      }
      if (next == null) {
        return new Lookup(n, false, params, s.length);
      }
      n = next;
    }
    return new Lookup(n, true, params, s.length);
  }

  /** Where a path led: {@code node} is its own (when {@code exact}) or the deepest one reached. */
  final class Lookup {
    private final Node node;
    private final boolean exact;
    private final List<String[]> params;
    private final int segments;

    private Lookup(Node node, boolean exact, List<String[]> params, int segments) {
      this.node = node;
      this.exact = exact;
      this.params = params;
      this.segments = segments;
    }

    /** The row for {@code method}, or null (no such path, or not with this method). */
    Route route(String method) {
      if (!exact) {
        return null;
      }
      for (Route r : node.routes) {
        if (r.method().equals(method)) {
          return r;
        }
      }
      return null;
    }

    /** Whether the path has rows (with other methods, when {@link #route} is null). */
    boolean exact() {
      return exact && !node.routes.isEmpty();
    }

    /** The path's methods in the table's order, for {@code Allow}: {@code GET, POST}. */
    String allow() {
      StringJoiner j = new StringJoiner(", ");
      node.routes.forEach(r -> j.add(r.method()));
      return j.toString();
    }

    /** The metric name of the path: its template, or {@link RouteNames#OTHER}. */
    String metric() {
      return exact() ? node.routes.get(0).metric() : RouteNames.OTHER;
    }

    String param(String name) {
      for (String[] p : params) {
        if (p[0].equals(name)) {
          return p[1];
        }
      }
      return null;
    }

    /** The id in {@code /v1/instances/{id}...}, or null. */
    String instance() {
      for (String[] p : params) {
        if (!p[2].isEmpty()) {
          return p[1];
        }
      }
      return null;
    }

    /**
     * Whether the path goes below {@code /v1/instances/{id}} (and is no deeper than the longest
     * template): such a request names a registered instance, 404 {@code INSTANCE_NOT_FOUND} first.
     */
    boolean belowInstance() {
      return instance() != null && segments > INSTANCE_PREFIX.split("/", -1).length && segments <= maxSegments;
    }

    /**
     * Whether {@code caller} may take this path with {@code method} ({@code scope}: an instance
     * token's instance). With a row for the method, the row says. Otherwise (the answer is a 404 or
     * 405): an instance token learns it only inside its own instance where every route below is
     * one it may take, the console only where some route below is one it may take, the host
     * everywhere.
     */
    boolean permits(Caller caller, String method, String scope) {
      if (caller == Caller.HOST) {
        return true;
      }
      Route r = route(method);
      if (r != null) {
        return takes(r, caller, scope);
      }
      if (caller == Caller.INSTANCE) {
        return (exact() || instance() != null) && node.below.stream().allMatch(x -> takes(x, caller, scope));
      }
      return node.below.stream().anyMatch(x -> x.callers().contains(caller));
    }

    private boolean takes(Route r, Caller caller, String scope) {
      return r.callers().contains(caller)
          && (caller != Caller.INSTANCE || !r.template().startsWith(INSTANCE_PREFIX) || scope.equals(instance()));
    }
  }

  private static final class Node {
    final Node parent;
    final String name; // of the parameter this node binds, else null
    final boolean instance; // the {id} of /v1/instances/{id}
    final Map<String, Node> literals = new HashMap<>();
    Node param;
    final List<Route> routes = new ArrayList<>(2);
    final List<Route> below = new ArrayList<>(); // routes here and in the subtree

    Node(Node parent, String name, boolean instance) {
      this.parent = parent;
      this.name = name;
      this.instance = instance;
    }

    Node child(String segment, boolean instancePrefix) {
      if (segment.startsWith("{") && segment.endsWith("}")) {
        String n = segment.substring(1, segment.length() - 1);
        if (param == null) {
          param = new Node(this, n, instancePrefix);
        } else if (!param.name.equals(n)) {
          throw new IllegalArgumentException("{" + param.name + "} and {" + n + "} at one place in the path");
        }
        return param;
      }
      return literals.computeIfAbsent(segment, s -> new Node(this, null, false));
    }
  }
}
