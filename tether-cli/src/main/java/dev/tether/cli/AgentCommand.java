package dev.tether.cli;

import dev.tether.client.HostAddress;
import dev.tether.client.PollRequest;
import dev.tether.client.TetherClient;
import dev.tether.sessions.FileBlobStore;
import dev.tether.sessions.SessionStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code tether agent}: the demo guest agent, talking to a host over its HTTP API (or, under
 * {@code tether serve --with-agent}, to the server in process).
 */
@Command(name = "agent", mixinStandardHelpOptions = true,
    description = {"Run the demo guest agent against a tether host.",
        "Without a model it describes each received image (format, pixel size, bytes) and draws a PNG bar chart when asked for a chart.",
        "With ANTHROPIC_API_KEY, OPENAI_API_KEY or OLLAMA_HOST set it streams a real model's answer."})
final class AgentCommand implements Callable<Integer> {
  @CommandLine.Mixin
  ClientOptions.Direct hostOptions = new ClientOptions.Direct();

  @Option(names = "--instance", paramLabel = "ID", defaultValue = "default", description = "The instance to serve. Default: ${DEFAULT-VALUE}.")
  String instance;

  @Option(names = "--after-seq", paramLabel = "SEQ", defaultValue = "-1",
      description = "Answer messages after this seq; default: only messages sent after the agent starts.")
  long afterSeq;

  @Option(names = "--images", paramLabel = "inline|blob", defaultValue = "inline",
      description = "How the agent sends its images: inline base64, or blob refs uploaded to the host (POST .../blob). Default: ${DEFAULT-VALUE}.")
  String images = "inline";

  @Option(names = "--model", paramLabel = "NAME", description = "The model name (default depends on the provider).")
  String model;

  @Option(names = "--demo", description = "Use the deterministic demo answer even when an API key is set.")
  boolean demo;

  @Option(names = "--approval",
      description = "Ask a human before drawing a chart: send event.tool_approval_request and draw only after a"
          + " control.tool_approval that approves it (tether_approve in 'tether mcp', or the console).")
  boolean approval;

  @Option(names = "--approval-timeout", paramLabel = "SECONDS", defaultValue = "300",
      description = "With --approval: how long to wait for the answer before answering without the chart. Default: ${DEFAULT-VALUE}.")
  long approvalTimeoutSeconds = 300;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "Where the agent keeps its sessions (JSONL per channel and id) and their images (content-addressed blobs). Default: ~/.tether/agent.")
  Path dataDir;

  @CommandLine.Mixin
  LogOptions logs = new LogOptions();

  @Override
  public Integer call() throws Exception {
    logs.install("agent");
    HostAddress address = hostOptions.address();
    requireImagesMode(images);
    try (TetherClient client = hostOptions.connect(address, "blob".equals(images))) {
      return serve(client, address.toString());
    }
  }

  /**
   * Answers {@link #instance}'s messages through {@code client} until the process stops: what
   * {@code tether agent} runs over HTTP and {@code tether serve --with-agent} in process.
   *
   * @param where the host as the ready line names it
   * @return the exit status
   */
  int serve(TetherClient client, String where) throws Exception {
    ModelReplier.Endpoint endpoint = demo ? null : ModelReplier.fromEnvironment(System.getenv(), model);
    Replier replier = endpoint == null ? new DemoReplier() : new ModelReplier(endpoint);
    Path dir = dataDir == null ? Connections.home().resolve(".tether").resolve("agent") : dataDir;
    DataDir.claim("--data-dir", dir); // 0700, an existing one of ours tightened, another user's refused
    try (SessionStore sessions = SessionStore.builder(dir.resolve("sessions"), FileBlobStore.open(dir.resolve("blobs"))).build()) {
      long start = afterSeq;
      if (start < 0) {
        // A page that matches no type tells where the instance's seq stands now.
        start = client.poll(instance, new PollRequest(null, null, 0, 1, 0, Set.of("-"), null))
            .get(30, TimeUnit.SECONDS).nextSeq();
      }
      if (approvalTimeoutSeconds <= 0) {
        throw new UsageException("--approval-timeout must be > 0 but was " + approvalTimeoutSeconds);
      }
      DemoAgent agent = new DemoAgent(client, instance, replier, sessions,
          approval ? Duration.ofSeconds(approvalTimeoutSeconds) : null);
      CountDownLatch done = new CountDownLatch(1);
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        agent.close();
        try {
          done.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "tether-agent-shutdown"));
      long from = start;
      try {
        agent.run(from, () -> System.err.println("tether agent: ready on " + where + " instance " + instance
            + " after seq " + from + ", sessions in " + dir + ", answering with " + replier.describe()));
      } finally {
        done.countDown();
      }
    } catch (ExecutionException e) {
      System.err.println("tether agent: cannot reach the host at " + where + ": " + DemoAgent.rootMessage(e));
      return 1;
    }
    return 0;
  }

  static void requireImagesMode(String images) {
    if (!"inline".equals(images) && !"blob".equals(images)) {
      throw new UsageException("--images must be inline or blob but was '" + images + "'");
    }
  }
}
