package dev.tether.examples;

import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.Frames;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.client.FramePage;
import dev.tether.client.HostAddress;
import dev.tether.client.PollRequest;
import dev.tether.client.SendReceipt;
import dev.tether.client.TetherClient;
import dev.tether.client.http.HttpTetherClient;
import dev.tether.server.TetherServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A service that hosts instances itself: it embeds the daemon on a Unix socket with the builder's
 * default store (the bounded in-memory store of {@code tether serve}), an "agent" answers through
 * the server's in-process client, and the host side talks to the daemon over HTTP with {@link HttpTetherClient}, as a remote service would. Prints the
 * answer and exits 0.
 */
public final class ServerExample {
  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("tether-example");
    HostAddress socket = new HostAddress.Unix(dir.resolve("tether.sock"));
    try (TetherServer server = TetherServer.builder()
            .listen(socket)
            .workspaces(dir.resolve("workspaces"))
            .instance("vm-1")
            .start();
        TetherClient agent = server.localClient();
        HttpTetherClient host = HttpTetherClient.builder(server.boundAddress()).build()) {
      SessionKey session = SessionKey.host("demo");

      // The agent: wait for the next user.message and answer it.
      CompletableFuture<SendReceipt> answered = agent
          .poll("vm-1", new PollRequest("host", "demo", 0, 1, 10_000, Set.of(FrameTypes.USER_MESSAGE), null))
          .thenCompose(page -> {
            Frame question = page.frames().get(0);
            String text = ((Payload.UserMessage) question.payloadView()).text();
            return agent.send("vm-1", Frames.assistantDone(session, question.msgId().orElseThrow(), "You said: " + text, List.of()));
          });

      // The host, over HTTP: send, then long-poll for the answer to this message.
      SendReceipt sent = host.send("vm-1", Frames.hostUserMessage("demo", "hello over HTTP", List.of())).get(10, TimeUnit.SECONDS);
      FramePage reply = host.poll("vm-1", new PollRequest("host", "demo", sent.ingressSeq(), 1, 10_000,
          Set.of(FrameTypes.ASSISTANT_DONE), sent.msgId())).get(20, TimeUnit.SECONDS);
      answered.get(10, TimeUnit.SECONDS);
      Frame done = reply.frames().get(0);
      System.out.println("seq " + done.seq() + " on " + server.boundAddress() + ": "
          + ((Payload.AssistantDone) done.payloadView()).text());
    }
  }
}
